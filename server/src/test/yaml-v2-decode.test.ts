import * as assert from 'assert/strict';
import { decodeYamlV2 } from '../core/goyaml/v2/decode';
import { goJsonMarshal, goJsonParse } from '../core/goyaml/v2/json';
import { resolvePlainV2 } from '../core/goyaml/v2/resolve';
import { GoFloat, GoInt, GoMap } from '../core/goyaml/v2/value';
import { yamlToJson } from '../core/goyaml/v2/yaml-to-json';
import { loadConformance } from './support/paths';

interface PipelineVector {
  id: string;
  substituted?: string;
  json?: string;
  stage?: string;
  error?: string;
}

const YAML_TO_JSON_PREFIX = 'envsubst error: YAMLToJSON: ';

function canonical(json: string): string {
  const marshalled = goJsonMarshal(goJsonParse(json));
  if (!marshalled.ok) throw new Error(marshalled.error);
  return marshalled.json;
}

/** The JSON of `yaml`, or `error <text>`. */
function convert(yaml: string): string {
  const result = yamlToJson(yaml);
  return result.ok ? canonical(result.json) : `error ${result.error}`;
}

function json(value: unknown): string {
  return canonical(JSON.stringify(value));
}

suite('go-yaml v2 decoding of whole documents', () => {
  test('every substituted pipeline document converts as sigs.k8s.io/yaml YAMLToJSON did', () => {
    const rows = loadConformance<PipelineVector>('pipeline/pipeline.jsonl').filter((row) => row.substituted !== undefined);
    assert.ok(rows.length > 150, `expected the pipeline vectors, got ${rows.length}`);
    const failures: string[] = [];
    for (const row of rows) {
      let want: string;
      if (row.stage === 'YAMLToJSON') {
        assert.ok(row.error!.startsWith(YAML_TO_JSON_PREFIX), row.id);
        want = `error ${row.error!.slice(YAML_TO_JSON_PREFIX.length)}`;
      } else {
        want = canonical(row.json!);
      }
      const got = convert(row.substituted!);
      if (got !== want) failures.push(`${row.id}: got ${got}, want ${want}`);
    }
    assert.deepEqual(failures.slice(0, 20), [], `${failures.length} of ${rows.length} documents differ`);
  });

  test('block scalars: clip, strip and keep chomping, folding and indentation indicators', () => {
    const doc = [
      'clip: |',
      '  a',
      '  b',
      '',
      'strip: |-',
      '  a',
      '',
      'keep: |+',
      '  a',
      '',
      '',
      'folded: >',
      '  one',
      '  two',
      '',
      '  three',
      '    indented',
      '  four',
      'indicator: |2',
      '    x',
      '   y',
      'both: >-1',
      '  z',
      'empty: |',
      'last: end',
    ].join('\n');
    assert.equal(
      convert(doc),
      json({
        clip: 'a\nb\n',
        strip: 'a',
        keep: 'a\n\n\n',
        folded: 'one two\nthree\n  indented\nfour\n',
        indicator: '  x\n y\n',
        both: ' z',
        empty: '',
        last: 'end',
      }),
    );
  });

  test('anchors, aliases and merge keys follow go-yaml v2 precedence', () => {
    const doc = [
      'base: &base {a: 1, b: 2}',
      'other: &other {b: 3, c: 4}',
      'merged:',
      '  a: 0',
      '  <<: *base',
      '  c: 9',
      'list:',
      '  <<: [*other, *base]',
      'copy: *base',
    ].join('\n');
    assert.equal(
      convert(doc),
      json({
        base: { a: 1, b: 2 },
        other: { b: 3, c: 4 },
        // The merge is applied where `<<` stands, so it overrides the earlier `a: 0`.
        merged: { a: 1, b: 2, c: 9 },
        list: { a: 1, b: 3, c: 4 },
        copy: { a: 1, b: 2 },
      }),
    );
    assert.equal(convert('a: &x [1, *x]\n'), "error yaml: anchor 'x' value contains itself");
    assert.equal(convert('a: *nope\n'), "error yaml: unknown anchor 'nope' referenced");
    assert.equal(convert('a: {<<: [1]}\n'), 'error yaml: map merge requires map or sequence of maps as the value');
  });

  test('flow collections, nested and as keys', () => {
    assert.equal(convert('a: [1, [2, 3], {b: c, d: [e]}, ]\n'), json({ a: [1, [2, 3], { b: 'c', d: ['e'] }] }));
    assert.equal(convert('{a: 1, b, c: }\n'), json({ a: 1, b: null, c: null }));
    assert.equal(convert('[a: 1, b]\n'), json([{ a: 1 }, 'b']));
    assert.equal(convert('? [1, 2]\n: x\n'), 'error yaml: invalid map key: []interface {}{1, 2}');
    // Parser errors print libyaml's zero-based line: the `b` on the second line is line 1.
    assert.equal(convert('a: [1, 2\nb: 3\n'), "error yaml: line 1: did not find expected ',' or ']'");
  });

  test('multi-line plain and quoted scalars fold line breaks', () => {
    const doc = [
      'plain: one',
      '  two',
      '',
      '  three',
      'single: \'it\'\'s',
      '  folded\'',
      'double: "tab\\there \\u00e9 \\x41\\',
      '    joined  ',
      '  next"',
      'spaces: "  kept  "',
    ].join('\n');
    assert.equal(
      convert(doc),
      json({ plain: 'one two\nthree', single: "it's folded", double: 'tab\there é Ajoined next', spaces: '  kept  ' }),
    );
  });

  test('only the first document of a stream is decoded', () => {
    assert.equal(convert('a: 1\n---\nb: [\n'), json({ a: 1 }));
    assert.equal(convert('--- 5\n...\n--- 6\n'), json(5));
    assert.equal(convert(''), 'null');
    assert.equal(convert('# only a comment\n'), 'null');
  });

  test('tags: !!binary, !!str, !!float, custom tags and !!null errors', () => {
    assert.equal(convert('a: !!binary aGVsbG8=\nb: !!str 123\nc: !!float 1\nd: !custom 12\n'), json({ a: 'hello', b: '123', c: 1, d: '12' }));
    assert.equal(convert('a: !!binary "a b"\n'), 'error yaml: !!binary value contains invalid base64 data');
    assert.equal(convert('a: !!int x\n'), 'error yaml: cannot decode !!str `x` as a !!int');
    assert.equal(convert('a: !e!x 1\n'), 'error yaml: found undefined tag handle');
  });

  test('decodeYamlV2 keeps Go types: int64, uint64, float64 and non-string keys', () => {
    const result = decodeYamlV2('1: 9223372036854775807\ntrue: 18446744073709551615\n1.5: 1e3\n~: x\n');
    assert.ok(result.ok);
    const map = result.value as GoMap;
    assert.ok(map instanceof GoMap && !map.stringKeys);
    const [[k1, v1], [k2, v2], [k3, v3], [k4, v4]] = map.entries as [[unknown, unknown], [unknown, unknown], [unknown, unknown], [unknown, unknown]];
    assert.deepEqual([k1, v1], [new GoInt(1n), new GoInt(9223372036854775807n)]);
    assert.deepEqual([k2, v2], [true, new GoInt(18446744073709551615n, true)]);
    assert.deepEqual([k3, v3], [new GoFloat(1.5), new GoFloat(1000)]);
    assert.deepEqual([k4, v4], [null, 'x']);
    assert.equal(
      convert('~: x\n'),
      'error unsupported map key of type: %!s(<nil>), key: <nil>, value: "x"',
    );
  });

  test('resolvePlainV2 types plain scalars as YAML 1.1', () => {
    assert.equal(resolvePlainV2('yes'), true);
    assert.equal(resolvePlainV2('Off'), false);
    assert.equal(resolvePlainV2('~'), null);
    assert.deepEqual(resolvePlainV2('0755'), new GoInt(493n));
    assert.deepEqual(resolvePlainV2('0x_1F'), new GoInt(31n));
    assert.deepEqual(resolvePlainV2('-0b101'), new GoInt(-5n));
    assert.deepEqual(resolvePlainV2('12345678901234567890'), new GoInt(12345678901234567890n, true));
    assert.deepEqual(resolvePlainV2('1_0.5'), new GoFloat(10.5));
    assert.equal(resolvePlainV2('1:30'), '1:30');
    assert.equal(resolvePlainV2('2001-12-14'), '2001-12-14');
    assert.equal(resolvePlainV2('1e400'), '1e400');
  });

  test('errors carry go-yaml line numbers', () => {
    assert.equal(convert('a: b\nc: d: e\n'), 'error yaml: line 2: mapping values are not allowed in this context');
    assert.equal(convert('a:\n  b: 1\n c: 2\n'), 'error yaml: line 2: did not find expected key');
    assert.equal(convert('a: "x\n'), 'error yaml: line 2: found unexpected end of stream');
    assert.equal(convert('a: 1\nb\n'), "error yaml: line 3: could not find expected ':'");
    assert.equal(convert('a:\n\t- b\n'), 'error yaml: line 2: found character that cannot start any token');
  });

  test('control characters are found when go-yaml reads their 512-byte chunk', () => {
    // The first document ends before the second chunk is needed, so the NUL is never read.
    assert.equal(convert(`a: 1\n---\nb: ${'y'.repeat(600)}\0\n`), json({ a: 1 }));
    assert.equal(convert('a: 1\n---\nb: \0\n'), 'error yaml: control characters are not allowed');
    // A syntax error early in a long document wins over a control character in a later chunk.
    assert.equal(convert(`a: b: c\nd: ${'y'.repeat(600)}\0\n`), 'error yaml: mapping values are not allowed in this context');
    // Scanning a long scalar across the chunk boundary reads the NUL before the next token.
    assert.equal(convert(`a: ${'y'.repeat(600)} b: c\0\n`), 'error yaml: control characters are not allowed');
  });

  test('nesting is accepted up to go-yaml limit of 10000 levels', () => {
    const depth = 10000;
    const nested = convert('['.repeat(depth) + ']'.repeat(depth));
    assert.equal(nested, '['.repeat(depth) + ']'.repeat(depth));
    assert.equal(convert('['.repeat(depth + 1) + ']'.repeat(depth + 1)), 'error yaml: exceeded max depth of 10000');
  });

  test('goJsonMarshal writes Go encoding/json text', () => {
    const map = new GoMap(true);
    for (const key of ['😀', '\uffff', 'é', 'z']) map.entries.push([key, null]);
    const value = [
      '<a&b>\u2028\x01\b\x7f',
      new GoFloat(1e21),
      new GoFloat(1e20),
      new GoFloat(1e-7),
      new GoFloat(-0),
      new GoFloat(0.1),
      new GoInt(18446744073709551615n, true),
      map,
    ];
    assert.deepEqual(goJsonMarshal(value), {
      ok: true,
      json: '["\\u003ca\\u0026b\\u003e\\u2028\\u0001\\u0008\x7f",1e+21,100000000000000000000,1e-7,-0,0.1,18446744073709551615,{"z":null,"é":null,"\uffff":null,"😀":null}]',
    });
    assert.deepEqual(goJsonMarshal(new GoFloat(NaN)), { ok: false, error: 'json: unsupported value: NaN' });
    assert.deepEqual(goJsonMarshal([new GoFloat(-Infinity)]), { ok: false, error: 'json: unsupported value: -Inf' });
    assert.deepEqual(goJsonMarshal(new GoMap(false)), { ok: false, error: 'json: unsupported type: map[interface {}]interface {}' });
  });

  test('goJsonParse keeps integers exact', () => {
    const value = goJsonParse('{"a": 12345678901234567890, "b": [1.5, -9223372036854775808, 1e3], "a": true}');
    assert.ok(value instanceof GoMap && value.stringKeys);
    assert.equal(value.get('a'), true);
    assert.deepEqual(value.get('b'), [new GoFloat(1.5), new GoInt(-9223372036854775808n), new GoFloat(1000)]);
    assert.deepEqual(goJsonParse('12345678901234567890'), new GoInt(12345678901234567890n, true));
  });
});
