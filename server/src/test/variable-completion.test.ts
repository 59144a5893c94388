/** Completion after `${`: the variables of the file's render contexts, with values and sources, secrets hidden. */
import * as assert from 'assert/strict';
import * as path from 'path';
import { Engine } from '../core/engine';
import { MemoryHost } from '../core/host';
import { variableCompletionsAt } from '../core/variable-completion';
import { loadCase } from './support/fixtures';
import { fixturesDir } from './support/paths';

const twoClusters = loadCase(path.join(fixturesDir, 'rules', 'UNDEFINED-VAR', 'two-clusters')).files;

/** The file with `|` replaced by nothing, completed where `|` stood. */
function completeAt(file: string, withCursor: string, files: Record<string, string> = twoClusters) {
  const at = withCursor.indexOf('|');
  const text = withCursor.slice(0, at) + withCursor.slice(at + 1);
  const engine = new Engine(new MemoryHost({ ...files, [file]: text }));
  return { text, items: variableCompletionsAt(engine, file, at) };
}

const web = (value: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  url: ${value}\n`;

suite('completion of variables after `${`', () => {
  test("lists every variable of the file's contexts, with each cluster's value and where it is set", () => {
    const { items } = completeAt('apps/web.yaml', web('https://${|'));
    assert.deepEqual(items.map((item) => item.label), ['cluster', 'domain', 'replicas']);
    const domain = items.find((item) => item.label === 'domain')!;
    assert.equal(domain.detail, 'differs across 2 contexts');
    assert.match(domain.documentation, /- production\/apps: `example\.com` from ConfigMap cluster-vars — \[clusters\/production\/cluster-vars\.yaml:7\]\(clusters\/production\/cluster-vars\.yaml#L7\)/);
    assert.match(domain.documentation, /- staging\/apps: not defined/);
    const cluster = items.find((item) => item.label === 'cluster')!;
    assert.match(cluster.documentation, /- production\/apps: `production` from postBuild\.substitute of Kustomization apps — \[clusters\/production\/apps\.yaml:\d+\]/);
  });

  test('replaces the name typed so far, and adds the closing brace only when none follows', () => {
    const open = completeAt('apps/web.yaml', web('https://${dom|'));
    const item = open.items.find((i) => i.label === 'domain')!;
    assert.equal(open.text.slice(item.range.start, item.range.end), 'dom');
    assert.equal(item.insertText, 'domain}');
    const closed = completeAt('apps/web.yaml', web('https://${d|oma}/x'));
    const inside = closed.items.find((i) => i.label === 'domain')!;
    assert.equal(closed.text.slice(inside.range.start, inside.range.end), 'doma');
    assert.equal(inside.insertText, 'domain');
  });

  test('nothing after an escaped `$${`, in a comment, or in a file no Kustomization substitutes', () => {
    assert.deepEqual(completeAt('apps/web.yaml', web('$${|')).items, []);
    assert.deepEqual(completeAt('apps/web.yaml', web('x') + '# ${|\n').items, []);
    assert.deepEqual(completeAt('elsewhere/web.yaml', web('${|')).items, []);
  });

  test('a Secret value is shown as a short hash, never as itself', () => {
    const files = {
      ...twoClusters,
      'clusters/production/db-secret.yaml': 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n  namespace: flux-system\nstringData:\n  db_password: hunter2-very-secret\n',
      'clusters/production/apps.yaml': twoClusters['clusters/production/apps.yaml'] + '      - kind: Secret\n        name: db\n',
    };
    const { items } = completeAt('apps/web.yaml', web('${db|'), files);
    const secret = items.find((item) => item.label === 'db_password')!;
    for (const text of [secret.detail, secret.documentation]) assert.doesNotMatch(text, /hunter2/);
    assert.match(secret.documentation, /secret, sha256:[0-9a-f]{12} from Secret db/);
  });
});
