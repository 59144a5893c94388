/**
 * The shortcut for files no rule can report on (core/workspace/nothing-to-check.ts) changes
 * nothing a user sees: every fixture repository, and every mutation of one, gives the same
 * findings and the same count of checked fields with it as without it (a check restricted to
 * a list of rules, here all of them, always runs in full).
 */
import * as assert from 'assert/strict';
import * as fc from 'fast-check';
import { Engine } from '../core/engine';
import { MemoryHost } from '../core/host';
import { RULES } from '../core/rules';
import { holdsRuleMarkers, scalarsOfCleanText } from '../core/workspace/nothing-to-check';
import { parseYamlFile } from '../core/yaml/document';
import { scalarsOf } from '../core/yaml/scalar-sites';
import { goYamlScalarCount } from '../core/goyaml/v2/parser';
import { loadRepos, mutatedRepoArb } from './support/mutations';

const seed = Number(process.env.RENDER_LENS_FUZZ_SEED ?? 20261202);
const numRuns = Number(process.env.RENDER_LENS_FUZZ_RUNS ?? 150);
const allRules = RULES.map((rule) => rule.id);

/**
 * Whether go-yaml and the yaml package count a different number of scalars in a text both
 * read, or the yaml package misreads one go-yaml reads (`*app: x`, stray BOMs): a file only
 * go-yaml reads is counted as go-yaml reads it, a full check counts the yaml package's nodes.
 * Only the count can differ then, never a finding.
 */
function countsDisagree(text: string): boolean {
  const counted = goYamlScalarCount(text);
  if (counted === undefined) return false;
  const parsed = parseYamlFile(text);
  return parsed.documents.some((d) => d.errors.length > 0) || counted !== parsed.documents.reduce((n, d) => n + [...scalarsOf(d, text)].length, 0);
}

function compare(files: Record<string, string>): void {
  const shortcut = new Engine(new MemoryHost(files)).analyzeWorkspace();
  const full = new Engine(new MemoryHost(files)).analyzeWorkspace([''], { only: allRules });
  assert.deepEqual(shortcut.findings, full.findings);
  if (!Object.entries(files).some(([file, text]) => /\.ya?ml$/.test(file) && countsDisagree(text))) assert.equal(shortcut.fields, full.fields);
  assert.equal(shortcut.files, full.files);
}

suite('files nothing can be reported on', () => {
  const repos = loadRepos();

  test('every fixture repository: the same findings and field counts with the shortcut as without', () => {
    for (const repo of repos) compare(repo.files);
  });

  test('mutated fixture repositories: the same findings and field counts', () => {
    fc.assert(fc.property(mutatedRepoArb(repos), (m) => compare(m.files)), { seed, numRuns });
  });

  test('a file the shortcut takes parses without error, with as many scalars as it counted', () => {
    let taken = 0;
    for (const repo of repos) {
      for (const [file, text] of Object.entries(repo.files)) {
        if (!/\.ya?ml$/.test(file)) continue;
        const count = holdsRuleMarkers(text) ? undefined : scalarsOfCleanText(text);
        if (count === undefined) continue;
        taken++;
        const parsed = parseYamlFile(text);
        assert.deepEqual(parsed.problems, [], `${repo.name}/${file}`);
        if (countsDisagree(text)) continue;
        assert.equal(count, parsed.documents.reduce((n, d) => n + [...scalarsOf(d, text)].length, 0), `${repo.name}/${file}`);
      }
    }
    // Plain Deployments and Services are common in the fixtures: the shortcut must take some.
    assert.ok(taken >= 10, `taken ${taken}`);
  });
});
