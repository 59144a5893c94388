/** Fix-all: the preferred fixes of a file's findings as one edit, only in that file, converging. */
import * as assert from 'assert/strict';
import * as path from 'path';
import { combinedFix } from '../core/fix-all';
import { applyEdits, loadCase, runCase } from './support/fixtures';
import { fixturesDir } from './support/paths';

const demo = loadCase(path.join(fixturesDir, 'demo')).files;
const migrations = 'apps/postgres/migrations.yaml';

function fixAll(files: Record<string, string>, file: string, rule?: string) {
  const findings = runCase(files).filter((finding) => finding.file === file);
  return { findings, fix: combinedFix('all', file, findings, rule) };
}

suite('fix-all', () => {
  test('one rule: every finding of it in the file fixed at once, the others left', () => {
    const { findings, fix } = fixAll(demo, migrations, 'DOLLAR-COLLAPSE');
    assert.equal(findings.filter((f) => f.rule === 'DOLLAR-COLLAPSE').length, 2);
    assert.equal(fix?.count, 2);
    const after = applyEdits(demo[migrations], fix!.edits);
    assert.equal(after.split('\n')[20], '    DO $$$$ BEGIN DELETE FROM sessions WHERE expired; END $$$$;');
    const left = runCase({ ...demo, [migrations]: after }).filter((f) => f.file === migrations).map((f) => f.rule);
    assert.deepEqual(left, ['ENVSUBST-PARSE']);
  });

  test('every rule, applied twice, is the same as once, and edits only the file', () => {
    const once = applyEdits(demo[migrations], fixAll(demo, migrations).fix!.edits);
    assert.deepEqual(runCase({ ...demo, [migrations]: once }).filter((f) => f.file === migrations && f.fixes.some((x) => x.preferred)), []);
    assert.equal(fixAll({ ...demo, [migrations]: once }, migrations).fix, undefined, 'nothing left to fix');

    // UNDEFINED-VAR's fix defines the variable in the cluster's ConfigMap: another file, so not part of it.
    const cronjob = 'apps/backup/cronjob.yaml';
    const { findings, fix } = fixAll(demo, cronjob);
    assert.ok(findings.some((f) => f.rule === 'UNDEFINED-VAR' && f.fixes.some((x) => x.preferred && x.edits.some((e) => e.file !== cronjob))));
    assert.ok(fix && fix.edits.every((edit) => edit.file === cronjob));
  });

  test('identical edits count once; a fix that overlaps one already taken is left out whole', () => {
    const edit = (start: number, end: number, newText: string) => ({ file: 'f', range: { start, end }, newText });
    const fix = combinedFix('all', 'f', [
      { rule: 'A', fixes: [{ title: 'a', preferred: true, edits: [edit(0, 0, 'x'), edit(5, 7, 'y')] }] },
      { rule: 'A', fixes: [{ title: 'same', preferred: true, edits: [edit(0, 0, 'x')] }] },
      { rule: 'B', fixes: [{ title: 'overlaps', preferred: true, edits: [edit(10, 12, 'z'), edit(6, 8, 'w')] }] },
      { rule: 'B', fixes: [{ title: 'not preferred', edits: [edit(20, 21, 'v')] }] },
    ]);
    assert.deepEqual(fix?.edits.map((e) => e.newText), ['x', 'y']);
    assert.equal(fix?.count, 2);
  });
});
