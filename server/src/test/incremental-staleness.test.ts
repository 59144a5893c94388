/**
 * Kept findings read their document's offsets (document-cache.ts DocumentRange), and the
 * incremental re-parse moves untouched documents, their nodes and fast scalars in place
 * (reparse.ts, fast-nodes.ts moveNode). After random edits of a substituted multi-document
 * manifest, an engine that followed every version must give, through every reader:
 * (a) the findings' ranges, related locations and fix edits a new engine gives, read
 *     through the Range getters (not JSON);
 * (b) the same diagnostics and code actions through the LSP conversion (toDiagnostics, FixStore,
 *     toCodeActions), the same bytes of the publish as the stdio transport writes it (kept
 *     diagnostic bodies, diagnostic-json.ts), and no fixes of an older version once the
 *     document moved on;
 * (c) the node ranges of a full parse of the new text, some scalars having had their range
 *     read (made) before the edit and some not.
 * Between edits it also runs what else reads the open file: a workspace check (no `keep`),
 * a hover's documentsOf, and now and then two edits with no check between.
 */
import * as assert from 'assert/strict';
import * as YAML from 'yaml';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LSP_REPO_KEY, lspExtra } from './support/lsp-repo';
import { compare } from './support/parse-compare';
import { randomEdit } from './support/random-edits';
import { CLUSTERS, FIRST_APP_BASE, SEED, generateManifest, random } from './support/generate';
import { Engine } from '../core/engine';
import { MemoryHost } from '../core/host';
import type { Finding, Range } from '../core/model';
import { parseYamlFile } from '../core/yaml/document';
import type { Message } from 'vscode-languageserver/node';
import { toCodeActions, toDiagnostics } from '../lsp/convert';
import { encodeMessage } from '../runtime/diagnostic-json';
import { FixStore } from '../lsp/fix-store';
import { generatedRepoFiles } from './support/generated-repo';

const manifest = `${FIRST_APP_BASE}/scripts.yaml`;
const uri = `file:///repo/${manifest}`;
const uriOf = (file: string) => `file:///repo/${file}`;

/** A range as a reader sees it: through its getters. */
const at = (range: Range) => [range.start, range.end];

/** Every offset and text of the findings, read the way the server reads them. */
function view(findings: readonly Finding[]): unknown[] {
  return findings.map((f) => ({
    rule: f.rule,
    severity: f.severity,
    file: f.file,
    message: f.message,
    range: at(f.range),
    related: f.related.map((r) => ({ file: r.file, message: r.message, range: at(r.range) })),
    fixes: f.fixes.map((fix) => ({ title: fix.title, preferred: fix.preferred, edits: fix.edits.map((e) => ({ file: e.file, newText: e.newText, range: at(e.range) })) })),
  }));
}

/** What the language server publishes for `version`, and the code actions of each diagnostic. */
function lsp(engine: Engine, findings: readonly Finding[], text: string, version: number, store: FixStore) {
  const document = TextDocument.create(uri, 'yaml', version, text);
  const textOf = (file: string) => engine.index.text(file);
  const own = findings.filter((f) => f.file === manifest);
  const diagnostics = toDiagnostics(document, own, version, store, uriOf, textOf);
  const actions = diagnostics.map((d) => toCodeActions(d, store.fixesOf(uri, d.data, version), manifest, document, uriOf, textOf));
  // As the stdio transport writes the publish (diagnostic-json.ts: kept bodies from their bytes).
  const written = Buffer.from(encodeMessage({ jsonrpc: '2.0', method: 'textDocument/publishDiagnostics', params: { uri, version, diagnostics } } as Message)).toString('utf-8');
  return { diagnostics: JSON.parse(JSON.stringify(diagnostics)) as unknown, written, actions: JSON.parse(JSON.stringify(actions)) as unknown, count: actions.flat().length };
}

/** Reads the range of about a third of the scalars, so that some fast scalars have their array made before the next move. */
function touchRanges(engine: Engine, next: () => number): void {
  const parsed = engine.index.parsed(manifest);
  for (const document of parsed?.documents ?? []) {
    if (next() < 0.5) continue;
    YAML.visit(document, (_key, node) => {
      if (YAML.isScalar(node) && next() < 0.3) void node.range?.[0];
    });
  }
}

suite('incremental readers = a fresh check', () => {
  const files = generatedRepoFiles({ files: 200, extraKey: LSP_REPO_KEY, extra: lspExtra });
  const patch = `vars/${CLUSTERS[0]}/cluster-vars-patch.yaml`;

  test('findings, LSP diagnostics and code actions, and node ranges after random edits', () => {
    const next = random(SEED ^ 0x5a1e);
    const host = new MemoryHost(files);
    let findingsChecked = 0;
    let actionsChecked = 0;
    for (let n = 0; n < 14; n++) {
      const following = new Engine(host);
      const store = new FixStore();
      let version = 1;
      let text = generateManifest(SEED ^ (n + 101), 60 + Math.floor(next() * 140));
      following.update(manifest, text);
      let previous = lsp(following, following.analyzeFile(manifest, { keep: true }).findings, text, version, store);
      for (let step = 0; step < 8; step++) {
        if (next() < 0.15) {
          // A variable the manifest reads changes: every kept finding is stale.
          const changed = (host.readFile(patch) ?? '').replace(/region: \S+/, `region: r${n}-${step}`);
          host.setFile(patch, changed);
          following.update(patch, changed);
        }
        touchRanges(following, next);
        // Now and then two versions arrive before a check (the re-parse spans both edits).
        const edits = next() < 0.2 ? 2 : 1;
        for (let e = 0; e < edits; e++) {
          text = randomEdit(text, next);
          following.update(manifest, text);
          version++;
        }
        // Fixes of the version before are not handed out for this one.
        for (const d of previous.diagnostics as Array<{ data?: unknown }>) assert.deepEqual(store.fixesOf(uri, d.data, version), [], `case ${n}, step ${step}: fixes of an older version`);
        // Other readers of the open file between the edit and its check.
        if (next() < 0.3) following.analyzeFile(manifest);
        if (next() < 0.3) following.documentsOf(manifest, Math.floor(next() * text.length));

        const incremental = following.analyzeFile(manifest, { keep: true }).findings;
        const fresh = new Engine(host);
        fresh.update(manifest, text);
        const expected = fresh.analyzeFile(manifest).findings;
        const where = `case ${n}, step ${step}`;
        // (a) the findings as read through the getters
        assert.deepEqual(view(incremental), view(expected), `${where}: findings`);
        // (b) through the LSP conversion and the fix store
        const got = lsp(following, incremental, text, version, store);
        const want = lsp(fresh, expected, text, version, new FixStore());
        assert.deepEqual(got.diagnostics, want.diagnostics, `${where}: diagnostics`);
        assert.equal(got.written, want.written, `${where}: the publish as written`);
        assert.deepEqual(got.actions, want.actions, `${where}: code actions`);
        // (c) the re-parsed file's nodes, read through the yaml API
        const difference = compare(following.index.parsed(manifest)!, parseYamlFile(text));
        assert.equal(difference, undefined, `${where}: parse: ${difference}`);
        findingsChecked += incremental.length;
        actionsChecked += got.count;
        previous = got;
      }
      host.setFile(patch, files[patch]);
    }
    // Findings and fixes must be there to go stale.
    assert.ok(findingsChecked > 500, `only ${findingsChecked} findings compared`);
    assert.ok(actionsChecked > 100, `only ${actionsChecked} code actions compared`);
  }).timeout(240_000);
});
