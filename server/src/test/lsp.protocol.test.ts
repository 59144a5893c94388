/** The built server, spoken to over stdio as a separate process. */
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { pathToFileURL } from 'url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LspTestClient } from './support/lsp-client';

suite('language server over stdio', () => {
  let workspace: string;
  let client: LspTestClient;

  suiteSetup(async () => {
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'render-lens-lsp-'));
    client = await LspTestClient.start(workspace);
  });

  suiteTeardown(async () => {
    const code = await client.stop();
    assert.equal(code, 0, 'the server exits cleanly after shutdown');
    fs.rmSync(workspace, { recursive: true, force: true });
  });

  const uriOf = (name: string) => pathToFileURL(path.join(workspace, name)).toString();

  test('publishes envsubst parse errors and half-escaped dollar runs at their exact ranges', async () => {
    const text = ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: scripts', 'data:', '  run.sh: |', '    echo "${HOSTS[0]}"', '    echo "$$${HOME}"', ''].join('\n');
    const uri = uriOf('scripts.yaml');
    const published = await client.open(uri, text);
    const document = TextDocument.create(uri, 'yaml', 1, text);
    const seen = published.diagnostics.map((d) => [d.code, document.getText(d.range), d.range.start.line, d.range.start.character]);
    assert.deepEqual(seen, [
      ['ENVSUBST-PARSE', '${HOSTS[0]}', 6, 10],
      ['DOLLAR-HALF-ESCAPED', '$$$', 7, 10],
    ]);
    assert.equal(published.version, 1);
    for (const diagnostic of published.diagnostics) {
      assert.equal(diagnostic.source, 'render-lens');
      assert.match(diagnostic.codeDescription?.href ?? '', new RegExp(`/docs/rules/${String(diagnostic.code)}\\.md$`));
    }
  });

  test('offers the quick fix the finding carries, and the fixed text is clean', async () => {
    const uri = uriOf('fix.yaml');
    const text = 'data:\n  run.sh: echo "${ARR[1]}"\n';
    const published = await client.open(uri, text);
    const [diagnostic] = published.diagnostics;
    const actions = await client.codeActions(uri, diagnostic);
    const preferred = actions.find((action) => action.isPreferred);
    assert.ok(preferred, 'a preferred quick fix is offered');
    const edits = preferred.edit?.changes?.[uri] ?? [];
    const fixed = TextDocument.applyEdits(TextDocument.create(uri, 'yaml', 1, text), edits);
    assert.equal(fixed, 'data:\n  run.sh: echo "$${ARR[1]}"\n');
    const republished = await client.replace(uri, fixed, 2);
    assert.deepEqual(republished.diagnostics, []);
  });

  test('reports broken YAML where it breaks and keeps serving', async () => {
    const uri = uriOf('broken.yaml');
    const published = await client.open(uri, 'metadata:\n  labels: {app: web\n');
    assert.deepEqual(published.diagnostics.map((d) => d.code), ['YAML-SYNTAX']);
    const after = await client.open(uriOf('after.yaml'), 'a: "${X"\n');
    assert.deepEqual(after.diagnostics.map((d) => d.code), ['ENVSUBST-PARSE']);
  });
});
