/**
 * Hostile repositories: each one built here (the large ones on disk in a temp directory),
 * analyzed by the engine, hovered and rendered, and where the disk matters run through the
 * CLI. Nothing throws, nothing is logged as a failure, every range lies inside its file, and
 * what is too big or too deep is reported once, at its start, and skipped.
 */
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Engine } from '../../core/engine';
import { MemoryHost, type WorkspaceHost } from '../../core/host';
import { hoverAt } from '../../core';
import { helmHoverAt } from '../../core/helm/hover';
import { maxFileSize, maxFindingsPerFile, maxNestingDepth, maxTemplateParenDepth } from '../../core/limits';
import type { Finding } from '../../core/model';
import { formatRendered, renderContexts, renderFile } from '../../core/render/rendered-file';
import { NodeHost } from '../../node-host';
import { aliasBomb, configMap, deepBlock, deepFlow, fluxKustomization, invalidUtf8, mergeBomb, writeHugeYaml } from '../support/hostile-repos';
import { rangeViolations } from '../support/invariants';
import { RecordingHost, runCli, suiteWorkspaces } from '../support/temp-workspace';

interface Checked {
  engine: Engine;
  findings: Finding[];
  log: string[];
}

/** Analyzes every file, hovers over `targets` and renders them; asserts nothing failed. */
function checkAll(host: WorkspaceHost, targets: readonly string[] = []): Checked {
  const log: string[] = [];
  const engine = new Engine(host, { log: (m) => log.push(m) });
  const { findings } = engine.analyzeWorkspace(['']);
  const textOf = (file: string) => engine.index.text(file);
  assert.deepEqual(rangeViolations(findings, textOf), []);
  for (const file of targets) {
    const text = textOf(file) ?? '';
    // Each hover rebuilds the file's view: a few dozen, spread over the file, are enough.
    const step = Math.max(1, Math.floor(text.length / 40));
    for (let offset = 0; offset <= text.length; offset += step) {
      const hover = hoverAt(engine, file, offset);
      if (hover) assert.ok(hover.range.end <= text.length, `hover range inside ${file}`);
    }
    for (const { context } of renderContexts(engine, file)) formatRendered(file, renderFile(engine, file, context));
  }
  assert.deepEqual(log, [], 'no rule or step failed');
  return { engine, findings, log };
}

function findingsIn(findings: readonly Finding[], file: string): Finding[] {
  return findings.filter((f) => f.file === file);
}

suite('robustness: hostile repositories', function () {
  this.timeout(60000);
  const { temp, keep } = suiteWorkspaces();

  test('kustomization cycles (itself, a → b → a) are cut and reported, each file read once', () => {
    const files = {
      ...fluxKustomization('apps', 'apps'),
      'apps/kustomization.yaml': 'resources:\n  - self\n  - a\n',
      'apps/self/kustomization.yaml': 'resources:\n  - .\n  - ../self\n  - cm.yaml\n',
      'apps/self/cm.yaml': configMap('self', '  k: ${A}\n'),
      'apps/a/kustomization.yaml': 'resources:\n  - ../b\n',
      'apps/b/kustomization.yaml': 'resources:\n  - ../a\n  - cm.yaml\n',
      'apps/b/cm.yaml': configMap('b', '  k: ${A}\n'),
    };
    const host = new RecordingHost(new MemoryHost(files));
    const { engine } = checkAll(host, ['apps/self/cm.yaml', 'apps/b/cm.yaml']);
    const cycles = engine.fluxGraph().problems.filter((p) => p.kind === 'cycle').map((p) => p.message);
    assert.ok(cycles.some((m) => m.includes('apps/self → apps/self')), cycles.join('\n'));
    assert.ok(cycles.some((m) => m.includes('apps/a → apps/b → apps/a')), cycles.join('\n'));
    assert.equal(new Set(host.reads).size, host.reads.length, 'no file is read twice');
  });

  test('symbolic link loops are never followed', async () => {
    const root = temp({ ...fluxKustomization('apps', 'apps'), 'apps/cm.yaml': configMap('cm', '  k: ${A}\n'), 'apps/kustomization.yaml': 'resources:\n  - cm.yaml\n  - loop\n  - up/apps\n' });
    fs.symlinkSync('.', path.join(root, 'apps', 'loop'));
    fs.symlinkSync('..', path.join(root, 'apps', 'up'));
    fs.symlinkSync('b.yaml', path.join(root, 'apps', 'a.yaml'));
    fs.symlinkSync('a.yaml', path.join(root, 'apps', 'b.yaml'));
    fs.symlinkSync('self.yaml', path.join(root, 'apps', 'self.yaml'));
    const host = new NodeHost(root);
    assert.deepEqual(host.listFiles(''), ['apps/cm.yaml', 'apps/kustomization.yaml', 'clusters/prod/apps.yaml']);
    for (const link of ['apps/loop/cm.yaml', 'apps/up/apps/cm.yaml', 'apps/a.yaml', 'apps/self.yaml']) assert.equal(host.readFile(link), undefined, `${link} is not read`);
    checkAll(host, ['apps/cm.yaml']);
    const cli = await runCli(['check', '--format', 'json', '--exit-zero', '.'], root);
    assert.equal(cli.code, 0, cli.stderr);
  });

  test('links and `resources:` that point outside the workspace are never read', async () => {
    const marker = 'OUTSIDE-THE-WORKSPACE-d41d8cd98f';
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'render-lens-outside-'));
    keep(outside);
    fs.writeFileSync(path.join(outside, 'secret.yaml'), configMap('outside', `  k: ${marker}\n`));
    fs.writeFileSync(path.join(outside, 'kustomization.yaml'), 'resources:\n  - secret.yaml\n');
    const escape = path.relative(path.join(os.tmpdir(), 'x', 'apps'), outside).split(path.sep).join('/');
    const root = temp({
      ...fluxKustomization('apps', 'apps'),
      ...fluxKustomization('climb', '../../..'),
      'apps/kustomization.yaml': ['resources:', '  - link.yaml', '  - linkdir', '  - linkdir/secret.yaml', `  - ${escape}/secret.yaml`, `  - ${path.join(outside, 'secret.yaml')}`, '  - ../../../../../../etc/passwd', '  - cm.yaml', ''].join('\n'),
      'apps/cm.yaml': configMap('cm', '  k: ${A}\n'),
    });
    fs.symlinkSync(path.join(outside, 'secret.yaml'), path.join(root, 'apps', 'link.yaml'));
    fs.symlinkSync(outside, path.join(root, 'apps', 'linkdir'));
    const texts: string[] = [];
    const disk = new NodeHost(root);
    const host = new RecordingHost({ listFiles: (dir) => disk.listFiles(dir), readFile: (file) => { const text = disk.readFile(file); if (text !== undefined) texts.push(text); return text; } });
    const { findings, engine } = checkAll(host, ['apps/cm.yaml', 'apps/kustomization.yaml']);
    assert.deepEqual(host.escapes(), [], 'no path outside the workspace is asked for');
    assert.ok(!texts.some((t) => t.includes(marker)), 'nothing outside the workspace is read');
    assert.ok(!JSON.stringify(findings).includes(marker));
    const outsideProblems = engine.fluxGraph().problems.filter((p) => p.kind === 'outside');
    assert.ok(outsideProblems.length >= 3, outsideProblems.map((p) => p.message).join('\n'));
    const cli = await runCli(['check', '--format', 'json', '--exit-zero', '.'], root);
    assert.ok(!cli.stdout.includes(marker) && !cli.stderr.includes(marker));
  });

  test(`a 100 MB YAML file is not parsed: one located information finding says why`, async () => {
    const root = temp({ ...fluxKustomization('apps', 'apps'), 'apps/cm.yaml': configMap('cm', '  k: "${A}"\n') });
    const size = writeHugeYaml(path.join(root, 'apps', 'huge.yaml'), 100);
    assert.ok(size > 100 * 1024 * 1024);
    const { findings } = checkAll(new NodeHost(root), ['apps/huge.yaml']);
    const huge = findingsIn(findings, 'apps/huge.yaml');
    assert.equal(huge.length, 1, JSON.stringify(huge));
    assert.deepEqual([huge[0].rule, huge[0].severity, huge[0].range], ['YAML-SYNTAX', 'information', { start: 0, end: 0 }]);
    assert.match(huge[0].message, /^Not checked: this file is 100\.\d MiB, over Render Lens's limit of 2\.0 MiB per file\.$/);
    assert.ok(findingsIn(findings, 'apps/cm.yaml').length > 0, 'the other files are still checked');
    const cli = await runCli(['check', '--format', 'json', '--exit-zero', 'apps'], root);
    assert.equal(cli.code, 0, cli.stderr);
    assert.ok(cli.stdout.includes('Not checked: this file is 100.'));
  });

  test('a file just over the size limit is skipped; one just under it is checked', () => {
    const under = configMap('under', '  k: "${A}"\n');
    const files = {
      ...fluxKustomization('apps', 'apps'),
      'apps/under.yaml': under + `# ${'x'.repeat(maxFileSize - under.length - 3)}\n`,
      'apps/over.yaml': under + `# ${'x'.repeat(maxFileSize - under.length - 2)}\n`,
    };
    assert.equal(files['apps/under.yaml'].length, maxFileSize);
    const { findings } = checkAll(new MemoryHost(files));
    assert.deepEqual(findingsIn(findings, 'apps/over.yaml').map((f) => f.severity), ['information']);
    assert.ok(findingsIn(findings, 'apps/under.yaml').some((f) => f.rule === 'TYPE-CHANGE'));
  });

  test('a 1 MB single line is checked in bounded time, with at most the per-file limit of findings', () => {
    // Base64-like text with a `$$` and a `${A}` every 500 characters: 4,000 findings.
    const unit = `${'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo'.repeat(14)}$$ \${A}`;
    const line = unit.repeat(Math.ceil((1024 * 1024) / unit.length));
    const files = { ...fluxKustomization('apps', 'apps'), 'apps/line.yaml': configMap('line', `  blob: ${line}\n`), 'apps/plain.yaml': configMap('plain', `  blob: ${'QUJD'.repeat(262144)}\n`) };
    const { findings } = checkAll(new MemoryHost(files), ['apps/line.yaml']);
    const line1 = findingsIn(findings, 'apps/line.yaml');
    assert.equal(line1.length, maxFindingsPerFile + 1);
    const note = line1.filter((f) => /more findings in this file are not shown/.test(f.message));
    assert.equal(note.length, 1);
    assert.equal(note[0].severity, 'information');
    assert.deepEqual(findingsIn(findings, 'apps/plain.yaml'), []);
  });

  test('YAML alias bombs: analysis does not expand them, the preview reports them', () => {
    const files = { ...fluxKustomization('apps', 'apps'), 'apps/lol.yaml': aliasBomb(), 'apps/merge.yaml': mergeBomb() };
    const { engine } = checkAll(new MemoryHost(files), ['apps/lol.yaml', 'apps/merge.yaml']);
    for (const file of ['apps/lol.yaml', 'apps/merge.yaml']) {
      const [{ context }] = renderContexts(engine, file);
      assert.match(formatRendered(file, renderFile(engine, file, context)), /✗ not rendered: its aliases multiply it past 100 copies \(an alias bomb\)/);
    }
  });

  test(`10,000-deep nesting is reported and skipped; ${maxNestingDepth} levels are checked in full`, () => {
    const files = {
      ...fluxKustomization('apps', 'apps'),
      'apps/flow.yaml': deepFlow(10000),
      'apps/block.yaml': deepBlock(10000),
      'apps/flow-limit.yaml': deepFlow(maxNestingDepth - 1),
      'apps/block-limit.yaml': deepBlock(maxNestingDepth - 1),
    };
    const { findings } = checkAll(new MemoryHost(files), Object.keys(files).filter((f) => f.startsWith('apps/')));
    for (const file of ['apps/flow.yaml', 'apps/block.yaml']) {
      assert.deepEqual(
        findingsIn(findings, file).map((f) => [f.rule, f.severity, f.message]),
        [['YAML-SYNTAX', 'information', `Not checked: collections nest 10000 levels deep, over Render Lens's limit of ${maxNestingDepth}.`]],
      );
    }
    // At the limit, the deepest `${A}` (a string field of no known kind) and the data field are both seen.
    for (const file of ['apps/flow-limit.yaml', 'apps/block-limit.yaml']) assert.ok(findingsIn(findings, file).some((f) => f.rule === 'TYPE-CHANGE'), file);
  });

  test(`10,000 nested parentheses in a Helm or Fleet template action are reported and skipped; ${maxTemplateParenDepth} are followed`, () => {
    const nested = (n: number) => `${'('.repeat(n)}.Values.x${')'.repeat(n)}`;
    const chart = (n: number) => ({ [`c${n}/Chart.yaml`]: 'apiVersion: v2\nname: c\nversion: 1.0.0\n', [`c${n}/values.yaml`]: 'x: 1\n', [`c${n}/templates/t.yaml`]: `metadata:\n  labels:\n    a: {{ ${nested(n)} }}\n` });
    const fleet = (n: number) => ({ [`f${n}/fleet.yaml`]: `helm:\n  values:\n    a: \${ ${nested(n).replace('.Values.x', '.ClusterName')} }\n` });
    const files = { ...chart(10000), ...chart(maxTemplateParenDepth), ...fleet(10000), ...fleet(maxTemplateParenDepth) };
    const { engine, findings } = checkAll(new MemoryHost(files));
    const notChecked = `Not checked: parentheses nest more than ${maxTemplateParenDepth} deep here, more than Render Lens follows.`;
    assert.deepEqual(findingsIn(findings, 'c10000/templates/t.yaml').map((f) => [f.rule, f.severity, f.message]), [['HELM-UNQUOTED-STRING', 'information', notChecked]]);
    assert.deepEqual(findingsIn(findings, 'f10000/fleet.yaml').map((f) => [f.rule, f.severity, f.message]), [['FLEET-VALUES-TEMPLATE', 'information', notChecked]]);
    // At the bound the action is followed: the bare value in a label is judged.
    assert.deepEqual(findingsIn(findings, `c${maxTemplateParenDepth}/templates/t.yaml`).map((f) => f.rule), ['HELM-UNQUOTED-STRING']);
    assert.equal(findingsIn(findings, `c${maxTemplateParenDepth}/templates/t.yaml`)[0].severity, 'error');
    assert.deepEqual(findingsIn(findings, `f${maxTemplateParenDepth}/fleet.yaml`), []);
    const deep = files['c10000/templates/t.yaml'];
    assert.match(helmHoverAt(engine, 'c10000/templates/t.yaml', deep.indexOf('{{') + 1)?.markdown ?? '', /Not evaluated: parentheses nest more than/);
  });

  test('10,000 nested `${a:-${a:-…}}`: nothing escapes; a failure is logged once and the preview says so', () => {
    const files = { ...fluxKustomization('apps', 'apps'), 'apps/deep.yaml': configMap('deep', `  k: "${'${a:-'.repeat(10000)}x${'}'.repeat(10000)}"\n`) };
    const log: string[] = [];
    const engine = new Engine(new MemoryHost(files), { log: (m) => log.push(m) });
    for (let i = 0; i < 3; i++) engine.analyzeWorkspace(['']);
    for (let offset = 0; offset < files['apps/deep.yaml'].length; offset += 997) hoverAt(engine, 'apps/deep.yaml', offset);
    const [{ context }] = renderContexts(engine, 'apps/deep.yaml');
    const preview = formatRendered('apps/deep.yaml', renderFile(engine, 'apps/deep.yaml', context));
    // The envsubst parser recurses once per level (see envsubst-bounds.test.ts): until it
    // stops doing so, the scan fails, is logged once, and the value is read as plain text.
    assert.ok(log.length <= 1 && log.every((m) => m.startsWith('envsubst scan failed on apps/deep.yaml (logged once)')), log.join('\n'));
    assert.ok(!preview.includes('${a:-${a:-${a:-') || preview.includes('✗'), 'the preview renders it or says why not');
  });

  test('binary and invalid UTF-8 files named .yaml', async () => {
    const root = temp({
      ...fluxKustomization('apps', 'apps'),
      'apps/random.yaml': invalidUtf8(7, 64 * 1024),
      'apps/utf16.yaml': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(configMap('utf16', '  k: ${A}\n'), 'utf16le')]),
      'apps/truncated.yaml': Buffer.concat([Buffer.from(configMap('cut', '  k: "${A} é'), 'utf8').subarray(0, -1)]),
      'apps/nul.yaml': Buffer.from(configMap('nul', '  k: "a\u0000${A}"\n')),
    });
    checkAll(new NodeHost(root), ['apps/random.yaml', 'apps/utf16.yaml', 'apps/truncated.yaml', 'apps/nul.yaml']);
    const cli = await runCli(['check', '--exit-zero', '.'], root);
    assert.equal(cli.code, 0, cli.stderr);
  });

  test('Fleet name patterns that backtrack catastrophically elsewhere are only compiled (RE2), in bounded time', () => {
    const names = ['(a+)+$', '(a|aa)+b', '(x+x+)+y', '^(([a-z])+.)+[A-Z]([a-z])+$', `${'('.repeat(2000)}a${')'.repeat(2000)}`, '(a*)*'.repeat(500), 'a{1000}{1000}', '((a{1000}){1000}){1000}', '(?<!a)b'];
    const fleet = ['defaultNamespace: web', 'diff:', '  comparePatches:', ...names.map((name) => `    - kind: Deployment\n      name: ${JSON.stringify(name)}\n      operations:\n        - op: ignore`), ''].join('\n');
    const { findings } = checkAll(new MemoryHost({ 'fleet.yaml': fleet }), ['fleet.yaml']);
    const reported = findingsIn(findings, 'fleet.yaml').filter((f) => f.rule === 'FLEET-PATCH-NAME');
    assert.ok(reported.length >= 2, reported.map((f) => f.message).join('\n'));
  });
});
