/**
 * The findings of an engine that followed every version of an open file equal those of a new
 * engine on the last version. The following engine re-parses only the documents an edit
 * touched, keeps each document's scalars and the findings of per-scalar rules, moves them
 * with their document, and drops them when the graph changes: any of that going stale shows
 * here. Edits are seeded random keystrokes that also break the YAML, add `---` and `$$`, and
 * now and then change a variable the manifest reads (a graph change between two edits).
 */
import * as assert from 'assert/strict';
import { LSP_REPO_KEY, lspExtra } from './support/lsp-repo';
import { randomEdit, randomSpannedEdit } from './support/random-edits';
import { CLUSTERS, FIRST_APP_BASE, SEED, generateManifest, random } from './support/generate';
import { Engine } from '../core/engine';
import type { ChangedSpan } from '../core/workspace/text-change';
import { MemoryHost } from '../core/host';
import { generatedRepoFiles } from './support/generated-repo';
import { loadRepos } from './support/mutations';

const manifest = `${FIRST_APP_BASE}/scripts.yaml`;

suite('incremental analysis = a fresh check', () => {
  const files = generatedRepoFiles({ files: 200, extraKey: LSP_REPO_KEY, extra: lspExtra });
  const patch = `vars/${CLUSTERS[0]}/cluster-vars-patch.yaml`;

  test('random edits of a substituted multi-document manifest', () => {
    const next = random(SEED ^ 0x1c4e);
    const host = new MemoryHost(files);
    let checked = 0;
    for (let n = 0; n < 12; n++) {
      const following = new Engine(host);
      let text = openManifest(following, SEED ^ (n + 11), next);
      for (let step = 0; step < 6; step++) {
        if (next() < 0.2) {
          // A variable the manifest reads changes value: every cached finding is stale.
          const changed = (host.readFile(patch) ?? '').replace(/region: \S+/, `region: r${step}`);
          host.setFile(patch, changed);
          following.update(patch, changed);
        }
        text = randomEdit(text, next);
        following.update(manifest, text);
        const incremental = following.analyzeFile(manifest, { keep: true });
        const fresh = new Engine(host);
        fresh.update(manifest, text);
        assert.deepEqual(plain(incremental), plain(fresh.analyzeFile(manifest)), `case ${n}, step ${step}`);
        checked += incremental.findings.length;
      }
      host.setFile(patch, files[patch]);
    }
    // Findings must be there to go stale: the edits keep most of the manifest's (a document an
    // edit breaks gives one syntax finding, not a cascade).
    assert.ok(checked > 400, `only ${checked} findings compared`);
  }).timeout(120_000);

  test("edits with the editor's spans: exact, wider than the change, or from another text", () => {
    // The server passes each keystroke's range (lsp/edit-spans.ts): the re-parse and the graph
    // check then skip comparing the versions. A span must only cover the change, and one that
    // does not start from the engine's text must be ignored.
    const next = random(SEED ^ 0x5a4e);
    const host = new MemoryHost(files);
    const used = { exact: 0, wider: 0, foreign: 0 };
    for (let n = 0; n < 8; n++) {
      const following = new Engine(host);
      let text = openManifest(following, SEED ^ (n + 31), next);
      for (let step = 0; step < 8; step++) {
        const before = text;
        const kind = next() < 0.4 ? 'exact' : next() < 0.6 ? 'wider' : 'foreign';
        const edit = kind === 'foreign' ? sameLengthEdit(before, next) : randomSpannedEdit(before, next);
        text = edit.text;
        let span = edit.span;
        if (kind === 'wider') {
          // An editor replacing a stretch around the keystroke with itself.
          const left = Math.min(span.start, Math.floor(next() * 40));
          const right = Math.min(before.length - span.oldEnd, Math.floor(next() * 40));
          span = { start: span.start - left, oldEnd: span.oldEnd + right, newEnd: span.newEnd + right };
        }
        // A span given with another text: it must not be trusted. It says only the first
        // character changed, which fits the lengths, so a trusting engine would keep the
        // document that did change as it was.
        const from = kind === 'foreign' ? `${before} ` : before;
        if (kind === 'foreign') span = { start: 0, oldEnd: 1, newEnd: 1 };
        used[kind]++;
        following.update(manifest, text, { before: from, span });
        // The re-parse starts from the editor's span exactly when it fits the engine's text (an
        // edit that changed nothing leaves the version, and its parse, as they were).
        if (text !== before) assert.equal(following.index.reparsesFromEdit(manifest), kind !== 'foreign', `case ${n}, step ${step}, ${kind} span`);
        const fresh = new Engine(host);
        fresh.update(manifest, text);
        assert.deepEqual(plain(following.analyzeFile(manifest, { keep: true })), plain(fresh.analyzeFile(manifest)), `case ${n}, step ${step}, ${kind} span`);
        // The parse itself, where a stale document would show even if no finding changed.
        const documents = (engine: Engine) => engine.index.parsed(manifest)?.documents.map((d) => [d.range, valueOf(d), d.errors.map((e) => e.message)]);
        assert.deepEqual(documents(following), documents(fresh), `case ${n}, step ${step}, ${kind} span`);
      }
    }
    assert.ok(used.exact > 5 && used.wider > 5 && used.foreign > 5, JSON.stringify(used));
  }).timeout(120_000);

  test('answers shared across checks follow an edit of another file that keeps the graph', () => {
    // UNUSED-VAR reads which names every rendered file mentions, kept while nothing changes.
    const repo = loadRepos().find((r) => r.name === 'rules/UNUSED-VAR/shared-configmap')!;
    const host = new MemoryHost(repo.files);
    const engine = new Engine(host);
    const vars = 'clusters/production/cluster-vars.yaml';
    const unused = () => engine.analyzeFile(vars, { keep: true }).findings.filter((f) => f.rule === 'UNUSED-VAR').map((f) => f.message);
    assert.ok(unused().some((m) => m.startsWith('`region` is not used')));
    // A Deployment starts using `${region}`: not a graph input, so the graph stays.
    const web = 'apps/web.yaml';
    const edited = repo.files[web].replace('example.com/team: ${team}', 'example.com/team: ${team}\n    example.com/region: ${region}');
    assert.notEqual(edited, repo.files[web]);
    host.setFile(web, edited);
    engine.update(web, edited);
    assert.ok(!unused().some((m) => m.startsWith('`region` is not used')), 'region is used now');
    const fresh = new Engine(host);
    assert.deepEqual(plain(engine.analyzeFile(vars, { keep: true })), plain(fresh.analyzeFile(vars)));
  });
});

/** Opens a seeded manifest of 60–180 lines in `engine`, checked as the server keeps it; returns its text. */
function openManifest(engine: Engine, seed: number, next: () => number): string {
  const text = generateManifest(seed, 60 + Math.floor(next() * 120));
  engine.update(manifest, text);
  engine.analyzeFile(manifest, { keep: true });
  return text;
}

/** One character somewhere replaced by another: the text keeps its length. */
function sameLengthEdit(text: string, next: () => number): { text: string; span: ChangedSpan } {
  const at = Math.floor(next() * text.length);
  const by = text[at] === 'x' ? 'y' : 'x';
  return { text: text.slice(0, at) + by + text.slice(at + 1), span: { start: at, oldEnd: at + 1, newEnd: at + 1 } };
}

/** A document's value, or why it has none (an alias without its anchor, after a random edit). */
function valueOf(document: { toJS(options: { mapAsMap: boolean }): unknown }): unknown {
  try {
    return document.toJS({ mapAsMap: true });
  } catch (error) {
    return String(error);
  }
}

/** What every reader of a result sees: a kept finding's ranges read their document's offsets (document-cache.ts). */
function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
