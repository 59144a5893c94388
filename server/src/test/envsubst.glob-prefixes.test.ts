/**
 * The trims ask the glob about every prefix of a value. glob-prefixes.ts answers for all
 * prefixes at once; here its answers are checked against Go's matcher ported line for line
 * (support/go-path-match.ts), asked about each prefix in turn, on patterns and values built
 * to reach every branch: classes (well formed, malformed, negated, escaped, with ranges),
 * escapes, stars, `?`, and multi-byte characters, whole, cut, or as stray bytes.
 */
import * as assert from 'assert/strict';
import * as fc from 'fast-check';
import { envsubst } from '../core/envsubst';
import { compileGlob } from '../core/envsubst/glob';
import { BAD_PATTERN, MATCH, matchPrefixes, NO_MATCH } from '../core/envsubst/glob-prefixes';
import { globMatch } from './support/go-path-match';

const OUTCOME = { match: MATCH, 'no-match': NO_MATCH, 'bad-pattern': BAD_PATTERN } as const;

/** UTF-8 bytes as a byte string (one char code per byte), as the evaluator holds values. */
const bytes = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

const E_ACUTE = bytes('é');
const EURO = bytes('€');
const GRINNING = bytes('😀');
const characters = ['a', 'b', '/', '-', ']', '^', E_ACUTE, EURO, GRINNING, '\xa9', '\x82', '\xc3', '\xff'];
const patternParts = [
  ...characters,
  '*', '*', '*', '?', '?', '\\', '\\*', '\\?', '\\[', '[', ']',
  '[a]', '[^a]', '[a-b]', '[^a-b]', '[!]', '[\\]]', '[\\-]', `[${E_ACUTE}]`, `[^${E_ACUTE}]`, `[a-${GRINNING}]`,
  `[^${EURO}${GRINNING}]`, `[${bytes('\ufffd')}]`, `[^${bytes('\ufffd')}]`, '[]', '[^]', '[a-]', '[-a]', '[a', '[\\',
];

function expected(pattern: string, value: string): number[] {
  const outcomes: number[] = [];
  for (let length = 1; length <= value.length; length++) outcomes.push(OUTCOME[globMatch(pattern, value.slice(0, length))]);
  return outcomes;
}

function actual(pattern: string, value: string): number[] {
  return [...matchPrefixes(compileGlob(pattern), value).subarray(1)];
}

function assertAgrees(pattern: string, value: string): void {
  assert.deepEqual(actual(pattern, value), expected(pattern, value), `pattern ${JSON.stringify(pattern)} value ${JSON.stringify(value)}`);
}

suite('envsubst glob: every prefix at once, as Go matches each', function () {
  this.timeout(20000);

  test('random patterns and values with classes, escapes, stars and multi-byte characters', () => {
    // size 'max' draws lengths up to maxLength (the default keeps arrays to about ten items).
    const pattern = fc.array(fc.constantFrom(...patternParts), { maxLength: 8, size: 'max' }).map((parts) => parts.join(''));
    const value = fc.array(fc.constantFrom(...characters), { maxLength: 16, size: 'max' }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(pattern, value, (p, v) => assertAgrees(p, v)),
      { seed: 20261205, numRuns: 20000 },
    );
  });

  test('every pattern of up to three parts against values made of the same characters', () => {
    const parts = ['*', '?', 'a', E_ACUTE, '\xa9', '[^a]', '[', '\\'];
    const patterns = [''];
    for (let size = 0; size < 3; size++) for (const p of [...patterns]) for (const part of parts) patterns.push(p + part);
    const values = ['a', 'aa', 'a/a', E_ACUTE, `a${E_ACUTE}a`, `${EURO}a${E_ACUTE}`, `${GRINNING}\xa9a`, `\xa9${E_ACUTE}${E_ACUTE}`];
    for (const p of new Set(patterns)) for (const v of values) assertAgrees(p, v);
  });

  test('chunks that match at several places, the first of which is kept', () => {
    for (const [p, v] of [
      ['*a*b', 'aaabbb'],
      ['*ab*ab', 'abababab'],
      [`*?*${'\xac'}z`, `${EURO}z`],
      [`*?${'\x82'}*`, `${EURO}${EURO}`],
      ['a*', 'abc'],
      ['*', 'abc'],
      ['', 'abc'],
      ['**a', 'bab'],
    ]) {
      assertAgrees(p, v);
    }
  });

  test('through envsubst: a prefix that ends inside a character reads its bytes as invalid runes', () => {
    // Go matches `?` on the first byte of `é` alone, so `#` removes only that byte.
    const trimmed = envsubst('${V#?}', () => 'é', { strict: false });
    assert.equal(trimmed.kind, 'output');
    assert.deepEqual(trimmed.kind === 'output' ? [...trimmed.bytes] : [], [0xa9]);
    assert.deepEqual(envsubst('${V##*[^a]}', () => 'aé', { strict: false }), { kind: 'output', bytes: new Uint8Array(), text: '' });
  });
});
