/**
 * Every resource of conformance/pipeline/pipeline.jsonl through substituteResource: the
 * whole kustomize-controller path, checked against what the upstream Go code produced.
 */
import * as assert from 'assert/strict';
import { substituteResource, type SubstituteOutcome } from '../core/pipeline';
import { loadConformance } from './support/paths';

interface PipelineVector {
  id: string;
  note: string;
  source: string;
  vars: Record<string, string>;
  strict: boolean;
  always: boolean;
  gvk?: string;
  name?: string;
  serialized?: string;
  skipped?: boolean;
  skip_reason?: string;
  substituted?: string;
  json?: string;
  final?: string;
  stage?: string;
  error?: string;
  controller_error?: string;
  panic?: string;
}

/** The differences between what a vector expects and what we produced, empty when none. */
function differences(v: PipelineVector, got: SubstituteOutcome): string[] {
  const problems: string[] = [];
  const expect = (what: string, actual: unknown, expected: unknown): void => {
    if (actual !== expected) problems.push(`${what}: got ${JSON.stringify(actual)}, want ${JSON.stringify(expected)}`);
  };
  const expectJson = (what: string, actual: string | undefined, expected: string): void => {
    if (actual === undefined) problems.push(`${what}: missing, want ${expected}`);
    else if (canonicalJson(actual) !== canonicalJson(expected)) problems.push(`${what}: got ${actual}, want ${expected}`);
  };

  if (v.gvk !== undefined) expect('gvk', 'gvk' in got ? got.gvk : undefined, v.gvk);
  if (v.name !== undefined) expect('name', 'name' in got ? got.name : undefined, v.name);
  if (v.serialized !== undefined) expect('serialized', 'serialized' in got ? got.serialized : undefined, v.serialized);

  if (v.skipped) {
    expect('kind', got.kind, 'skipped');
    if (got.kind === 'skipped') {
      expect('reason', got.reason, v.skip_reason);
      expectJson('final', got.final, v.final ?? '');
    }
  } else if (v.panic !== undefined) {
    expect('kind', got.kind, 'failed');
    if (got.kind === 'failed') {
      expect('panic', got.panic, v.panic);
      expect('controller_error', got.controllerError, v.controller_error);
    }
  } else if (v.stage !== undefined) {
    expect('kind', got.kind, 'failed');
    if (got.kind === 'failed') {
      expect('stage', got.stage, v.stage);
      expect('error', got.error, v.error);
      if (v.controller_error !== undefined) expect('controller_error', got.controllerError, v.controller_error);
      if (v.substituted !== undefined) expect('substituted', got.substituted, v.substituted);
      if (v.json !== undefined) expectJson('json', got.json, v.json);
    }
  } else {
    expect('kind', got.kind, 'applied');
    if (got.kind === 'applied') {
      expect('substituted', got.substituted, v.substituted);
      expectJson('json', got.json, v.json ?? '');
      expectJson('final', got.final, v.final ?? '');
    } else if (got.kind === 'failed') {
      problems.push(`failed at ${got.stage}: ${got.error}`);
    }
  }
  return problems;
}

/**
 * JSON in a form where equal documents give equal text: object keys sorted, and every number
 * written as its exact decimal value (so 1e3 equals 1000, and 12345678901234567890 keeps every
 * digit instead of passing through a double).
 */
function canonicalJson(text: string): string {
  const marked = text.replace(/"(?:[^"\\]|\\.)*"|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/g, (token) =>
    token.startsWith('"') ? token : JSON.stringify(`#number:${exactDecimal(token)}`),
  );
  return JSON.stringify(JSON.parse(marked), (_key, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value,
  );
}

/** A JSON number literal as sign, significant digits and a power of ten: "1.50e2" → "15e1". */
function exactDecimal(literal: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([-+]?\d+))?$/.exec(literal);
  if (!match) return literal;
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  let digits = (whole + fraction).replace(/^0+/, '');
  let power = Number(exponent) - fraction.length;
  if (digits === '') return '0';
  while (digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    power++;
  }
  return `${sign}${digits}e${power}`;
}

suite('pipeline conformance: the kustomize-controller path per resource', () => {
  const vectors = loadConformance<PipelineVector>('pipeline/pipeline.jsonl');

  test('the vectors file is not empty', () => {
    assert.ok(vectors.length > 0);
  });

  test('every resource: serialized text, skip, substitution, JSON, final object or exact error', () => {
    const failures: string[] = [];
    for (const v of vectors) {
      let problems: string[];
      try {
        problems = differences(v, substituteResource({ source: v.source, vars: v.vars, strict: v.strict, always: v.always }));
      } catch (e) {
        problems = [`threw ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`];
      }
      if (problems.length > 0) failures.push(`${v.id} (${v.note})\n    ${problems.join('\n    ')}`);
    }
    assert.equal(failures.length, 0, `${failures.length} of ${vectors.length} vectors differ:\n${failures.slice(0, 20).join('\n')}`);
  });
});

/**
 * Cases the vectors do not cover, with expectations read from go-yaml v3's resolve.go and
 * decode.go, Go's time.Parse and json.Marshal, and facts/flux.md §5. With no variables the
 * resource is skipped, and what is applied is then exactly the JSON of the manifest as
 * kyaml's go-yaml v3 decoded it.
 */
suite('pipeline: how go-yaml v3 reads the manifest (cases beyond the vectors)', () => {
  const manifest = (data: string): string => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n${data}`;
  const appliedData = (data: string): unknown => {
    const outcome = substituteResource({ source: manifest(data), vars: {}, strict: true, always: false });
    assert.equal(outcome.kind, 'skipped');
    return outcome.kind === 'skipped' ? JSON.parse(canonicalJson(outcome.final)).data : undefined;
  };
  const failure = (data: string, vars: Record<string, string> = { V: 'v' }): unknown => {
    const outcome = substituteResource({ source: manifest(data), vars, strict: true, always: false });
    return outcome.kind === 'failed' ? { stage: outcome.stage, error: outcome.error } : outcome.kind;
  };
  const n = (literal: string): string => `#number:${exactDecimal(literal)}`;

  test('YAML 1.1 octals and Go integer syntax are numbers; yes/on stay strings', () => {
    assert.deepEqual(appliedData('  a: 0755\n  b: 0o755\n  c: 0x1F\n  d: 1_000\n  e: +1\n  f: 08\n  g: 1e3\n  h: yes\n  i: on\n  j: "0755"\n'), {
      a: n('493'),
      b: n('493'),
      c: n('31'),
      d: n('1000'),
      e: n('1'),
      f: n('8'),
      g: n('1000'),
      h: 'yes',
      i: 'on',
      j: '0755',
    });
  });

  test('integers beyond 2^53 keep every digit, overflowing ones become floats', () => {
    assert.deepEqual(appliedData('  a: 12345678901234567890\n  b: -9223372036854775808\n  c: 1e400\n'), {
      a: n('12345678901234567890'),
      b: n('-9223372036854775808'),
      c: '1e400',
    });
  });

  test('unquoted timestamps become RFC 3339 times; quoted or impossible dates stay strings', () => {
    assert.deepEqual(appliedData('  a: 2001-12-14\n  b: 2001-12-14t21:59:43.10-05:00\n  c: 2001-12-14 21:59:43.10\n  d: 2001-12-14T21:59:43Z\n  e: "2001-12-14"\n  f: 2001-02-30\n  g: 2001-12-14 21:59:43.10 -5\n'), {
      a: '2001-12-14T00:00:00Z',
      b: '2001-12-14T21:59:43.1-05:00',
      c: '2001-12-14T21:59:43.1Z',
      d: '2001-12-14T21:59:43Z',
      e: '2001-12-14',
      f: '2001-02-30',
      g: '2001-12-14 21:59:43.10 -5',
    });
  });

  test('infinities, NaN and non-string keys make MarshalJSON fail', () => {
    assert.deepEqual(failure('  a: -.inf\n'), { stage: 'MarshalJSON', error: 'json: unsupported value: -Inf' });
    assert.deepEqual(failure('  a: .NaN\n'), { stage: 'MarshalJSON', error: 'json: unsupported value: NaN' });
    assert.deepEqual(failure('  a:\n    2001-12-14: x\n'), { stage: 'MarshalJSON', error: 'json: unsupported type: map[interface {}]interface {}' });
    assert.deepEqual(failure('  a: !!int x\n'), { stage: 'MarshalJSON', error: 'yaml: cannot decode !!str `x` as a !!int' });
  });

  test('a substring that cuts a character in half leaves bytes go-yaml cannot read', () => {
    assert.deepEqual(failure('  a: ${U:1}\n', { U: 'éclair' }), { stage: 'YAMLToJSON', error: 'envsubst error: YAMLToJSON: yaml: invalid leading UTF-8 octet' });
  });

  test('with several invalid variable names, the smallest is reported', () => {
    assert.deepEqual(failure('  a: b\n', { 'b.c': '1', 'a-b': '2', ok: '3' }), {
      stage: 'varname',
      error: "envsubst error: 'a-b' var name is invalid, must match '^[_[:alpha:]][_[:alpha:][:digit:]]*$'",
    });
  });
});
