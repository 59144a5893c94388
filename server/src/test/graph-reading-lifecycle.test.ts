/**
 * A manifest the Flux graph read first (its parse is built on the graph's reading of it,
 * file-model.ts `block`), then opened, edited, closed back to its text on disk, re-opened
 * and edited again, while other files' parses push it out of a small parse cache and the graph
 * is rebuilt now and then. Every check must give a fresh engine's findings, and the bytes the
 * stdio transport writes for them (runtime/diagnostic-json.ts) must be a fresh conversion's.
 */
import * as assert from 'assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Message } from 'vscode-languageserver/node';
import { LSP_REPO_KEY, lspExtra } from './support/lsp-repo';
import { randomEdit } from './support/random-edits';
import { FIRST_APP_BASE, SEED, generateManifest, random } from './support/generate';
import { Engine } from '../core/engine';
import { MemoryHost } from '../core/host';
import type { Finding, Range } from '../core/model';
import { toDiagnostics } from '../lsp/convert';
import { encodeMessage } from '../runtime/diagnostic-json';
import { FixStore } from '../lsp/fix-store';
import { generatedRepoFiles } from './support/generated-repo';

const manifest = `${FIRST_APP_BASE}/scripts.yaml`;
const uri = `file:///repo/${manifest}`;
const uriOf = (file: string) => `file:///repo/${file}`;

/** Findings as a reader sees them: offsets through the range getters. */
const view = (findings: readonly Finding[]) => {
  const at = (range: Range) => [range.start, range.end];
  return findings.map((f) => ({ rule: f.rule, severity: f.severity, message: f.message, range: at(f.range), related: f.related.map((r) => ({ file: r.file, message: r.message, range: at(r.range) })) }));
};

/** The publish as the stdio transport writes it. */
function written(engine: Engine, findings: readonly Finding[], text: string, version: number, store: FixStore): string {
  const document = TextDocument.create(uri, 'yaml', version, text);
  const diagnostics = toDiagnostics(document, findings.filter((f) => f.file === manifest), version, store, uriOf, (file) => engine.index.text(file));
  return Buffer.from(encodeMessage({ jsonrpc: '2.0', method: 'textDocument/publishDiagnostics', params: { uri, version, diagnostics } } as Message)).toString('utf-8');
}

suite('a file the graph read first, through open, edits, close and re-open', () => {
  const base = generatedRepoFiles({ files: 200, extraKey: LSP_REPO_KEY, extra: lspExtra });
  const others = Object.keys(base).filter((file) => file.endsWith('.yaml') && file !== manifest);

  test('every check gives a fresh engine’s findings and publish', () => {
    const next = random(SEED ^ 0x77);
    let compared = 0;
    for (let n = 0; n < 10; n++) {
      const disk = generateManifest(SEED ^ (n + 303), 60 + Math.floor(next() * 120));
      const engine = new Engine(new MemoryHost({ ...base, [manifest]: disk }));
      engine.index.cacheLimits = { files: 3, source: 1e9 };
      engine.fluxGraph();
      assert.ok(engine.index.model(manifest)?.block, 'the graph read the manifest with the block reader');
      const store = new FixStore();
      let version = 0;
      let text = disk;
      const check = (where: string) => {
        const got = engine.analyzeFile(manifest, { keep: true }).findings;
        const fresh = new Engine(new MemoryHost({ ...base, [manifest]: text }));
        const want = fresh.analyzeFile(manifest).findings;
        assert.deepEqual(view(got), view(want), `case ${n} ${where}: findings`);
        assert.equal(written(engine, got, text, version, store), written(fresh, want, text, version, new FixStore()), `case ${n} ${where}: the publish`);
        compared += got.length;
      };
      // Other files' parses push the manifest's out of the cache; checks of others use the graph.
      const elsewhere = () => {
        if (next() < 0.4) for (let i = 0; i < 4; i++) engine.index.parsed(others[Math.floor(next() * others.length)]);
        if (next() < 0.2) engine.analyzeFile(others[Math.floor(next() * others.length)]);
      };
      for (let round = 0; round < 2; round++) {
        // Opened as it is on disk: nothing changes in the index.
        engine.update(manifest, text);
        version++;
        check(`round ${round}, opened`);
        for (let step = 0; step < 6; step++) {
          elsewhere();
          text = randomEdit(text, next);
          engine.update(manifest, text);
          version++;
          if (next() < 0.3) engine.fluxGraph();
          elsewhere();
          check(`round ${round}, edit ${step}`);
        }
        // Closed: the text on disk is the truth again.
        text = disk;
        engine.update(manifest, text);
        if (next() < 0.5) engine.fluxGraph();
        elsewhere();
        engine.analyzeFile(manifest);
      }
    }
    assert.ok(compared > 100, `only ${compared} findings compared`);
  }).timeout(240_000);
});
