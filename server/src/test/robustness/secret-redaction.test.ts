/**
 * What a secret looks like in hovers, `explain` and `render`: a placeholder that string
 * operations do not reach into, a hash only for values long enough not to be guessed, salted
 * when the repository asks, and a render failure located in the file as `check` locates it.
 */
import { displayShown } from '../../core/render/values';
import * as assert from 'assert/strict';
import { Engine } from '../../core/engine';
import { MemoryHost } from '../../core/host';
import { hoverAt } from '../../core';
import { readRepoConfig } from '../../core/config';
import { explainVariable } from '../../core/render/explain';
import { formatRendered, renderContexts, renderFile } from '../../core/render/rendered-file';
import { sha256Hex } from '../../core/sha256';
import { configMap, fluxKustomizationText } from '../support/hostile-repos';

const longSecret = 'correct-horse-battery-staple';
const pin = '1234';

function repo(data: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'clusters/prod/apps.yaml': fluxKustomizationText('apps', 'apps', ['  postBuild:', '    substitute:', '      BAD: "a: b"', '    substituteFrom:', '      - kind: Secret', '        name: creds']),
    'clusters/prod/creds.yaml': `apiVersion: v1\nkind: Secret\nmetadata:\n  name: creds\n  namespace: flux-system\nstringData:\n  DB_PASS: ${longSecret}\n  PIN: "${pin}"\n`,
    'apps/cm.yaml': configMap('cm', data),
    'apps/secret.yaml': `apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\nstringData:\n  long: ${longSecret}\n  short: "${pin}"\n`,
    ...extra,
  };
}

function render(files: Record<string, string>, file: string): string {
  const engine = new Engine(new MemoryHost(files));
  const [{ context }] = renderContexts(engine, file);
  return formatRendered(file, renderFile(engine, file, context));
}

function explained(files: Record<string, string>, name: string): string[] {
  return explainVariable(new Engine(new MemoryHost(files)), name).contexts.flatMap((c) => [c.value === undefined ? '' : displayShown(c.value), ...c.layers.map((l) => displayShown(l.value))]);
}

suite('robustness: secret values in previews, hovers and explain', () => {
  test('string operations on a secret give a redacted placeholder, not a cut or counted placeholder', () => {
    const text = render(repo('  a: ${DB_PASS:0:6}${DB_PASS^^}${#DB_PASS}\n  b: ${DB_PASS:-none} ${DB_PASS/horse/x}\n  c: ${PIN%4}\n'), 'apps/cm.yaml');
    assert.match(text, /^ {2}a: <secret DB_PASS, transformed><secret DB_PASS, transformed><secret DB_PASS, transformed>$/m);
    assert.match(text, /^ {2}b: <secret DB_PASS> <secret DB_PASS, transformed>$/m);
    assert.match(text, /^ {2}c: <secret PIN, transformed>$/m);
    assert.doesNotMatch(text, /<secre<|horse|battery|123|16/);
  });

  test('render of a value that breaks the YAML says where, as check does', () => {
    const files = repo('  ok: fine\n  b: x ${BAD}\n');
    const text = render(files, 'apps/cm.yaml');
    assert.match(text, /^# ✗ post build failed for 'ConfigMap\.v1\.\[noGrp\]\/cm': .*mapping values are not allowed in this context$/m);
    assert.match(text, /^# {3}apps\/cm\.yaml:8:6: TYPE-CHANGE: `data\.b` is a string, but in prod\/apps it breaks the YAML \(yaml: mapping values are not allowed in this context\)\.$/m);
  });

  test('a value under 16 characters gets no hash; a longer one gets the first 12 hex digits of its SHA-256', () => {
    const files = repo('  k: ${PIN} ${DB_PASS}\n');
    assert.deepEqual(explained(files, 'PIN'), ['secret (under 16 characters: no hash shown)', 'secret (under 16 characters: no hash shown)']);
    const digest = sha256Hex(longSecret).slice(0, 12);
    assert.deepEqual(explained(files, 'DB_PASS'), [`secret, sha256:${digest}`, `secret, sha256:${digest}`]);
    const engine = new Engine(new MemoryHost(files));
    const text = files['apps/cm.yaml'];
    const hover = (needle: string) => hoverAt(engine, 'apps/cm.yaml', text.indexOf(needle) + 2)?.markdown ?? '';
    assert.match(hover('${PIN}'), /secret \(under 16 characters: no hash shown\) from Secret creds/);
    assert.match(hover('${DB_PASS}'), new RegExp(`secret, sha256:${digest} from Secret creds`));
    const secret = render(files, 'apps/secret.yaml');
    assert.match(secret, new RegExp(`^ {2}long: <redacted sha256:${digest}>$`, 'm'));
    assert.match(secret, /^ {2}short: <redacted>$/m);
  });

  test('a redaction salt in .render-lens.yaml changes every hash shown', () => {
    const salt = 'team-salt-0123456789';
    const files = repo('  k: ${DB_PASS}\n', { '.render-lens.yaml': `redaction:\n  salt: ${salt}\n` });
    const salted = sha256Hex(`${salt}\u0000${longSecret}`).slice(0, 12);
    assert.notEqual(salted, sha256Hex(longSecret).slice(0, 12));
    assert.deepEqual(explained(files, 'DB_PASS'), [`secret, salted sha256:${salted}`, `secret, salted sha256:${salted}`]);
    assert.match(render(files, 'apps/secret.yaml'), new RegExp(`^ {2}long: <redacted salted sha256:${salted}>$`, 'm'));
    assert.deepEqual(explained(files, 'PIN'), ['secret (under 16 characters: no hash shown)', 'secret (under 16 characters: no hash shown)']);
  });

  test('a salt that is not a string of 16 characters is refused, and said so', () => {
    for (const bad of ['redaction:\n  salt: short\n', 'redaction:\n  salt: 12345678901234567890\n', 'redaction: yes\n']) {
      const config = readRepoConfig(bad);
      assert.equal(config.redactionSalt, undefined, bad);
      assert.deepEqual(config.problems, ['.render-lens.yaml: redaction.salt must be a string of at least 16 characters'], bad);
    }
  });
});
