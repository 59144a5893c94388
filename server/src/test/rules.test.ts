import * as assert from 'assert/strict';
import * as path from 'path';
import { MemoryHost } from '../core/host';
import { Engine } from '../core/engine';
import { RULES } from '../core/rules';
import { applyPreferredFixes, describeFinding, listCases, loadCase, runCase } from './support/fixtures';

for (const rule of RULES) {
  suite(`rule ${rule.id}`, () => {
    for (const dir of listCases(rule.id)) {
      test(path.basename(dir), () => {
        const fixture = loadCase(dir);
        const findings = runCase(fixture, [rule.id]);
        const actual = findings.map((f) => describeFinding(f, fixture.files[f.file])).sort();
        assert.deepEqual(actual, [...fixture.expected].sort(), 'findings differ from the inline annotations');
        if (fixture.expected.length === 0) {
          const marked = Object.values(fixture.files).some((text) => /^\s*# expect: none\s*$/m.test(text));
          assert.ok(marked, 'a case without expected findings must say `# expect: none`');
        }

        for (const [file, golden] of Object.entries(fixture.fixed)) {
          const fixedOnce = fixUntilStable(file, fixture.files, rule.id);
          assert.equal(fixedOnce, golden, `${file}: applying the preferred fixes does not give ${file}.fixed`);
        }
      });
    }
  });
}

/** Applies the preferred fixes; applying them again must change nothing (fixes converge). */
function fixUntilStable(file: string, files: Record<string, string>, ruleId: string): string {
  const applyOnce = (text: string) => {
    const engine = new Engine(new MemoryHost({ ...files, [file]: text }));
    return applyPreferredFixes(file, text, engine.analyzeFile(file, { only: [ruleId] }).findings);
  };
  const once = applyOnce(files[file]);
  assert.equal(applyOnce(once), once, `${file}: applying the fixes a second time changed the text again`);
  return once;
}
