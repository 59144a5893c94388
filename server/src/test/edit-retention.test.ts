/**
 * An open manifest is re-parsed one document at a time, and the engine keeps the other
 * documents (their nodes, scalars and findings) from one version to the next. What it keeps
 * must not hold on to the text of the version it was read from: a document re-parsed from a
 * slice of a 2 MB manifest kept that whole version alive for as long as the document was
 * kept, so typing in one document after another kept one more copy of the file per keystroke.
 */
import * as assert from 'assert/strict';
import { LSP_REPO_KEY, lspExtra } from './support/lsp-repo';
import { FIRST_APP_BASE, SEED, generateManifest } from './support/generate';
import { Engine } from '../core/engine';
import { MemoryHost } from '../core/host';
import { collector } from '../dev/collector';
import { generatedRepoFiles } from './support/generated-repo';

const manifest = `${FIRST_APP_BASE}/scripts.yaml`;

/** The text with `x` typed at the end of a script line near `fraction` of it (one document changes, the graph does not). */
function typeAt(text: string, fraction: number): string {
  const marker = '\n    set -eu\n';
  const line = text.indexOf(marker, Math.floor(text.length * fraction)) + marker.length;
  const end = text.indexOf('\n', line);
  return `${text.slice(0, end)}x${text.slice(end)}`;
}

suite('edits keep no old versions of an open file', () => {
  test('typing in one document after another keeps no copy of the text per keystroke', () => {
    const gc = collector();
    assert.ok(gc, 'the collector is reachable');
    const engine = new Engine(new MemoryHost(generatedRepoFiles({ files: 200, extraKey: LSP_REPO_KEY, extra: lspExtra })));
    let text = generateManifest(SEED ^ 0x7e7e, 20_000);
    engine.update(manifest, text);
    engine.analyzeFile(manifest, { keep: true });
    // Once before measuring, so that the re-parse and its caches exist.
    text = typeAt(text, 0.05);
    engine.update(manifest, text);
    engine.analyzeFile(manifest, { keep: true });
    gc();
    gc();
    const before = process.memoryUsage().heapUsed;
    const edits = 12;
    let findings = 0;
    for (let i = 1; i <= edits; i++) {
      text = typeAt(text, i / (edits + 1));
      engine.update(manifest, text);
      findings = engine.analyzeFile(manifest, { keep: true }).findings.length;
    }
    gc();
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    assert.ok(findings > 100, `the manifest has findings to keep (${findings})`);
    // A version of the text is text.length bytes. Collections leave the heap within about one of
    // that between two measures; keeping every version grew it by eleven (8.3 MB).
    assert.ok(grown < 3 * text.length, `the heap grew by ${(grown / 1e6).toFixed(1)} MB over ${edits} keystrokes in a ${(text.length / 1e6).toFixed(1)} MB manifest`);
  }).timeout(120_000);
});
