/**
 * A rule that throws is logged once per file, with the file, and skipped; the other rules'
 * findings are exactly what they are without it. The rule is injected into the registry for
 * the test only.
 */
import * as assert from 'assert/strict';
import { Engine } from '../../core/engine';
import { MemoryHost } from '../../core/host';
import { RULES } from '../../core/rules';
import type { Rule } from '../../core/rules/rule';
import { configMap, fluxKustomization } from '../support/hostile-repos';

const files = {
  ...fluxKustomization('apps', 'apps'),
  'apps/a.yaml': configMap('a', '  port: "${A}"\n  run: echo $$HOME\n'),
  'apps/b.yaml': configMap('b', '  x: ${UNDEFINED}\n'),
};

/** Throws on every file, after reporting once: what it reported before is kept, the rest is lost. */
const throwing: Rule = {
  id: 'TEST-THROWS',
  severity: 'warning',
  summary: 'Throws (test only).',
  docs: '',
  *check(context) {
    yield { range: { start: 0, end: 0 }, message: 'before the throw' };
    throw new Error(`deliberate failure in ${context.file}`);
  },
};

/** Reads a field of undefined, as a real bug would. */
const buggy: Rule = {
  id: 'TEST-BUGGY',
  severity: 'warning',
  summary: 'A TypeError (test only).',
  docs: '',
  check: (context) => [(context as unknown as { missing: { field: string } }).missing.field].map(() => ({ range: { start: 0, end: 0 }, message: '' })),
};

suite('robustness: a rule that throws', () => {
  const registry = RULES as Rule[];
  setup(() => registry.push(throwing, buggy));
  teardown(() => registry.splice(registry.indexOf(throwing), 2));

  test('is logged once per file with the file, and the other rules still report', () => {
    const log: string[] = [];
    const engine = new Engine(new MemoryHost(files), { log: (m) => log.push(m) });
    const first = engine.analyzeWorkspace(['']).findings;
    // Edits re-check files again and again: the failure is not logged again.
    for (let i = 0; i < 3; i++) engine.analyzeFile('apps/a.yaml');
    engine.update('apps/a.yaml', `${files['apps/a.yaml']}# edited\n`);
    engine.analyzeFile('apps/a.yaml');

    const checked = Object.keys(files).sort();
    assert.deepEqual(log.filter((m) => m.startsWith('rule TEST-THROWS failed on ')).map((m) => m.split(' ')[4]), checked);
    assert.deepEqual(log.filter((m) => m.startsWith('rule TEST-BUGGY failed on ')).map((m) => m.split(' ')[4]), checked);
    assert.equal(log.length, 2 * checked.length, log.join('\n'));
    assert.ok(log.every((m) => /\(logged once\): (Error: deliberate failure in |TypeError: )/.test(m)), log.join('\n'));

    registry.splice(registry.indexOf(throwing), 2);
    const alone = new Engine(new MemoryHost(files)).analyzeWorkspace(['']).findings;
    registry.push(throwing, buggy);
    const others = first.filter((f) => !f.rule.startsWith('TEST-'));
    assert.deepEqual(others, alone);
    assert.ok(others.some((f) => f.rule === 'TYPE-CHANGE') && others.some((f) => f.rule === 'UNDEFINED-VAR'));
    assert.deepEqual(
      first.filter((f) => f.rule === 'TEST-THROWS').map((f) => f.file),
      checked,
      'what it reported before throwing is kept',
    );
  });
});
