/**
 * A file is read once per version: a file the Flux graph read through its compact model is
 * checked from that same reading (file-model.ts keeps the block reader's layout and comments;
 * document.ts blockParsedFile builds the parse on its nodes). Checking it that way must give
 * what a check from a fresh parse gives, before and after edits.
 */
import * as assert from 'assert/strict';
import * as fc from 'fast-check';
import { Engine } from '../core/engine';
import { MemoryHost } from '../core/host';
import { loadRepos, mutatedRepoArb } from './support/mutations';

const seed = Number(process.env.RENDER_LENS_FUZZ_SEED ?? 20261203);
const numRuns = Number(process.env.RENDER_LENS_FUZZ_RUNS ?? 150);

/** Findings of a workspace check whose files were parsed before the graph read any of them. */
function parsedFirst(files: Record<string, string>) {
  const engine = new Engine(new MemoryHost(files));
  for (const file of Object.keys(files)) if (/\.ya?ml$/.test(file)) engine.index.parsed(file);
  return engine.analyzeWorkspace();
}

const graphFirst = (files: Record<string, string>) => new Engine(new MemoryHost(files)).analyzeWorkspace();

const repo = {
  'clusters/dev/apps.yaml': `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: apps
  namespace: flux-system
spec:
  path: ./apps
  postBuild:
    substitute:
      region: eu-west-1
`,
  'apps/kustomization.yaml': `resources:
  - migrations.yaml
`,
  // A comment, a literal block with a dollar run, two documents: what the reading must carry.
  'apps/migrations.yaml': `# the audit schema
apiVersion: v1
kind: ConfigMap
metadata:
  name: migrations
data:
  region: \${region}
  001-audit.sql: |
    DO $$
    BEGIN
      CREATE SCHEMA audit;
    END
    $$;
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: other
data:
  greeting: hello # \${unset}
`,
};

suite('one reading per version', () => {
  const repos = loadRepos();

  test('a file the Flux graph read is checked from that reading: its parse holds the same nodes', () => {
    const engine = new Engine(new MemoryHost(repo));
    engine.fluxGraph();
    const file = 'apps/migrations.yaml';
    const roots = engine.index.model(file)!.roots;
    const parsed = engine.index.parsed(file)!;
    assert.equal(parsed.documents.length, 2);
    parsed.documents.forEach((document, i) => assert.equal(document.contents, roots[i], `document ${i}`));
    assert.deepEqual(
      parsed.comments.map((c) => c.text),
      [' the audit schema', ' ${unset}'],
    );
  });

  test('the same findings as from a fresh parse: the repository above, every fixture repository', () => {
    const findings = graphFirst(repo).findings;
    assert.deepEqual(
      findings.map((f) => f.rule),
      ['DOLLAR-COLLAPSE', 'DOLLAR-COLLAPSE', 'UNDEFINED-VAR'],
    );
    assert.deepEqual(findings, parsedFirst(repo).findings);
    for (const { name, files } of repos) assert.deepEqual(graphFirst(files), parsedFirst(files), name);
  });

  test('mutated fixture repositories: the same findings either way', () => {
    fc.assert(
      fc.property(mutatedRepoArb(repos), (m) => assert.deepEqual(graphFirst(m.files), parsedFirst(m.files))),
      { seed, numRuns },
    );
  });

  test('an edit of a file checked from the graph’s reading: the findings of a new engine', () => {
    const host = new MemoryHost(repo);
    const engine = new Engine(host);
    const file = 'apps/migrations.yaml';
    const keep = { keep: true };
    engine.fluxGraph();
    engine.analyzeFile(file, keep);
    assert.equal(engine.index.parsed(file)!.documents[0].contents, engine.index.model(file)!.roots[0]);
    const edited = repo[file].replace('    $$;\n', () => '    $$$$;\n').replace('greeting: hello', 'greeting: hello there');
    engine.update(file, edited);
    host.setFile(file, edited);
    const after = engine.analyzeFile(file, keep).findings;
    // Kept findings read their document's offsets through getters: compared as JSON.
    assert.deepEqual(JSON.parse(JSON.stringify(after)), JSON.parse(JSON.stringify(new Engine(host).analyzeFile(file).findings)));
    assert.deepEqual(
      after.map((f) => f.rule),
      ['DOLLAR-COLLAPSE', 'UNDEFINED-VAR'],
    );
  });
});
