/**
 * What a user sees while the server checks the whole workspace in the background (it runs in
 * a worker thread, lsp/workspace-check-worker.ts), and while they type faster than a check
 * runs: the built server, spoken to over stdio.
 */
import * as assert from 'assert/strict';
import { DidChangeTextDocumentNotification } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { SEED, generateManifest, random } from './support/generate';
import { fluxKustomization } from './support/hostile-repos';
import { ProbeClient } from './support/probe-client';
import { removeWorkspace, writeWorkspace } from './support/temp-workspace';

/** A small manifest with two findings: a `$$` that arrives as `$`, and a variable nobody defines. */
const small = ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: small', 'data:', '  run.sh: |', '    echo "pid $$"', '    echo "${cluster}"', ''].join('\n');

suite('language server: the background check and bursts of keystrokes', function () {
  this.timeout(120_000);
  let root: string;

  suiteSetup(() => {
    // The check meets the big manifest first (files are checked in path order), then the small one.
    root = writeWorkspace({ ...fluxKustomization('apps', 'apps'), 'apps/a-big.yaml': generateManifest(SEED ^ 0xb16, 40_000), 'apps/small.yaml': small });
  });

  suiteTeardown(() => removeWorkspace(root));

  test('a file opened as the workspace check starts gets its diagnostics before the check reaches the end of a big manifest, and progress begins, reports and ends', async () => {
    const client = await ProbeClient.start(root, {}, { checkWorkspaceOnStartup: true });
    try {
      // The server asks for a token just before the check starts: the editor opens a file then.
      const token = await client.progressWhere(() => true);
      const uri = client.uriOf(root, 'apps/small.yaml');
      const published = await client.open(uri, small);
      assert.deepEqual(published.diagnostics.map((d) => d.code), ['DOLLAR-COLLAPSE', 'UNDEFINED-VAR']);
      const big = client.uriOf(root, 'apps/a-big.yaml');
      assert.ok(!client.published.some((p) => p.uri === big), 'the open file waited for the check of the big manifest');
      assert.ok(!client.progress.get(token)?.some((v) => v.kind === 'end'), 'the open file waited for the workspace check');
      await client.progressWhere((values) => values.some((v) => v.kind === 'end'));
      const values = client.progress.get(token) ?? [];
      assert.equal(values[0]?.kind, 'begin');
      assert.ok(values.some((v) => v.kind === 'report'), 'progress was reported');
      assert.equal(values[values.length - 1]?.kind, 'end');
      // The big manifest's diagnostics came from the check; the open file's only from its own check.
      assert.ok(client.published.some((p) => p.uri === big && p.diagnostics.length > 0), 'the background check published the big manifest');
      assert.ok(client.published.filter((p) => p.uri === uri).every((p) => p.version === 1), 'the open file was not published from disk');
    } finally {
      await client.stop();
    }
  });

  test('after a burst of keystrokes sent without waiting, the last version gets the diagnostics its whole text gets', async () => {
    const client = await ProbeClient.start(root, {}, { checkWorkspaceOnStartup: false });
    try {
      const text = generateManifest(SEED ^ 0xb0257, 600);
      const uri = client.uriOf(root, 'apps/typed.yaml');
      await client.open(uri, text);
      // Typing, deleting and new lines in a few places, as the editor sends them.
      const next = random(SEED ^ 0x7e57);
      let document = TextDocument.create(uri, 'yaml', 1, text);
      const pieces = ['x', ' ', '$', '${', 'cluster', '}', '$$', '\n    ', '"'];
      const burst = 400;
      for (let i = 0; i < burst; i++) {
        const line = Math.floor(next() * document.lineCount);
        const at = { line, character: Math.floor(next() * 30) };
        const end = next() < 0.2 ? { line, character: at.character + 2 } : at;
        const change = { range: { start: at, end }, text: pieces[Math.floor(next() * pieces.length)] };
        document = TextDocument.update(document, [change], i + 2);
        void client.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: i + 2 }, contentChanges: [change] });
      }
      const last = await client.nextDiagnostics(uri, burst + 1);
      // The same text sent whole: checked from scratch, without any keystroke's span.
      const whole = await client.replace(uri, document.getText(), burst + 2);
      const seen = (d: (typeof last.diagnostics)[number]) => `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${String(d.code)} ${d.message}`;
      assert.ok(whole.diagnostics.length > 0);
      assert.deepEqual(last.diagnostics.map(seen), whole.diagnostics.map(seen));
      const versions = client.published.filter((p) => p.uri === uri).map((p) => p.version ?? 0);
      assert.deepEqual(versions, [...versions].sort((a, b) => a - b), 'publishes arrive in version order');
    } finally {
      await client.stop();
    }
  });
});
