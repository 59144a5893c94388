import * as assert from 'assert/strict';
import * as fs from 'fs';
import { createRequire } from 'module';
import * as path from 'path';
import { Engine } from '../core/engine';
import { MemoryHost } from '../core/host';
import { readReviewPolicy } from '../core/review-policy';
import { applyEdits, loadCase } from './support/fixtures';
import { fixturesDir, projectRoot } from './support/paths';

const schema = JSON.parse(fs.readFileSync(path.join(projectRoot, 'server', 'schemas', 'render-lens.schema.json'), 'utf8')) as object;
const Ajv = (createRequire(path.join(projectRoot, 'package.json'))('ajv') as { default: new (o: object) => { validate(s: object, d: unknown): boolean } }).default;
const ajv = new Ajv({ allErrors: true });

const entry = { path: 'apps/db.yaml', context: 'DO $$ BEGIN PERFORM 1; END $$;', reason: 'the loader re-doubles every dollar before it runs this block, so DO $ is expected' };

suite('reviewed exceptions in .render-lens.yaml', () => {
  test('the schema takes allow entries, reasonMinLength and strictDollars, and refuses wildcards and short contexts', () => {
    assert.ok(ajv.validate(schema, { allow: [entry], reasonMinLength: 60, strictDollars: true }));
    assert.ok(!ajv.validate(schema, { allow: [{ ...entry, path: 'apps/*.yaml' }] }));
    assert.ok(!ajv.validate(schema, { allow: [{ ...entry, context: 'DO $$' }] }));
    assert.ok(!ajv.validate(schema, { allow: [{ path: entry.path, context: entry.context }] }));
    assert.ok(!ajv.validate(schema, { strictDollars: 'yes' }));
  });

  test('bad keys are reported at their place, and a valid policy reads back', () => {
    const policy = readReviewPolicy('reasonMinLength: many\nstrictDollars: 1\nallow: {}\n');
    assert.deepEqual(
      policy.problems.map((p) => p.message),
      ['`reasonMinLength` must be a whole number of characters.', '`strictDollars` must be true or false.', '`allow` must be a list of entries with `path`, `context` and `reason`.'],
    );
    assert.equal(policy.problems[0].range.start, 'reasonMinLength: '.length);
    const good = readReviewPolicy(`reasonMinLength: 10\nstrictDollars: true\nallow:\n  - path: ${entry.path}\n    context: "${entry.context}"\n    reason: short but ok\n`);
    assert.deepEqual([good.reasonMinLength, good.strictDollars, good.allow.map((a) => [a.path, a.context, a.reason])], [10, true, [[entry.path, entry.context, 'short but ok']]]);
  });

  test('reasonMinLength decides which suppression comments apply', () => {
    const files = loadCase(path.join(fixturesDir, 'rules', 'UNUSED-SUPPRESSION', 'reviewed-exceptions')).files;
    const silentDefaults = (config: string | undefined) =>
      new Engine(new MemoryHost({ ...files, ...(config === undefined ? {} : { '.render-lens.yaml': config }) }))
        .analyzeWorkspace()
        .findings.filter((f) => f.rule === 'SILENT-DEFAULT').length;
    // The file's `-- fine` (4 characters) applies only once the minimum is that low.
    assert.equal(silentDefaults(undefined) - silentDefaults('reasonMinLength: 4\n'), 1);
  });

  test("DOLLAR-HALF-ESCAPED's second fix keeps the dollar as a reviewed allow entry, which then excuses that run alone", () => {
    const files: Record<string, string> = { ...loadCase(path.join(fixturesDir, 'rules', 'DOLLAR-HALF-ESCAPED', 'odd-runs')).files, '.render-lens.yaml': 'strict: true\n' };
    const halfEscaped = (all: Record<string, string>) => new Engine(new MemoryHost(all)).analyzeWorkspace().findings.filter((f) => f.rule === 'DOLLAR-HALF-ESCAPED');
    const before = halfEscaped(files);
    const price = before.find((f) => f.message.startsWith('`$$${`') && files[f.file].slice(f.range.start - 7, f.range.start) === 'price: ');
    assert.ok(price, 'the price finding');
    const keep = price.fixes.find((fix) => !fix.preferred);
    assert.ok(keep, 'a second fix');
    assert.match(keep.title, /^Keep `\$` before the value of `\$\{AMOUNT\}`: mark as reviewed/);
    const config = applyEdits(files['.render-lens.yaml'], keep.edits);
    assert.match(config, /^allow:\n  - path: apps\/.*\n    context: ".*price: \$\$\$\{AMOUNT\}.*"\n    reason: "`\$\$\$\{AMOUNT\}` arrives as `\$` followed by the value of `\$\{AMOUNT\}`, which is meant"\n/m);
    const after = halfEscaped({ ...files, '.render-lens.yaml': config });
    assert.equal(after.length, before.length - 1);
  });
});
