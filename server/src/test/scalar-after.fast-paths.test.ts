/**
 * The shortcuts of render/scalar-after.ts against the full round trip they stand in for
 * (go-yaml v2 emit, envsubst, go-yaml v2 decode). Seeded property tests over multi-line
 * values built from the pieces that decide a literal block's shape: leading and trailing
 * spaces and tabs, blank lines, expansions on the first and last columns, dollar runs, and
 * variable values with line breaks, spaces, CR, NEL and controls.
 */
import * as assert from 'assert/strict';
import * as fc from 'fast-check';
import { envsubst, scanTemplate } from '../core/envsubst';
import { emitsSimpleLiteral, unchangedLiteralBlock } from '../core/render/block-literal';
import { plainWordAfter, scalarAfterSubstitution, staysStringCheaply } from '../core/render/scalar-after';
import { loadConformance } from './support/paths';
import { GoMap } from '../core/goyaml/v2/value';
import { marshalYamlV2 } from '../core/goyaml/v2/marshal';
import { GoFloat, GoInt } from '../core/goyaml/v2/value';
import { yamlToJson } from '../core/goyaml/v2/yaml-to-json';

const seed = Number(process.env.RENDER_LENS_FUZZ_SEED ?? 20261202);
const numRuns = Number(process.env.RENDER_LENS_FUZZ_RUNS ?? 600);

const piece = fc.constantFrom('a', 'echo', ' ', '  ', '\t', '#', ': ', '-', '${A}', '${B}', '${A:-x}', '${C:=  }', '$$', '$${A}', '$$$', '$', '"', "'", '|', '\u00e9');
const line = fc.array(piece, { maxLength: 5 }).map((parts) => parts.join(''));
const value = fc.array(line, { minLength: 2, maxLength: 5 }).chain((lines) => fc.constantFrom('', '\n', '\n\n').map((end) => lines.join('\n') + end));
const variable = fc.option(fc.constantFrom('', 'v', ' lead', 'trail ', 'two\nlines', '\r', '\u0085', '\u0001', 'x: y', '#', '  '), { nil: undefined });
const variables = fc.record({ A: variable, B: variable, C: variable });

function field(text: string): string {
  const document = new GoMap(true);
  document.set('k', text);
  return marshalYamlV2(document);
}

suite('scalar-after fast paths', () => {
  test('a simple literal block is known without writing it, as writing it tells', () => {
    const odd = fc.constantFrom(' ', '  ', '\t', '\r', '\u0085', '\u2028', '\ufeff', '\u00a0', '\ud83d\ude00', '\ud800', '\u0001', ': ', '#', '- ', '"', '|', '');
    const oddLine = fc.array(fc.oneof(piece, odd), { maxLength: 4 }).map((parts) => parts.join(''));
    const oddValue = fc.array(oddLine, { minLength: 1, maxLength: 5 }).chain((lines) => fc.constantFrom('', '\n', '\n\n', ' \n').map((end) => lines.join('\n') + end));
    let simple = 0;
    fc.assert(
      fc.property(oddValue, (text) => {
        const emitted = field(text);
        const expected = text.includes('\n') && unchangedLiteralBlock(emitted, emitted, 'k: ') !== undefined;
        const decided = emitsSimpleLiteral(text);
        if (decided !== undefined) assert.equal(decided, expected, `${JSON.stringify(text)} ${[...text].map((c) => c.charCodeAt(0).toString(16)).join(',')}`);
        if (expected) simple++;
      }),
      { seed, numRuns: numRuns * 5 },
    );
    assert.ok(simple > numRuns / 10, `only ${simple} simple blocks`);
  });

  test('a literal block whose lines keep their shape reads back as the decoder reads it', () => {
    let decided = 0;
    fc.assert(
      fc.property(value, variables, (text, vars) => {
        const emitted = field(text);
        const substituted = envsubst(emitted, (name) => vars[name as keyof typeof vars], { strict: false });
        if (substituted.kind !== 'output') return;
        const fast = unchangedLiteralBlock(emitted, substituted.text, 'k: ');
        if (fast === undefined) return;
        decided++;
        const read = yamlToJson(substituted.text);
        assert.ok(read.ok, `decodes: ${JSON.stringify(substituted.text)}`);
        assert.equal(fast, (read.value as GoMap).get('k'), JSON.stringify(substituted.text));
      }),
      { seed, numRuns },
    );
    assert.ok(decided > numRuns / 20, `decided ${decided} of ${numRuns}`);
  });

  test('a value said to stay a string, or to fail, does so in the whole round trip', () => {
    let decided = 0;
    let failed = 0;
    fc.assert(
      fc.property(value, variables, fc.boolean(), (text, vars, strict) => {
        const scan = scanTemplate(text);
        if (scan.expansions.some((e) => e.error !== undefined)) return;
        const lookup = (name: string) => vars[name as keyof typeof vars];
        const cheap = staysStringCheaply(text, scan, lookup, strict);
        if (cheap === undefined) return;
        decided++;
        if (cheap === 'failed') failed++;
        const after = scalarAfterSubstitution(text, false, lookup, strict);
        assert.deepEqual(after.kind === 'value' ? after.type : after.kind, cheap, JSON.stringify({ text, vars, strict }));
      }),
      { seed, numRuns },
    );
    // The shortcut must actually decide a good share of ordinary blocks, or it is dead code.
    assert.ok(decided > numRuns / 20, `decided ${decided} of ${numRuns}`);
    assert.ok(failed >= numRuns / 200, `said 'failed' ${failed} times in ${numRuns}`);
  });

  test('a plain word reads back as the decoder reads it: go-yaml v2 resolution, then JSON', () => {
    /** What the decoder and JSON step make of `k: <word>`: its JSON type and value, or the error. */
    const decoded = (word: string) => {
      const read = yamlToJson(`k: ${word}\n`);
      if (!read.ok) return `error ${read.error}`;
      const value = (read.value as GoMap).get('k') ?? null;
      const type = value === null ? 'null' : typeof value === 'boolean' ? 'bool' : value instanceof GoInt || value instanceof GoFloat ? 'number' : typeof value === 'string' ? 'string' : 'other';
      return `${type} ${value instanceof GoInt ? value.value.toString() : value instanceof GoFloat ? String(value.value) : String(value)}`;
    };
    const words = new Set(loadConformance<{ scalar: string }>('yaml/yaml11-scalars.jsonl').map((v) => v.scalar));
    const char = fc.constantFrom(...'0123456789aAbBeEfFnNoOxXyY_.-/+:#~ =@'.split(''));
    fc.assert(fc.property(fc.array(char, { minLength: 1, maxLength: 8 }), (chars) => void words.add(chars.join(''))), { seed, numRuns: numRuns * 5 });
    let fast = 0;
    for (const word of [...words, '1e999', '-1e999', '99999999999999999999', '0b', '0x', '0o17', '1_000', '2001-12-14', '2001-12-14t21:59:43.10-05:00', '1:20', '190:20:30', '1:2:3.5', 'ghcr.io/example/app:1.4.2', 'a@sha256:0f', 'x=1', '1+1', 'a:', 'a::b', 'http://x:80/y']) {
      const after = plainWordAfter(`k: ${word}\n`);
      if (!after) continue;
      fast++;
      const expected = decoded(word);
      assert.ok(after.kind === 'value', word);
      assert.equal(`${after.type} ${after.display}`, expected, JSON.stringify(word));
    }
    assert.ok(fast > 300, `only ${fast} words took the shortcut`);
  });

  test('the shortcut declines what only a decoder can tell', () => {
    const lookup = (values: Record<string, string>) => (name: string) => values[name];
    const check = (text: string, values: Record<string, string>, strict = false) => staysStringCheaply(text, scanTemplate(text), lookup(values), strict);
    assert.equal(check('echo ${A}\nrun\n', { A: 'ok' }), 'string');
    // A line break in a value moves the lines after it.
    assert.equal(check('echo ${A}\nrun\n', { A: 'a\nb' }), undefined);
    // The first column may gain a space, which changes the block's indentation.
    assert.equal(check('${A} first\nrun\n', { A: 'ok' }), undefined);
    // The last line may empty, which changes what chomping keeps.
    assert.equal(check('first\n${A}', { A: 'ok' }), undefined);
    assert.equal(check('first\nx ${A}', { A: '' }), 'string');
    // A control character is an error in go-yaml's reader.
    assert.equal(check('echo ${A}\nrun\n', { A: '\u0001' }), undefined);
    // An unset variable fails a strict substitution, wherever it is, even after a value with a break.
    assert.equal(check('echo ${A} ${B}\nrun\n', { A: 'a\nb' }, true), 'failed');
    assert.equal(check('echo ${B}\nrun\n', {}, false), 'string');
  });
});
