/** The built server, spoken to over stdio as a separate process. */
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { pathToFileURL } from 'url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { checkWorkspaceCommand, contextsRequest, renderRequest, type ContextsResult, type RenderResult } from '../protocol';
import { ProbeClient } from './support/probe-client';

suite('language server over stdio', () => {
  let workspace: string;
  let client: ProbeClient;

  suiteSetup(async () => {
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'render-lens-lsp-'));
    // A Flux Kustomization that substitutes everything under apps/.
    fs.mkdirSync(path.join(workspace, 'clusters', 'production'), { recursive: true });
    fs.mkdirSync(path.join(workspace, 'apps'));
    fs.writeFileSync(
      path.join(workspace, 'clusters', 'production', 'apps.yaml'),
      ['apiVersion: kustomize.toolkit.fluxcd.io/v1', 'kind: Kustomization', 'metadata:', '  name: apps', '  namespace: flux-system', 'spec:', '  path: ./apps', '  postBuild:', '    substitute:', '      cluster: production', ''].join('\n'),
    );
    client = await ProbeClient.start(workspace);
  });

  suiteTeardown(async () => {
    const code = await client.stop();
    assert.equal(code, 0, 'the server exits cleanly after shutdown');
    fs.rmSync(workspace, { recursive: true, force: true });
  });

  /** Writes the file to disk, as a user's repository has it, and returns its URI. */
  const fileOf = (name: string, text: string) => {
    fs.writeFileSync(path.join(workspace, 'apps', name), text);
    return pathToFileURL(path.join(workspace, 'apps', name)).toString();
  };

  test('publishes envsubst parse errors and half-escaped dollar runs at their exact ranges', async () => {
    const text = ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: scripts', 'data:', '  run.sh: |', '    echo "${HOSTS[0]}"', '    echo "$$${HOME}"', ''].join('\n');
    const uri = fileOf('scripts.yaml', text);
    const published = await client.open(uri, text);
    const document = TextDocument.create(uri, 'yaml', 1, text);
    const seen = published.diagnostics.map((d) => [d.code, document.getText(d.range), d.range.start.line, d.range.start.character]);
    assert.deepEqual(seen, [
      ['ENVSUBST-PARSE', '${HOSTS[0]}', 6, 10],
      ['DOLLAR-HALF-ESCAPED', '$$$', 7, 10],
      ['UNDEFINED-VAR', 'HOME', 7, 14],
    ]);
    assert.equal(published.version, 1);
    // Related information points into the Kustomization's own file, at its own line numbers.
    const related = published.diagnostics[0].relatedInformation?.[0];
    assert.ok(related && related.location.uri.endsWith('/clusters/production/apps.yaml'));
    assert.deepEqual([related.location.range.start.line, related.location.range.start.character], [8, 4]);
    for (const diagnostic of published.diagnostics) {
      assert.equal(diagnostic.source, 'render-lens');
      assert.match(diagnostic.codeDescription?.href ?? '', new RegExp(`/docs/rules/${String(diagnostic.code)}\\.md$`));
    }
  });

  test("a keystroke's range reaches the engine, which re-parses from it; a whole new text is compared instead", async () => {
    const debug = await ProbeClient.start(workspace, { RENDER_LENS_LOG: 'debug' });
    try {
      const text = ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: one', 'data:', '  a: "${cluster}"', '---', 'apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: two', 'data:', '  b: "$${HOME} ${region}"', ''].join('\n');
      const uri = fileOf('typed.yaml', text);
      await debug.open(uri, text);
      // Typing `x` into the second document's value: `${region}` becomes `${regionx}`.
      const at = { line: 12, character: text.split('\n')[12].indexOf('}"') };
      const typed = await debug.edit(uri, { start: at, end: at }, 'x', 2);
      const after = text.replace('${region}', '${regionx}');
      const fresh = await debug.open(fileOf('fresh.yaml', after), after);
      const shape = (d: (typeof typed.diagnostics)[number]) => [d.code, d.range, String(d.message)];
      assert.deepEqual(typed.diagnostics.map(shape), fresh.diagnostics.map(shape));
      assert.ok(typed.diagnostics.some((d) => String(d.message).includes('regionx')));
      const updated = (version: number) => debug.log.find((line) => line.includes(`updated apps/typed.yaml v${version}`));
      assert.match(updated(2) ?? '', /v2 from the editor's range in/);
      await debug.replace(uri, text, 3);
      assert.match(updated(3) ?? '', /v3 in/, 'a whole text has no range to pass on');
    } finally {
      await debug.stop();
    }
  });

  test('offers the quick fix the finding carries, and the fixed text is clean', async () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fix\ndata:\n  run.sh: echo "${ARR[1]}"\n';
    const uri = fileOf('fix.yaml', text);
    const published = await client.open(uri, text);
    const [diagnostic] = published.diagnostics;
    const actions = await client.codeActions(uri, diagnostic);
    const preferred = actions.find((action) => action.isPreferred);
    assert.ok(preferred, 'a preferred quick fix is offered');
    const edits = preferred.edit?.changes?.[uri] ?? [];
    const fixed = TextDocument.applyEdits(TextDocument.create(uri, 'yaml', 1, text), edits);
    assert.equal(fixed, text.split('${ARR').join('$${ARR'));
    const republished = await client.replace(uri, fixed, 2);
    assert.deepEqual(republished.diagnostics, []);
  });

  test('a fix may edit a file that is not open, and an edit retires the fixes of the version before it', async () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: region\ndata:\n  where: ${region}\n';
    const uri = fileOf('region.yaml', text);
    const published = await client.open(uri, text);
    const undefinedVar = published.diagnostics.find((d) => d.code === 'UNDEFINED-VAR');
    assert.ok(undefinedVar, 'region is not defined');
    // The diagnostic says which fixes are its own; the edits stay on the server.
    assert.ok(!JSON.stringify(undefinedVar.data).includes('newText'));
    const actions = await client.codeActions(uri, undefinedVar);
    const kustomization = pathToFileURL(path.join(workspace, 'clusters', 'production', 'apps.yaml')).toString();
    const define = actions.find((action) => action.edit?.changes?.[kustomization] !== undefined);
    assert.ok(define, `a fix defines the variable in the closed Kustomization: ${actions.map((a) => a.title).join(' | ')}`);
    const source = fs.readFileSync(path.join(workspace, 'clusters', 'production', 'apps.yaml'), 'utf8');
    const defined = TextDocument.applyEdits(TextDocument.create(kustomization, 'yaml', 0, source), define.edit!.changes![kustomization]);
    assert.match(defined, /\n {6}region: ""\n/);
    await client.replace(uri, text.replace('where:', 'where2:'), 2);
    assert.deepEqual(await client.codeActions(uri, undefinedVar), [], 'fixes computed for version 1 are not offered on version 2');
  });

  test('reports broken YAML where it breaks and keeps serving', async () => {
    const broken = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  labels: {app: web\n';
    const published = await client.open(fileOf('broken.yaml', broken), broken);
    assert.deepEqual(published.diagnostics.map((d) => d.code), ['YAML-SYNTAX']);
    const next = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: after\ndata:\n  a: "${X"\n';
    const after = await client.open(fileOf('after.yaml', next), next);
    assert.deepEqual(after.diagnostics.map((d) => d.code), ['ENVSUBST-PARSE']);
  });

  test('hovers an expression with what it becomes and where the value comes from', async () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: hover\ndata:\n  where: in ${cluster}\n';
    const uri = fileOf('hover.yaml', text);
    await client.open(uri, text);
    const document = TextDocument.create(uri, 'yaml', 1, text);
    const hover = await client.hover(uri, document.positionAt(text.indexOf('${cluster}') + 3));
    assert.ok(hover && hover.range && typeof hover.contents === 'object' && 'value' in hover.contents);
    assert.equal(document.getText(hover.range), '${cluster}');
    assert.match(hover.contents.value, /\| production\/apps \(strict\) \| `production` \|/);
    // The file:line reference is a link that opens the place: the file's URI, the line as `#L10`.
    const kustomization = pathToFileURL(path.join(workspace, 'clusters', 'production', 'apps.yaml')).toString();
    assert.ok(hover.contents.value.includes(`from postBuild.substitute of Kustomization apps — [clusters/production/apps.yaml:10](${kustomization}#L10)`), hover.contents.value);
  });

  test('checks the whole workspace on request, files not open included', async () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: closed\ndata:\n  sql: DO $$ BEGIN END $$;\n';
    fs.writeFileSync(path.join(workspace, 'apps', 'closed.yaml'), text);
    const uri = pathToFileURL(path.join(workspace, 'apps', 'closed.yaml')).toString();
    const published = client.nextDiagnostics(uri);
    const result = (await client.executeCommand(checkWorkspaceCommand)) as { files: number; findings: number };
    assert.ok(result.files >= 1 && result.findings >= 2);
    assert.deepEqual((await published).diagnostics.map((d) => d.code), ['DOLLAR-COLLAPSE', 'DOLLAR-COLLAPSE']);
  });

  test('goes to the definition of a variable and renames it everywhere', async () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: nav\ndata:\n  where: in ${cluster}\n';
    const uri = fileOf('nav.yaml', text);
    await client.open(uri, text);
    const document = TextDocument.create(uri, 'yaml', 1, text);
    const position = document.positionAt(text.indexOf('${cluster}') + 4);
    const definitions = await client.request<Array<{ uri: string; range: { start: { line: number } } }>>('textDocument/definition', { textDocument: { uri }, position });
    assert.deepEqual(definitions.map((d) => [path.relative(workspace, new URL(d.uri).pathname), d.range.start.line]), [[path.join('clusters', 'production', 'apps.yaml'), 9]]);
    const rename = await client.request<{ changes: Record<string, unknown[]> }>('textDocument/rename', { textDocument: { uri }, position, newName: 'cluster_name' });
    assert.ok(rename.changes[uri]?.length === 1);
    assert.ok(Object.keys(rename.changes).some((u) => u.endsWith('clusters/production/apps.yaml')));
    await assert.rejects(client.request('textDocument/rename', { textDocument: { uri }, position, newName: 'bad.name' }), /not a name Flux accepts/);
  });

  test('renders a file as the controller applies it, per context', async () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: rendered\ndata:\n  where: in ${cluster}\n  sql: DO $$ END $$\n';
    const uri = fileOf('rendered.yaml', text);
    await client.open(uri, text);
    const { contexts, kind } = await client.request<ContextsResult>(contextsRequest, { uri });
    assert.deepEqual(contexts.map((c) => [c.label, c.substitutes]), [['production/apps', true]]);
    assert.equal(kind, 'yaml');
    const rendered = await client.request<RenderResult>(renderRequest, { uri, context: 0 });
    assert.match(rendered.text, /^ {2}where: in production$/m);
    assert.match(rendered.text, /^ {2}sql: DO \$ END \$$/m);
  });

  test('says what a file no Flux Kustomization renders is checked as: a Helm template, a Fleet file, or plain YAML (the status bar)', async () => {
    const files: Record<string, string> = {
      'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
      'charts/web/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\n',
      'bundles/web/fleet.yaml': 'defaultNamespace: web\n',
      'loose/plain.yaml': 'a: 1\n',
    };
    const kinds: string[] = [];
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(workspace, file)), { recursive: true });
      fs.writeFileSync(path.join(workspace, file), text);
    }
    for (const file of ['charts/web/templates/cm.yaml', 'bundles/web/fleet.yaml', 'loose/plain.yaml']) {
      const answer = await client.request<ContextsResult>(contextsRequest, { uri: pathToFileURL(path.join(workspace, file)).toString() });
      kinds.push(`${file} ${answer.kind} ${answer.contexts.length}`);
    }
    assert.deepEqual(kinds, ['charts/web/templates/cm.yaml helm-template 0', 'bundles/web/fleet.yaml fleet 0', 'loose/plain.yaml yaml 0']);
  });

  test('does not flag files that Flux does not substitute', async () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: outside\ndata:\n  run.sh: echo "${ARR[1]}"\n';
    fs.writeFileSync(path.join(workspace, 'outside.yaml'), text);
    const published = await client.open(pathToFileURL(path.join(workspace, 'outside.yaml')).toString(), text);
    assert.deepEqual(published.diagnostics, []);
  });
});
