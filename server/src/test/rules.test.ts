import * as assert from 'assert/strict';
import * as path from 'path';
import { RULES } from '../core/rules';
import { applyPreferredFixes, describeFinding, listCases, loadCase, runCase } from './support/fixtures';

for (const rule of RULES) {
  suite(`rule ${rule.id}`, () => {
    for (const dir of listCases(rule.id)) {
      test(path.basename(dir), () => {
        const fixture = loadCase(dir);
        const findings = runCase(fixture.files, [rule.id]);
        const actual = findings.map((f) => describeFinding(f, fixture.files[f.file])).sort();
        assert.deepEqual(actual, [...fixture.expected].sort(), 'findings differ from the inline annotations');
        if (fixture.expected.length === 0) {
          const marked = Object.values(fixture.files).some((text) => /^\s*# expect: none\s*$/m.test(text));
          assert.ok(marked, 'a case without expected findings must say `# expect: none`');
        }

        if (Object.keys(fixture.fixed).length > 0) {
          const once = fixAll(fixture.files, rule.id);
          for (const [file, golden] of Object.entries(fixture.fixed)) assert.equal(once[file], golden, `${file}: applying the preferred fixes does not give ${file}.fixed`);
          assert.deepEqual(fixAll(once, rule.id), once, 'applying the fixes a second time changed the files again');
        }
      });
    }
  });
}

/** Applies every preferred fix of the rule's findings, in whichever file each edit targets. */
function fixAll(files: Record<string, string>, ruleId: string): Record<string, string> {
  const findings = runCase(files, [ruleId]);
  return Object.fromEntries(Object.entries(files).map(([file, text]) => [file, applyPreferredFixes(file, text, findings)]));
}
