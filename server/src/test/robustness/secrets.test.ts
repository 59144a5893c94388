/**
 * Secrets never leak. A repository plants known secrets in Secret `data` and `stringData`, a
 * SOPS-encrypted Secret and a secretGenerator, and reads them as variables into every
 * expression form that can echo a value. Every output is collected — findings, hovers at
 * every offset, rendered previews, explain, the CLI in each format, the language server's
 * diagnostics, code actions, custom requests and its debug log — and searched for each secret,
 * its base64 and their halves.
 */
import * as assert from 'assert/strict';
import { Engine } from '../../core/engine';
import { MemoryHost } from '../../core/host';
import { hoverAt } from '../../core';
import { exportVariables, formatExport } from '../../core/export/variables-export';
import { explainFile, explainVariable, formatExplainedVariable } from '../../core/render/explain';
import { formatRendered, renderContexts, renderFile } from '../../core/render/rendered-file';
import { checkWorkspaceCommand, contextsRequest, explainVariableRequest, renderRequest, type ContextsResult } from '../../protocol';
import { ProbeClient } from '../support/probe-client';
import { findLeak, secretRepo } from '../support/secret-repo';
import { removeWorkspace, runCli, writeWorkspace } from '../support/temp-workspace';

const files = secretRepo();
const yamlFiles = Object.keys(files).filter((f) => f.endsWith('.yaml'));
const variables = ['DB_PASSWORD', 'API_TOKEN', 'PIN', 'PIN_TEXT', 'SESSION_KEY', 'ENC_KEY', 'GENERATED', 'MISSING'];

function assertNoLeak(what: string, text: string): void {
  const leak = findLeak(text);
  assert.equal(leak, undefined, `${what} shows a secret: ${leak}`);
}

/** Removes the source lines `check --format text` prints under each finding (see the pending test). */
function withoutCodeFrames(text: string): string {
  return text
    .split('\n')
    .filter((line) => !/^\s+\d*\s\|/.test(line))
    .join('\n');
}

suite('robustness: secrets never leak', function () {
  this.timeout(60000);
  let root: string;

  suiteSetup(() => {
    root = writeWorkspace(files, 'render-lens-secrets-');
  });
  suiteTeardown(() => removeWorkspace(root));

  test('the planted expressions reach the rules that quote values', () => {
    const findings = new Engine(new MemoryHost(files)).analyzeWorkspace(['']).findings;
    const fired = new Set(findings.map((f) => f.rule));
    for (const rule of ['SILENT-DEFAULT', 'UNDEFINED-VAR', 'TYPE-CHANGE', 'DOLLAR-COLLAPSE', 'ENVSUBST-PARSE']) assert.ok(fired.has(rule), `${rule} fires on the secret repository`);
  });

  test('core: findings, hovers at every offset, previews and explain', () => {
    const log: string[] = [];
    const engine = new Engine(new MemoryHost(files), { log: (m) => log.push(m) });
    for (const finding of engine.analyzeWorkspace(['']).findings) assertNoLeak(`${finding.rule} in ${finding.file}`, JSON.stringify(finding));
    for (const file of yamlFiles) {
      const text = files[file];
      for (let offset = 0; offset <= text.length; offset++) {
        const hover = hoverAt(engine, file, offset);
        if (hover) assertNoLeak(`the hover at ${file}:${offset}`, hover.markdown);
      }
      for (const { label, context } of renderContexts(engine, file)) assertNoLeak(`the preview of ${file} in ${label}`, formatRendered(file, renderFile(engine, file, context)));
      assertNoLeak(`explain ${file}`, JSON.stringify(explainFile(engine, file)));
    }
    for (const name of variables) assertNoLeak(`explain ${name}`, formatExplainedVariable(explainVariable(engine, name)) + JSON.stringify(explainVariable(engine, name)));
    const exported = exportVariables(engine.fluxGraph(), (file) => engine.index.text(file));
    assert.ok(exported.contexts.some((c) => c.variables.some((v) => typeof v.value === 'object' && 'redacted' in v.value)), 'the export holds a redacted Secret value');
    assertNoLeak('export', JSON.stringify(exported) + formatExport(exported));
    assertNoLeak('the engine log', log.join('\n'));
  });

  test('CLI: check in every format, render and explain', async () => {
    const runs: Array<[string, string[]]> = [
      ['check json', ['check', '--exit-zero', '--format', 'json', '.']],
      ['check sarif', ['check', '--exit-zero', '--format', 'sarif', '.']],
      ['check github', ['check', '--exit-zero', '--format', 'github', '.']],
      ['check --strict', ['check', '--exit-zero', '--strict', '--format', 'json', '.']],
      // The files that hold or use secrets, in each cluster that renders them (the core test covers every file).
      ...['apps/deploy.yaml', 'apps/creds.yaml'].flatMap((file): Array<[string, string[]]> => [
        [`render ${file} (prod)`, ['render', file, '--cluster', 'prod']],
        [`render ${file} (staging)`, ['render', file, '--cluster', 'staging']],
      ]),
      ...['raw/broken-secret.yaml', 'raw/substituted-broken.yaml', 'clusters/prod/secrets.yaml', 'clusters/prod/sops-secrets.yaml'].map((file): [string, string[]] => [`render ${file}`, ['render', file]]),
      ...['apps/deploy.yaml', 'apps/creds.yaml', 'clusters/prod/secrets.yaml', 'clusters/prod/kustomization.yaml'].map((file): [string, string[]] => [`explain ${file}`, ['explain', file, '--json']]),
      ['export', ['export']],
      ['export --json', ['export', '--json']],
      ...['DB_PASSWORD', 'ENC_KEY', 'GENERATED'].flatMap((name): Array<[string, string[]]> => [
        [`explain ${name}`, ['explain', name]],
        [`explain ${name} --json`, ['explain', name, '--json']],
      ]),
    ];
    // Several at a time: each run is a process start, most of its time spent loading.
    for (let i = 0; i < runs.length; i += 6) {
      const batch = runs.slice(i, i + 6);
      const results = await Promise.all(batch.map(([, args]) => runCli(args, root)));
      results.forEach((run, j) => {
        const [what] = batch[j];
        assert.notEqual(run.code, 2, `${what} fails: ${run.stderr}`);
        assertNoLeak(what, run.stdout + run.stderr);
      });
    }
    const text = await runCli(['check', '--exit-zero', '--format', 'text', '.'], root);
    assert.equal(text.code, 0, text.stderr);
    assertNoLeak('check text (messages)', withoutCodeFrames(text.stdout) + text.stderr);
  });

  test('CLI: check --format text shows no code frame for findings inside a Secret', async () => {
    const text = await runCli(['check', '--exit-zero', '--format', 'text', '.'], root);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /\(line of a Secret: not shown\)/, 'a finding inside a Secret is reported');
    assertNoLeak('check text (with code frames)', text.stdout + text.stderr);
  });

  test('language server at debug level: diagnostics, code actions, hovers, requests and the log', async () => {
    const client = await ProbeClient.start(root, { RENDER_LENS_LOG: 'debug' });
    try {
      const outputs: Array<[string, unknown]> = [];
      for (const file of yamlFiles) {
        const uri = client.uriOf(root, file);
        const text = files[file];
        const published = await client.open(uri, text);
        outputs.push([`diagnostics of ${file}`, published]);
        for (const diagnostic of published.diagnostics) outputs.push([`code actions of ${diagnostic.code} in ${file}`, await client.codeActions(uri, diagnostic)]);
        const lines = text.split('\n');
        const hovers = lines.flatMap((line, l) => (/[$]/.test(line) ? [...line].map((_, c) => client.hover(uri, { line: l, character: c })) : []));
        outputs.push([`hovers in ${file}`, await Promise.all(hovers)]);
        const { contexts } = (await client.connection.sendRequest(contextsRequest, { uri })) as ContextsResult;
        for (const context of contexts) outputs.push([`preview of ${file} in ${context.label}`, await client.connection.sendRequest(renderRequest, { uri, context: context.id })]);
      }
      const anyUri = client.uriOf(root, 'apps/deploy.yaml');
      for (const name of variables) outputs.push([`explain ${name}`, await client.connection.sendRequest(explainVariableRequest, { uri: anyUri, name })]);
      outputs.push(['check workspace', await client.executeCommand(checkWorkspaceCommand)]);
      outputs.push(['every published diagnostic', client.published]);
      for (const [what, value] of outputs) assertNoLeak(`the server's ${what}`, JSON.stringify(value));
      assert.ok(client.log.some((line) => line.includes('debug')), 'the debug log is on');
      assertNoLeak('the server log', client.log.join('\n'));
      assert.ok(client.alive);
    } finally {
      assert.equal(await client.stop(), 0);
    }
  });
});
