import * as assert from 'assert/strict';
import { isAlias, isMap, isScalar, isSeq, parseDocument, type Document, type Node } from 'yaml';
import { v2StringStyle } from '../core/goyaml/v2/emit';
import { marshalYamlV2 } from '../core/goyaml/v2/marshal';
import { GoFloat, GoInt, GoMap, type GoValue } from '../core/goyaml/v2/value';
import { loadConformance } from './support/paths';

interface EmitRow {
  id: string;
  s: string;
  style?: string;
  emitted?: string;
  nested?: string;
  nested_style?: string;
  as_key?: string;
  as_key_style?: string;
  as_key_error?: string;
  /** Set when the JSON text itself changed the string on the way in (v2 folds a raw NEL). */
  decoded_changed?: string;
  /** Set when go-yaml v2 could not even read the JSON text, so nothing was emitted. */
  error?: string;
}

interface PipelineRow {
  id: string;
  source: string;
  serialized?: string;
}

/** Collects mismatches so one run shows the first 20 instead of stopping at the first. */
class Failures {
  readonly list: string[] = [];
  check(id: string, what: string, actual: unknown, expected: unknown): void {
    if (actual !== expected) this.list.push(`${id} ${what}: got ${JSON.stringify(actual)}, want ${JSON.stringify(expected)}`);
  }
  assertNone(total: number): void {
    assert.deepEqual(this.list.slice(0, 20), [], `${this.list.length} of ${total} checks failed`);
  }
}

function goMap(entries: Array<[string, GoValue]>): GoMap {
  const map = new GoMap(true);
  for (const [k, v] of entries) map.set(k, v);
  return map;
}

/** spec.template.spec.containers[0].env[0].value, as in the vectors' `nested` form. */
function nestedDeployment(value: string): GoMap {
  const env = [goMap([['value', value]])];
  const containers = [goMap([['env', env]])];
  return goMap([['spec', goMap([['template', goMap([['spec', goMap([['containers', containers]])]])]])]]);
}

/**
 * Characters Go's json.Marshal leaves raw but go-yaml v2's reader rejects ("control characters
 * are not allowed"): DEL, the C1 controls other than NEL, and U+FFFE/U+FFFF.
 */
const READER_REJECTS = /[\u007f-\u0084\u0086-\u009f\ufffe\uffff]/u;

suite('yaml v2 emitter: emit-style vectors', () => {
  const rows = loadConformance<EmitRow>('yaml/emit-style.jsonl');

  test('every line: value, nested value and key output, and the reported styles', () => {
    const failures = new Failures();
    let checks = 0;
    for (const row of rows) {
      if (row.error !== undefined) {
        // JSONToYAML failed while reading the JSON text, before the emitter ran.
        checks++;
        failures.check(row.id, 'reader error', row.error, 'yaml: control characters are not allowed');
        failures.check(row.id, 'has a character the reader rejects', READER_REJECTS.test(row.s), true);
        continue;
      }
      const s = row.decoded_changed ?? row.s;
      checks += 4;
      failures.check(row.id, 'emitted', marshalYamlV2(goMap([['key', s]])), row.emitted);
      failures.check(row.id, 'nested', marshalYamlV2(nestedDeployment(s)), row.nested);
      failures.check(row.id, 'style', v2StringStyle(s, { isKey: false }), row.style);
      failures.check(row.id, 'nested_style', v2StringStyle(s, { isKey: false }), row.nested_style);
      if (row.as_key_error !== undefined) {
        // The key form failed in the JSON reader (a raw NEL inside a flow mapping key).
        checks++;
        failures.check(row.id, 'as_key (reader failed)', row.as_key, '');
        continue;
      }
      checks += 2;
      failures.check(row.id, 'as_key', marshalYamlV2(goMap([[s, 'v']])), row.as_key);
      failures.check(row.id, 'as_key_style', v2StringStyle(s, { isKey: true }), row.as_key_style);
    }
    failures.assertNone(checks);
    assert.equal(rows.length, 414);
  });
});

suite('yaml v2 emitter: pipeline vectors', () => {
  const rows = loadConformance<PipelineRow>('pipeline/pipeline.jsonl');

  test('every serialized resource is reproduced from the value kustomize hands to JSONToYAML', () => {
    const failures = new Failures();
    const withSerialized = rows.filter((row) => row.serialized !== undefined);
    for (const row of withSerialized) {
      let actual: string;
      try {
        actual = marshalYamlV2(valueBeforeJsonToYaml(row.source));
      } catch (err) {
        actual = `error: ${(err as Error).message}`;
      }
      failures.check(row.id, 'serialized', actual, row.serialized);
    }
    failures.assertNone(withSerialized.length);
    assert.equal(withSerialized.length, 218);
  });
});

suite('yaml v2 emitter: scalars other than strings', () => {
  test('numbers, bools and null are written the way go-yaml v2 formats them', () => {
    const value = goMap([
      ['int', new GoInt(-42n)],
      ['uint', new GoInt(18446744073709551615n, true)],
      ['half', new GoFloat(0.5)],
      ['million', new GoFloat(1e6)],
      ['big', new GoFloat(1.2345678901234568e29)],
      ['small', new GoFloat(1.5e-7)],
      ['tiny', new GoFloat(0.0001)],
      ['whole', new GoFloat(100000)],
      ['inf', new GoFloat(-Infinity)],
      ['nan', new GoFloat(NaN)],
      ['flag', true],
      ['nothing', null],
    ]);
    assert.equal(
      marshalYamlV2(value),
      [
        'big: 1.2345678901234568e+29',
        'flag: true',
        'half: 0.5',
        'inf: -.inf',
        'int: -42',
        'million: 1e+06',
        'nan: .nan',
        'nothing: null',
        'small: 1.5e-07',
        'tiny: 0.0001',
        'uint: 18446744073709551615',
        'whole: 100000',
        '',
      ].join('\n'),
    );
  });

  test('keys sort with numbers first and digit runs compared as numbers', () => {
    const map = new GoMap();
    for (const key of ['b', 'a10', 'a2', 'A', '_x', '1']) map.set(key, 'v');
    map.set(new GoInt(3n), 'three');
    map.set(true, 'bool');
    // Non-letters sort before letters; `_x` has no digit run, which counts as the number 0.
    assert.equal(marshalYamlV2(map), 'true: bool\n3: three\n_x: v\n"1": v\nA: v\na2: v\na10: v\nb: v\n');
  });

  test('empty collections and the root', () => {
    assert.equal(marshalYamlV2(goMap([['a', []], ['b', new GoMap(true)]])), 'a: []\nb: {}\n');
    assert.equal(marshalYamlV2(new GoMap(true)), '{}\n');
    assert.equal(marshalYamlV2(['x', ['z']]), '- x\n- - z\n');
    assert.equal(marshalYamlV2('hello'), 'hello\n');
  });
});

// ---------------------------------------------------------------------------------------------
// Building the value JSONToYAML receives: kustomize decodes the manifest with go-yaml v3 into
// map[string]interface{}, json.Marshal's it, and sigs.k8s.io/yaml decodes that JSON with
// go-yaml v2. So plain scalars are typed by v3's rules, numbers then take the shape v2 gives
// their JSON text, and strings pass through v2's reading of a JSON string.

function valueBeforeJsonToYaml(source: string): GoValue {
  const doc = parseDocument(source, { version: '1.2', schema: 'core', uniqueKeys: false });
  if (doc.errors.length > 0) throw new Error(doc.errors[0].message);
  return fromNode(doc.contents as Node | null, doc);
}

function fromNode(node: Node | null | undefined, doc: Document): GoValue {
  if (node === null || node === undefined) return null;
  if (isAlias(node)) return fromNode(node.resolve(doc) as Node | undefined, doc);
  if (isSeq(node)) return node.items.map((item) => fromNode(item as Node, doc));
  if (isMap(node)) return fromMapNode(node.items as Array<{ key: unknown; value: unknown }>, doc);
  if (isScalar(node)) {
    const text = node.source ?? String(node.value);
    if (node.tag === 'tag:yaml.org,2002:str' || node.tag === '!!str') return throughJsonString(text);
    if (node.tag === 'tag:yaml.org,2002:binary' || node.tag === '!!binary') {
      return throughJsonString(new TextDecoder().decode(Buffer.from(text.replace(/\s+/g, ''), 'base64')));
    }
    if (node.type === 'PLAIN') return plainScalarV3(text);
    return throughJsonString(text);
  }
  throw new Error(`unexpected node ${String(node)}`);
}

/**
 * go-yaml v3 merge keys: explicit keys win over merged ones, and within a list of merged maps
 * the first one that has a key wins.
 */
function fromMapNode(pairs: Array<{ key: unknown; value: unknown }>, doc: Document): GoMap {
  const map = new GoMap(true);
  let merge: Node | undefined;
  for (const pair of pairs) {
    const key = pair.key as Node;
    if (isScalar(key) && key.type === 'PLAIN' && key.source === '<<') {
      merge = pair.value as Node;
      continue;
    }
    // JSON object keys are strings; kustomize rejects manifests whose keys are anything else.
    const keyNode = isAlias(key) ? (key.resolve(doc) as Node) : key;
    if (!isScalar(keyNode)) throw new Error('non-scalar map key');
    map.set(throughJsonString(keyNode.source ?? String(keyNode.value)), fromNode(pair.value as Node, doc));
  }
  if (merge !== undefined) {
    const target = isAlias(merge) ? (merge.resolve(doc) as Node) : merge;
    const sources = isSeq(target) ? (target.items as Node[]) : [target];
    for (const source of sources) {
      const merged = fromNode(source, doc);
      if (!(merged instanceof GoMap)) throw new Error('merge of a non-map');
      for (const [k, v] of merged.entries) if (map.get(k as string) === undefined) map.set(k, v);
    }
  }
  return map;
}

/** go-yaml v3's typing of a plain scalar, then the JSON round trip into go-yaml v2's shapes. */
function plainScalarV3(text: string): GoValue {
  if (['', '~', 'null', 'Null', 'NULL'].includes(text)) return null;
  if (['true', 'True', 'TRUE'].includes(text)) return true;
  if (['false', 'False', 'FALSE'].includes(text)) return false;
  if (/^[-+]?\.(inf|Inf|INF)$|^\.(nan|NaN|NAN)$/.test(text)) throw new Error('json: unsupported value');
  const first = text[0];
  if (first === '.') {
    const f = Number(text);
    return Number.isNaN(f) ? throughJsonString(text) : fromJsonFloat(f);
  }
  if (!/[-+0-9]/.test(first)) return throughJsonString(text);
  if (/^\d{4}-\d{1,2}-\d{1,2}/.test(text)) throw new Error(`timestamp typing is not reproduced by this test: ${text}`);
  const plain = text.replace(/_/g, '');
  const int = goParseIntBase0(plain);
  if (int !== undefined) return int;
  if (/^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/.test(plain) && Number.isFinite(Number(plain))) {
    return fromJsonFloat(Number(plain));
  }
  return throughJsonString(text);
}

/** strconv.ParseInt(s, 0, 64), falling back to ParseUint; undefined when neither accepts it. */
function goParseIntBase0(s: string): GoInt | undefined {
  const match = /^([-+]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/.exec(s);
  if (!match) return undefined;
  const digits = match[2];
  const magnitude = /^0[0-7]+$/.test(digits) ? BigInt(`0o${digits.slice(1)}`) : BigInt(digits);
  const value = match[1] === '-' ? -magnitude : magnitude;
  if (value >= -(1n << 63n) && value < 1n << 63n) return new GoInt(value);
  if (match[1] === '' && value < 1n << 64n) return new GoInt(value, true);
  return undefined;
}

/**
 * A float64 through json.Marshal and go-yaml v2: whole numbers below 1e21 are written as digits
 * and come back as integers (or uint64, or again a float when even that overflows).
 */
function fromJsonFloat(f: number): GoValue {
  if (Number.isInteger(f) && Math.abs(f) < 1e21) return goParseIntBase0(BigInt(f).toString()) ?? new GoFloat(f);
  return new GoFloat(f);
}

/**
 * go-yaml v2 reading a JSON string: json.Marshal leaves NEL (U+0085) raw, and YAML 1.1 treats it
 * as a line break inside the double-quoted scalar, so it folds like one (surrounding blanks
 * dropped, one break becoming a space, n breaks becoming n-1 newlines).
 */
function throughJsonString(s: string): string {
  if (!s.includes('\u0085')) return s;
  return s.replace(/[ \t]*\u0085(?:[ \t]*\u0085)*[ \t]*/g, (run) => {
    const breaks = run.split('\u0085').length - 1;
    return breaks === 1 ? ' ' : '\n'.repeat(breaks - 1);
  });
}
