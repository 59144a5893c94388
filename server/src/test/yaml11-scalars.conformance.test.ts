import * as assert from 'assert/strict';
import { goJsonMarshal, goJsonParse } from '../core/goyaml/v2/json';
import { GoMap, type GoValue } from '../core/goyaml/v2/value';
import { yamlToJson } from '../core/goyaml/v2/yaml-to-json';
import { loadConformance } from './support/paths';

interface ScalarVector {
  id: string;
  scalar: string;
  doc: string;
  go: { kind: string; json?: string; error?: string };
}

/** JSON in a canonical form: integers exact, keys sorted, Go's float formatting. */
function canonical(value: GoValue): string {
  const marshalled = goJsonMarshal(value);
  if (!marshalled.ok) throw new Error(marshalled.error);
  return marshalled.json;
}

/**
 * The vectors record the JSON of the value under `key`; the document itself must still be
 * a mapping with exactly that one key.
 */
function valueOfKey(json: string): string {
  const document = goJsonParse(json);
  if (!(document instanceof GoMap)) return `not a mapping: ${json}`;
  const value = document.get('key');
  if (value === undefined || document.entries.length !== 1) return `not a single 'key' mapping: ${json}`;
  return canonical(value);
}

suite('go-yaml v2 scalars through sigs.k8s.io/yaml YAMLToJSON (conformance)', () => {
  test('every vector of yaml11-scalars.jsonl gives the Go result or the exact Go error', () => {
    const vectors = loadConformance<ScalarVector>('yaml/yaml11-scalars.jsonl');
    assert.ok(vectors.length >= 654, `expected the full vector file, got ${vectors.length} lines`);
    const failures: string[] = [];
    for (const vector of vectors) {
      const result = yamlToJson(vector.doc);
      const want = vector.go.kind === 'error' ? `error ${vector.go.error}` : `json ${canonical(goJsonParse(vector.go.json!))}`;
      const got = result.ok ? `json ${valueOfKey(result.json)}` : `error ${result.error}`;
      if (got !== want) failures.push(`${vector.id} ${JSON.stringify(vector.scalar)}: got ${got}, want ${want}`);
    }
    assert.deepEqual(failures.slice(0, 20), [], `${failures.length} of ${vectors.length} vectors differ`);
  });
});
