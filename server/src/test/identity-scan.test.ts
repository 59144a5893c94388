/**
 * The scan of a big file's object identities (workspace/identity-scan.ts) stands in for
 * reading its nodes when the Flux graph indexes it: whenever it answers, each document's
 * identity must be the one the nodes give (the block reader's, else the full parser's, as the
 * graph reads them), and whatever it is not sure of it must leave. Checked on every fixture
 * file, on generated manifests, on random block YAML and on random edits; each check also makes
 * sure the scan answers for most of what it is meant for, so it cannot pass by declining.
 */
import * as assert from 'assert/strict';
import { generateManifest, random } from './support/generate';
import { editedTexts, fixtureYamlTexts, randomBlockYaml, tally } from './support/block-yaml-corpus';
import { scanIdentities } from '../core/workspace/identity-scan';
import { modelOf, rootsOf, scannedFrom } from '../core/workspace/file-model';
import { objectsOf, type K8sObject } from '../core/workspace/objects';
import { parseYamlFile } from '../core/yaml/document';
import { Engine } from '../core/engine';
import { MemoryHost } from '../core/host';

function described(identity: Pick<K8sObject, 'apiVersion' | 'kind' | 'name' | 'namespace' | 'labels' | 'annotations'>): string {
  const { apiVersion, kind, name, namespace, labels, annotations } = identity;
  return JSON.stringify({ apiVersion, kind, name, namespace, labels: [...labels], annotations: [...annotations] });
}

/** 'declined', 'same', or the first difference between the scan and the nodes. */
function check(text: string): 'declined' | 'same' | string {
  const scanned = scanIdentities(text);
  if (!scanned) return 'declined';
  const expected = new Map(objectsOf('f.yaml', rootsOf(text, () => parseYamlFile(text)).map((contents) => ({ contents }))).map((o) => [o.index, described(o)]));
  const got = new Map<number, string>();
  scanned.forEach((identity, index) => identity && got.set(index, described(identity)));
  for (const index of new Set([...expected.keys(), ...got.keys()])) {
    if (expected.get(index) !== got.get(index)) return `document ${index}: scanned ${got.get(index)}, nodes say ${expected.get(index)}`;
  }
  return 'same';
}

const fixtureTexts = fixtureYamlTexts();
const manifests = [1, 2, 3].map((seed) => generateManifest(seed, 3_000));

suite('identity scan of big files = the identities their nodes give', () => {
  test('on every fixture file, answering for most of them', () => {
    const { same, declined, wrong } = tally(fixtureTexts, check);
    assert.deepEqual(wrong.slice(0, 3), []);
    assert.ok(same >= 0.7 * (same + declined), `answered for ${same} of ${same + declined}`);
  });

  test('on generated manifests, answering for all of them', () => {
    for (const text of manifests) assert.equal(check(text), 'same');
  });

  test('on random block YAML (mostly keys and roots no manifest has: it answers for few)', () => {
    const next = random(0x1d5c);
    const { same, declined, wrong } = tally(Array.from({ length: 3000 }, () => randomBlockYaml(next)), check);
    assert.deepEqual(wrong.slice(0, 3), []);
    assert.ok(same >= 0.04 * (same + declined), `answered for ${same} of ${same + declined}`);
  });

  test('on random edits of the fixtures and the manifests (quotes, indicators, markers, indentation)', () => {
    const next = random(0x1d5d);
    const inserts = ['x', ' ', '\n', '"', "'", '[', ']', '{', '}', ':', '- ', '---\n', '\n---\n', '...\n', '|', '|-', '>-', '#', ' #', '&a ', '*a', '!!str ', '%YAML 1.2\n', ': ', '\n  ', '\n    ', '\n# c\n', '  ', '-', "''", '""', '~', 'null', '<<: *a\n', 'kind: Secret\n', '\nkind: Secret\n', '\n  name: other\n', '\n    other: label\n', 'metadata:\n', '  labels:\n', '? '];
    const texts = editedTexts(next, [...fixtureTexts, ...manifests.map((m) => m.slice(0, 20_000))], inserts, 6000);
    const { same, declined, wrong } = tally(texts, check);
    assert.deepEqual(wrong.slice(0, 3), []);
    assert.ok(same >= 0.2 * (same + declined), `answered for ${same} of ${same + declined}`);
  });

  test('reads what manifests write: quotes, comments, empty and missing metadata, block scalars that look like keys', () => {
    const shapes = [
      'apiVersion: "v1"\nkind: \'ConfigMap\' # c\nmetadata:\n  name: a\n  labels: {}\n  annotations:\n    x: "1"\n    y: \'\'\n    z:\n    w: 1.0\ndata:\n  s: |\n    kind: Fake\n    ---\n    metadata:\n\n  t: x\n',
      '# leading\n---\napiVersion: v1\nkind: Secret\n---\n# only a comment\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  namespace: n\n  finalizers:\n  - a\n  name: b\n',
      'kind: List\napiVersion: v1\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: inner\n',
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  annotations:\n    n: 2\n  managedFields:\n  - script: |\n      name: no\n    n: 3\nspec:\n  - |\n    x: "\n  - y\n',
    ];
    for (const text of shapes) {
      assert.notEqual(scanIdentities(text), undefined, text);
      assert.equal(check(text), 'same', text);
    }
  });

  test('leaves what it cannot be sure of', () => {
    const others = ['apiVersion: v1\nkind: &k ConfigMap\n', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n', 'apiVersion: v1\nkind: "Config\n  Map"\n', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n    b\n', 'apiVersion: v1\nkind: ConfigMap\ndata: {\n  a: b }\n', 'apiVersion: v1\nkind: ConfigMap\nkind: Secret\n', '<<: *base\nkind: ConfigMap\n', '%YAML 1.2\n---\nkind: A\n', 'kind: A\n...\n', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  labels:\n    <<: *l\n', 'kind: A\r\napiVersion: v1\r\n', '--- !!map\nkind: A\n', 'apiVersion: v1\nkind: ~\n'];
    for (const text of others) assert.equal(scanIdentities(text), undefined, text);
  });

  test('a big file: objects from the scan, nodes read only when asked, the same as reading it', () => {
    const text = generateManifest(7, 6_000);
    assert.ok(text.length >= scannedFrom);
    let parses = 0;
    const model = modelOf('big.yaml', text, () => (parses++, parseYamlFile(text)));
    const read = objectsOf('big.yaml', rootsOf(text).map((contents) => ({ contents })));
    assert.deepEqual(model.objects.map(described), read.map(described));
    assert.equal(parses, 0);
    assert.deepEqual(model.objects.map((o) => o.range), read.map((o) => o.range));
    assert.equal(model.roots.length, rootsOf(text).length);
    assert.ok(model.block, 'the layout the check builds its parse from');
  });

  test('a big file the block reader does not take: its ConfigMap is found when a substituteFrom names it, in both engines', () => {
    const flow = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app-vars\n  namespace: flux-system\ndata: {REGION: eu-west-1}\n';
    const big = `${generateManifest(11, 4_000)}\n---\n${flow}`;
    assert.ok(big.length >= scannedFrom && scanIdentities(big) !== undefined);
    const files = {
      'clusters/prod/apps.yaml': 'apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: apps\n  namespace: flux-system\nspec:\n  interval: 10m\n  path: ./apps\n  prune: true\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n  postBuild:\n    substituteFrom:\n      - kind: ConfigMap\n        name: app-vars\n',
      'apps/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - big.yaml\n  - app.yaml\n',
      'apps/big.yaml': big,
      'apps/app.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\n  namespace: flux-system\ndata:\n  region: ${REGION}\n  zone: ${ZONE}\n',
    };
    for (const role of ['batch', 'editor'] as const) {
      const engine = new Engine(new MemoryHost(files), {}, role);
      const messages = engine.analyzeFile('apps/app.yaml').findings.filter((f) => f.rule === 'UNDEFINED-VAR').map((f) => f.message);
      assert.equal(messages.length, 1, `${role}: ${messages.join('\n')}`);
      assert.match(messages[0], /ZONE/);
    }
  });
});
