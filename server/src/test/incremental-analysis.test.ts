/**
 * The findings of an engine that followed every version of an open file equal those of a new
 * engine on the last version. The following engine re-parses only the documents an edit
 * touched, keeps each document's scalars and the findings of per-scalar rules, moves them
 * with their document, and drops them when the graph changes: any of that going stale shows
 * here. Edits are seeded random keystrokes that also break the YAML, add `---` and `$$`, and
 * now and then change a variable the manifest reads (a graph change between two edits).
 */
import * as assert from 'assert/strict';
import { LSP_REPO_KEY, lspExtra, randomEdit } from '../bench/incremental.bench';
import { CLUSTERS, FIRST_APP_BASE, SEED, generateManifest, random } from '../bench/generate';
import { Engine } from '../core/engine';
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
      let text = generateManifest(SEED ^ (n + 11), 60 + Math.floor(next() * 120));
      following.update(manifest, text);
      following.analyzeFile(manifest, { keep: true });
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
    // Findings must be there to go stale: the edits keep most of the manifest's.
    assert.ok(checked > 500, `only ${checked} findings compared`);
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

/** What every reader of a result sees: a kept finding's ranges read their document's offsets (document-cache.ts). */
function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
