/**
 * A cluster's ConfigMaps and Secrets (flux/cluster-objects.ts) are placed from a file only
 * when a lookup could name one of them. Every answer must be the one a cluster that placed
 * every object in turn would give: the object put last wins its key, `named` lists objects in
 * the order their keys first appeared; and a file none of whose names is asked is not read.
 */
import * as assert from 'assert/strict';
import { random } from './support/generate';
import { ClusterObjects } from '../core/flux/cluster-objects';
import type { ObjectData } from '../core/flux/object-data';

function object(kind: 'ConfigMap' | 'Secret', namespace: string | undefined, name: string, file: string, hashed = false): ObjectData {
  return { kind, name, namespace, file, range: { start: 0, end: 0 }, data: new Map(), opaque: false, labels: new Map(), annotations: new Map(), hashed };
}

/** The eager reading: every object placed in turn into one Map. */
class Eager {
  readonly byKey = new Map<string, ObjectData>();
  put(data: ObjectData): void {
    this.byKey.set(`${data.kind}/${data.namespace ?? ''}/${data.name}/${data.hashed}`, data);
  }
  get(kind: string, namespace: string, name: string, hashed = false): ObjectData | undefined {
    return this.byKey.get(`${kind}/${namespace}/${name}/${hashed}`);
  }
  named(name: string): ObjectData[] {
    return [...this.byKey.values()].filter((o) => o.name === name);
  }
}

const names = ['vars', 'cluster-vars', 'app-vars', 'secrets', 'vars-x'];
const namespaces = ['flux-system', 'apps', undefined];

suite('cluster objects placed when a lookup could name them', () => {
  test('random files and generators: every lookup answers as if all were placed in turn', () => {
    const next = random(0xc0b7);
    const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
    for (let round = 0; round < 400; round++) {
      const lazy = new ClusterObjects();
      const eager = new Eager();
      for (let f = 0; f < 6; f++) {
        const file = `file-${f}.yaml`;
        const prefix = pick(['', '', 'app-', 'cluster-']);
        const suffix = pick(['', '', '-x']);
        const bases = Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(names));
        const placed = bases.map((base) => object(pick(['ConfigMap', 'Secret'] as const), pick(namespaces), `${prefix}${base}${suffix}`, file));
        const text = bases.map((base) => `metadata:\n  name: ${base}\n`).join('---\n') + (next() < 0.1 ? 'x: "\\u0041"\n' : '');
        if (next() < 0.3) {
          // A generator's object, placed at once.
          const generated = object(pick(['ConfigMap', 'Secret'] as const), pick(namespaces), pick(names), 'kustomization.yaml', next() < 0.3);
          lazy.put(generated);
          eager.put(generated);
        }
        lazy.putLater((part) => text.includes(part), { prefix, suffix }, () => placed);
        for (const data of placed) eager.put(data);
      }
      for (let ask = 0; ask < 6; ask++) {
        const name = pick([...names, ...names.map((n) => `app-${n}`), ...names.map((n) => `cluster-${n}-x`)]);
        if (next() < 0.5) {
          const [kind, namespace, hashed] = [pick(['ConfigMap', 'Secret']), pick(['flux-system', 'apps', '']), next() < 0.2];
          assert.equal(lazy.get(kind, namespace, name, hashed), eager.get(kind, namespace, name, hashed), `round ${round}: ${kind}/${namespace}/${name}`);
        } else assert.deepEqual(lazy.named(name), eager.named(name), `round ${round}: named ${name}`);
      }
      assert.deepEqual(lazy.all().map(([, data]) => data), [...eager.byKey.values()]);
    }
  });

  test('a file is read only for a name it could hold, with its kustomizations’ prefix and suffix', () => {
    const objects = new ClusterObjects();
    let reads = 0;
    objects.putLater((part) => 'metadata:\n  name: vars\n'.includes(part), { prefix: 'app-', suffix: '' }, () => (reads++, [object('ConfigMap', 'apps', 'app-vars', 'vars.yaml')]));
    assert.equal(objects.get('ConfigMap', 'apps', 'cluster-settings'), undefined);
    assert.equal(objects.get('ConfigMap', 'apps', 'vars'), undefined);
    assert.equal(reads, 0, 'no name it could hold was asked');
    assert.equal(objects.get('ConfigMap', 'apps', 'app-vars')?.file, 'vars.yaml');
    assert.equal(reads, 1);
    objects.named('app-vars');
    assert.equal(reads, 1, 'placed once');
  });
});
