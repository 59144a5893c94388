/**
 * Every line of the envsubst conformance vectors (produced by the real Go code) must match:
 * the exact output bytes, the exact error text, or the exact panic text.
 */
import * as assert from 'assert/strict';
import { envsubst, type EnvsubstResult } from '../core/envsubst';
import { loadConformance } from './support/paths';

interface Vector {
  id?: number;
  note?: string;
  input: string;
  env: Record<string, string>;
  strict: boolean;
  output?: string;
  output_b64?: string;
  error?: string;
  panic?: string;
}

function expectedBytes(vector: Vector): Uint8Array {
  if (vector.output_b64 !== undefined) return new Uint8Array(Buffer.from(vector.output_b64, 'base64'));
  return new TextEncoder().encode(vector.output ?? '');
}

function describe(result: EnvsubstResult): string {
  switch (result.kind) {
    case 'output':
      return `output ${JSON.stringify(result.text)} (${Buffer.from(result.bytes).toString('base64')})`;
    case 'error':
      return `error ${JSON.stringify(result.message)}`;
    case 'panic':
      return `panic ${JSON.stringify(result.message)}`;
  }
}

function expected(vector: Vector): string {
  if (vector.error !== undefined) return `error ${JSON.stringify(vector.error)}`;
  if (vector.panic !== undefined) return `panic ${JSON.stringify(vector.panic)}`;
  return `output ${JSON.stringify(vector.output)} (${Buffer.from(expectedBytes(vector)).toString('base64')})`;
}

/** Null when the result matches the vector, else a readable description of the difference. */
function mismatch(vector: Vector, line: number, file: string): string | null {
  const lookup = (name: string) => (Object.prototype.hasOwnProperty.call(vector.env, name) ? vector.env[name] : undefined);
  const result = envsubst(vector.input, lookup, { strict: vector.strict });
  let ok: boolean;
  if (vector.error !== undefined) ok = result.kind === 'error' && result.message === vector.error;
  else if (vector.panic !== undefined) ok = result.kind === 'panic' && result.message === vector.panic;
  else ok = result.kind === 'output' && Buffer.from(result.bytes).equals(Buffer.from(expectedBytes(vector))) && result.text === vector.output;
  if (ok) return null;
  const label = vector.id !== undefined ? `id ${vector.id} (${vector.note ?? ''})` : `line ${line}`;
  return (
    `${file} ${label} strict=${vector.strict}\n  input:    ${JSON.stringify(vector.input)}\n  env:      ${JSON.stringify(vector.env)}\n` +
    `  expected: ${expected(vector)}\n  actual:   ${describe(result)}`
  );
}

suite('envsubst conformance (fluxcd/pkg envsubst v1.7.0)', () => {
  for (const file of ['envsubst/curated.jsonl', 'envsubst/random.jsonl']) {
    test(`every line of ${file} matches`, () => {
      const vectors = loadConformance<Vector>(file);
      assert.ok(vectors.length > 0, `${file} has vectors`);
      const failures: string[] = [];
      vectors.forEach((vector, index) => {
        const failure = mismatch(vector, index + 1, file);
        if (failure !== null) failures.push(failure);
      });
      assert.equal(
        failures.length,
        0,
        `${failures.length} of ${vectors.length} lines differ; the first 20:\n${failures.slice(0, 20).join('\n')}`,
      );
    });
  }
});

/**
 * Go behaviour the vectors do not reach, derived from the Go runtime and Unicode data: simple
 * (one-rune) case mappings that differ from JS's full mappings, int64 arithmetic in substring,
 * and the bounds-check messages of each slicing form.
 */
suite('envsubst beyond the vectors', () => {
  const run = (input: string, env: Record<string, string>): string => {
    const result = envsubst(input, (name) => env[name], { strict: false });
    return result.kind === 'output' ? result.text : `${result.kind}: ${result.message}`;
  };

  test('case changes map one rune to one rune, like unicode.ToUpper and unicode.ToLower', () => {
    assert.equal(run('${A^^}', { A: 'straße' }), 'STRAßE');
    assert.equal(run('${A^^}', { A: 'ᾳ ᾀ' }), 'ᾼ ᾈ');
    assert.equal(run('${A^^}', { A: 'ŉﬀ' }), 'ŉﬀ');
    assert.equal(run('${A,,}', { A: 'İSTANBUL' }), 'istanbul');
    assert.equal(run('${A^}', { A: 'ǆx' }), 'Ǆx');
    assert.equal(run('${A,}', { A: 'ǅX' }), 'ǆX');
    assert.equal(run('${A^^}', { A: 'ΣΑΣ σας' }), 'ΣΑΣ ΣΑΣ');
    assert.equal(run('${A,,}', { A: 'ΣΑΣ' }), 'σασ');
  });

  test('substring arguments are int64 decimals; the slice panics with Go’s bounds-check text', () => {
    const env = { A: 'hello', P: '+1', MIN: '-9223372036854775808' };
    assert.equal(run('${A:${P}}', env), 'ello');
    assert.equal(run('${A:99999999999999999999}', env), 'hello');
    assert.equal(run('${A:${MIN}}', env), 'hello');
    assert.equal(run('${A:4:-1}', env), 'panic: runtime error: slice bounds out of range [4:3]');
    assert.equal(run('${A:3:-5}', env), 'panic: runtime error: slice bounds out of range [:-2]');
    assert.equal(run('${A:10:-1}', env), '');
    assert.equal(run('${A:9223372036854775807:1}', env), 'panic: runtime error: slice bounds out of range [:-9223372036854775808]');
  });

  test('a malformed class leaves the value unchanged; `%` reverses the pattern by rune', () => {
    assert.equal(run('${A##[}', { A: 'a[b' }), 'a[b');
    assert.equal(run('${A#[]a]}', { A: 'ab' }), 'ab');
    assert.equal(run('${A%é}', { A: 'caé' }), 'ca');
    assert.equal(run('${A%%b*}', { A: 'abcb' }), 'a');
  });

  test('replace with an empty pattern inserts around every rune', () => {
    assert.equal(run('${A//${E}/-}', { A: 'a😀', E: '' }), '-a-😀-');
    assert.equal(run('${A/#${E}/-}', { A: 'ab', E: '' }), '-ab');
    assert.equal(run('${A/%${E}/-}', { A: 'ab', E: '' }), 'ab-');
  });
});
