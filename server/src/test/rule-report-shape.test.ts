/**
 * What rules.test.ts does not compare: a finding's related Kustomizations, the exact shape of
 * its fixes and the order of findings. TYPE-CHANGE and UNDEFINED-VAR build these apart from
 * their loops (problemsOf, undefinedReport), and outcomesOf shares one frozen empty answer.
 */
import * as assert from 'assert/strict';
import * as path from 'path';
import { scanTemplate } from '../core/envsubst';
import { outcomesOf } from '../core/rules/support/variable-outcomes';
import type { Finding } from '../core/model';
import { applyEdits, loadCase, runCase } from './support/fixtures';
import { fixturesDir } from './support/paths';

const caseFiles = (rule: string, name: string) => loadCase(path.join(fixturesDir, 'rules', rule, name)).files;
const relatedFiles = (f: Finding) => f.related.map((r) => r.file);
const line = (f: Finding, text: string) => text.slice(0, f.range.start).split('\n').length;

suite('rule report shape (related, fixes, order)', () => {
  test('TYPE-CHANGE: related names only the contexts with a problem; a free-form warning has no fixes', () => {
    const files = caseFiles('TYPE-CHANGE', 'schedule-and-values');
    // Staging's tag stays a string: only production changes the chart value's type.
    files['clusters/staging/cluster-vars.yaml'] = files['clusters/staging/cluster-vars.yaml'].replace('tag: "1.40"', 'tag: "v1.40"');
    const findings = runCase(files, ['TYPE-CHANGE']);
    const warning = findings.find((f) => f.severity === 'warning');
    assert.ok(warning, 'the free-form warning is still reported');
    assert.match(warning.message, /in production\/apps it becomes the float `1\.4`\. Check/);
    assert.deepEqual(relatedFiles(warning), ['clusters/production/apps.yaml']);
    assert.deepEqual(warning.fixes, []);
    const error = findings.find((f) => f.severity === 'error');
    assert.ok(error);
    assert.deepEqual(relatedFiles(error), ['clusters/production/apps.yaml', 'clusters/staging/apps.yaml']);
    assert.deepEqual(error.fixes, [], 'a value that breaks the YAML gets no quote fix');
  });

  test('UNDEFINED-VAR: a name no context defines can be left for the application, once', () => {
    const files = caseFiles('UNDEFINED-VAR', 'grafana-dashboard');
    const [finding] = runCase(files, ['UNDEFINED-VAR']);
    assert.deepEqual(finding.fixes.map((f) => [f.title, f.preferred === true]), [
      ['Add DS_PROMETHEUS to the postBuild.substitute of Kustomization apps, then set its value', true],
      ['Leave `${DS_PROMETHEUS}` for the application: write `$${DS_PROMETHEUS}`, which Flux turns into `${DS_PROMETHEUS}`', false],
    ]);
    const escaped = { ...files, 'apps/dashboard.yaml': applyEdits(files['apps/dashboard.yaml'], finding.fixes[1].edits) };
    assert.match(escaped['apps/dashboard.yaml'], /"uid": "\$\$\{DS_PROMETHEUS\}" \} \},\n.*"uid": "\$\$\{DS_PROMETHEUS\}"/);
    assert.deepEqual(runCase(escaped, ['UNDEFINED-VAR']), [], 'escaped, nothing is left to fix');
  });

  test('UNDEFINED-VAR: no escape where some context defines the name', () => {
    // `domain` is defined in production and not in staging.
    const finding = runCase(caseFiles('UNDEFINED-VAR', 'two-clusters'), ['UNDEFINED-VAR']).find((f) => f.message.startsWith('`domain`'));
    assert.ok(finding && finding.fixes.length > 0);
    assert.ok(finding.fixes.every((f) => !f.title.startsWith('Leave')), finding.fixes.map((f) => f.title).join('; '));
  });

  test('TYPE-CHANGE: one quote fix, preferred, from the first context with a problem; findings in file order', () => {
    const files = caseFiles('TYPE-CHANGE', 'env-values');
    const findings = runCase(files, ['TYPE-CHANGE']).filter((f) => f.file === 'apps/web.yaml');
    const text = files['apps/web.yaml'];
    assert.deepEqual(findings.map((f) => line(f, text)), [6, 18, 20]);
    assert.deepEqual(findings.map(relatedFiles), [['clusters/staging/apps.yaml'], ['clusters/production/apps.yaml', 'clusters/staging/apps.yaml'], ['clusters/production/apps.yaml']]);
    assert.deepEqual(findings.map((f) => f.fixes.map((x) => [x.preferred, x.edits.length])), [[[true, 2]], [[true, 2]], []]);
  });

  test('UNDEFINED-VAR: related and fixes from the contexts without a default; one preferred fix', () => {
    const findings = runCase(caseFiles('UNDEFINED-VAR', 'two-clusters'), ['UNDEFINED-VAR']);
    assert.deepEqual(findings.map((f) => [f.severity, relatedFiles(f), f.fixes.map((x) => x.preferred === true)]), [
      // Undefined in both clusters: defining it is preferred; leaving it for the application is offered.
      ['error', ['clusters/production/apps.yaml', 'clusters/staging/apps.yaml'], [true, false]],
      ['warning', ['clusters/staging/apps.yaml'], [true]],
    ]);
  });

  test('the same findings, in the same order, when the outcomes are answered from the memo', () => {
    const files = caseFiles('UNDEFINED-VAR', 'two-clusters');
    const first = runCase(files);
    assert.deepEqual(runCase(files), first);
  });

  test('outcomesOf shares one frozen empty answer, which no caller can grow', () => {
    const expansion = scanTemplate('${A}').expansions[0];
    const answer = outcomesOf(expansion, []);
    assert.equal(answer.length, 0);
    assert.ok(Object.isFrozen(answer));
    assert.equal(outcomesOf(scanTemplate('${B}').expansions[0], []), answer);
    assert.throws(() => (answer as unknown as unknown[]).push(undefined));
  });
});
