/**
 * The envsubst engine (`envsubst`, `scanTemplate`) on hostile templates and values: it always
 * returns (never throws, never hangs), gives what Go gives, and its cost grows linearly with
 * the template and with the values. Linearity is asserted on how the operations the engine runs
 * scale between an input and one 16 times larger (support/scaling.ts), never on time.
 */
import * as assert from 'assert/strict';
import * as fc from 'fast-check';
import { envsubst, evaluateExpansion, scanTemplate } from '../../core/envsubst';
import { measureExpansion } from '../../core/envsubst/parser';
import { assertScales } from '../support/scaling';

const values: Record<string, string> = { a: 'x', b: '', A: 'hello world', n: '3', path: '/a/b/c' };
const lookup = (name: string) => values[name];

/** Characters that drive the scanner and the parser into every branch. */
const alphabet = ['$', '$', '$', '{', '{', '}', '}', ':', '-', '=', '?', '+', '#', '%', '/', '^', ',', '!', '*', '[', ']', '\\', 'a', 'b', 'A', 'n', '_', '0', '1', ' ', '\n', '\t', '\u0000', '\r', 'é', '\uD800', '😀'];

/** Fresh copies of the engine, whose operations support/scaling.ts can count. */
const engine = () => require('../../core/envsubst') as typeof import('../../core/envsubst');

function run(text: string, { envsubst, scanTemplate } = engine()): void {
  const scan = scanTemplate(text);
  for (const r of scan.runs.all()) assert.ok(r.start >= 0 && r.start < r.end && r.end <= text.length);
  for (const e of scan.expansions) assert.ok(e.start >= 0 && e.start < e.end && e.end <= text.length);
  for (const strict of [false, true]) {
    const result = envsubst(text, lookup, { strict });
    assert.ok(['output', 'error', 'panic'].includes(result.kind));
  }
}

/** Inputs of about `size` and 16 × `size` characters. */
function assertLinear(name: string, unit: string, size = 10000): void {
  const repeats = Math.ceil(size / unit.length);
  assertScales(name, repeats, engine, (count, modules) => {
    const text = unit.repeat(count);
    return () => run(text, modules);
  });
}


/** The output text of a substitution that must succeed. */
function output(text: string, lookup: (name: string) => string | undefined, strict = false, { envsubst } = engine()): string {
  const result = envsubst(text, lookup, { strict });
  assert.equal(result.kind, 'output', JSON.stringify(result).slice(0, 200));
  return result.kind === 'output' ? result.text : '';
}

/** `open` repeated `depth` times, then `inner`, then `}` as many times. */
function nested(open: string, depth: number, inner = ''): string {
  return open.repeat(depth) + inner + '}'.repeat(depth);
}

suite('robustness: envsubst terminates in linear time', function () {
  this.timeout(60000);

  test('fuzzed templates: envsubst and scanTemplate return, with ranges inside the text', () => {
    const template = fc.array(fc.constantFrom(...alphabet), { maxLength: 300 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(template, (text) => run(text)),
      { seed: 20261204, numRuns: 3000, interruptAfterTimeLimit: 8000, markInterruptAsFailure: false },
    );
  });

  test('the operation count these checks rest on sees a quadratic cost (a linear scan repeated once per unit)', () => {
    assert.throws(
      () =>
        assertScales('a scan per unit', 50, engine, (count, { scanTemplate }) => {
          const text = '${a} '.repeat(count);
          return () => {
            for (let i = 0; i < count; i++) scanTemplate(text);
          };
        }),
      /a scan per unit: 16× the input runs 2\d\d\.\d× the operations/,
    );
  });

  const cheap = 150000;
  const families: Array<[string, string, number?]> = [
    ['plain text', 'abcdefgh\n', cheap],
    ['dollar runs', '$$$$$ '],
    ['escaped expressions', '$${a} '],
    ['lone braces', '}}{{ ', cheap],
    ['expressions', '${a} '],
    ['nested defaults', '${u:-${a:-${b}}} '],
    ['operators', '${A/o/0}${A:1:3}${A%%o*}${#A}${A^^} '],
    ['expressions that do not parse, each closed', '${a:} '],
    ['one line of expressions', '${a}x'],
    ['unclosed expressions, one per line', '${a\n'],
  ];
  for (const [name, unit, size] of families) test(`scales linearly: ${name}`, () => assertLinear(name, unit, size));

  test('scales linearly: many unclosed `${` on one line (closingBraceOnLine rescans the rest of the line for each)', () => {
    assertLinear('unclosed openers', '${ ');
    assertLinear('unparsable expressions', '${?} ');
  });

  test('returns on 10,000 nested `${a:-${a:-…}}`, with the result Go gives (the parser and the evaluator keep their own stacks)', () => {
    const depth = 10000;
    const closed = nested('${a:-', depth);
    run(closed);
    run('${a:-'.repeat(depth));
    // a is set, so every level is its value; u is not, so every level is its word.
    assert.equal(output(closed, lookup), 'x');
    assert.equal(output(nested('${u:-x', depth), lookup), 'x'.repeat(depth));
    assert.equal(output(nested('${u:-', depth), lookup, true), '');
    // Nested arguments are evaluated first, innermost first, in strict mode too.
    assert.deepEqual(envsubst(nested('${a:-', depth, '${b1}${b2}'), lookup, { strict: true }), { kind: 'error', message: 'variable not set (strict mode): "b1"' });
    // Trims, replaces and substrings nest as deep: `${a#x}` is '', `${a#}` of it is 'x', and so on up.
    assert.equal(output(nested('${a#', depth, 'x'), lookup), 'x');
    assert.equal(output(nested('${a#', depth - 1, 'x'), lookup), '');
    assert.equal(output(nested('${A/o/', depth, 'x'), lookup), 'hell'.repeat(depth) + 'x' + ' world'.repeat(depth));
    // `${A:3}` is 'lo world', which is no offset, so every level above leaves A as it is.
    assert.equal(output(nested('${A:', depth, '3'), lookup), 'hello world');
    // Left open, the innermost default word runs into the end of the text.
    assert.deepEqual(envsubst('${a:-'.repeat(depth), lookup, { strict: false }), { kind: 'error', message: 'unable to parse substitution within function' });

    const [expansion, ...others] = scanTemplate(closed).expansions;
    assert.equal(others.length, 0);
    assert.equal(expansion?.end, closed.length);
    assert.equal(expansion?.refs.length, depth);
    assert.deepEqual(expansion?.names, ['a']);
    assert.ok(expansion !== undefined && evaluateExpansion(expansion, lookup, { strict: false }).kind === 'output');
    const [unclosed] = scanTemplate('${a:-'.repeat(depth)).expansions;
    assert.equal(unclosed?.error, 'unable to parse substitution within function');
    assert.equal(unclosed?.refs.length, depth);
  });

  test('scales linearly: nesting depth, in parsing, scanning, evaluation and name lists', () => {
    assertScales('nested defaults that each add to the word', 1000, engine, (depth, modules) => {
      const text = nested('${u:-x', depth);
      return () => assert.equal(output(text, lookup, false, modules).length, depth);
    });
    assertScales('nested defaults with distinct names', 1000, engine, (depth, { scanTemplate }) => {
      const text = Array.from({ length: depth }, (_, i) => `\${v${i}:-`).join('') + '}'.repeat(depth);
      return () => assert.equal(scanTemplate(text).expansions[0]?.names.length, depth);
    });
  });

  test('scales linearly: defaults left open on every line, each holding all the lines below it (each is parsed once)', () => {
    const lines = 3;
    const text = '${a:-\n'.repeat(lines);
    // The editor reports each line's expression, with Flux's error and the names it read.
    assert.deepEqual(
      scanTemplate(text).expansions.map((e) => [e.start, e.end, e.error, e.stop, e.refs.map((r) => r.start)]),
      [
        [0, 5, 'unable to parse substitution within function', text.length, [2, 8, 14]],
        [6, 11, 'unable to parse substitution within function', text.length, [8, 14]],
        [12, 17, 'unable to parse substitution within function', text.length, [14]],
      ],
    );
    assertLinear('defaults left open, one per line', '${a:-\n', 3000);
    assertLinear('replacements left open, one per line', '${a/x/$${\n', 3000);
    assertLinear('nested defaults broken at the bottom, one per line', '${a:-${b:-${c \n', 3000);
  });

  test('a failure the scan remembers is the failure a fresh parse of that expression gives', () => {
    const pieces = ['${a:-', '${a:-', '${b/', '${a#', '${a:', '${', '}', '}', '\n', '\n', '$$', 'x', ' ', ':', '/'];
    const template = fc.array(fc.constantFrom(...pieces), { maxLength: 40, size: 'max' }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(template, (text) => {
        for (const expansion of scanTemplate(text).expansions) {
          const fresh = measureExpansion(text, expansion.start);
          if (typeof fresh === 'number') assert.deepEqual([expansion.error, expansion.end], [undefined, fresh], text);
          else assert.deepEqual([expansion.error, expansion.stop, expansion.refs], [fresh.message, fresh.stop, fresh.refs], text);
        }
      }),
      { seed: 20261206, numRuns: 3000 },
    );
  });

  test('scales linearly: long values through the operators that work rune by rune, with the results Go gives', () => {
    const n = 3000;
    const unicode = () => 'éß😀'.repeat(n);
    // Simple case mappings: ß has no one-rune upper case; a lone surrogate arrives as U+FFFD.
    assert.equal(output('${V^^}', () => 'éß😀\ud800'.repeat(n)), 'Éß😀\ufffd'.repeat(n));
    assert.equal(output('${V,,}', () => 'ÉSS'.repeat(n)), 'éss'.repeat(n));
    // `%?` reverses the value, and `?` takes the first byte of 😀 alone: what is left of it
    // comes back as three invalid bytes.
    assert.equal(output('${V%?}', unicode), 'éß😀'.repeat(n - 1) + 'éß' + '\ufffd'.repeat(3));
    assert.equal(output('${V%%é*}', unicode), '');

    for (const template of ['${V^^}', '${V,,}', '${V%?}', '${V%%[^a]*}', '${V}']) {
      for (const unit of ['ab', 'éß😀\ud800']) {
        assertScales(`${template} on a long value of ${JSON.stringify(unit)}`, 2000, engine, (size, { envsubst }) => {
          const long = unit.repeat(size);
          return () => envsubst(template, () => long, { strict: false });
        });
      }
    }
  });

  test('trims `#`, `##`, `%`, `%%` scale linearly with the value, with the results Go gives', () => {
    const n = 2000;
    const value = 'ab'.repeat(n);
    const v = () => value;
    assert.equal(output('${V#*b}', v), 'ab'.repeat(n - 1));
    assert.equal(output('${V##*b}', v), '');
    assert.equal(output('${V%a*}', v), 'ab'.repeat(n - 1));
    assert.equal(output('${V%%a*}', v), '');
    assert.equal(output('${V#*a?a}', v), 'b' + 'ab'.repeat(n - 2));
    assert.equal(output('${V##a*[^a]}', v), '');
    // No prefix matches, or the pattern is malformed where the matcher reaches it: unchanged.
    assert.equal(output('${V#*c}', v), value);
    assert.equal(output('${V##*[}', v), value);
    assert.equal(output('${V#b*[}', v), value);
    // A prefix that ends inside `é` reads its first byte as one invalid rune, which `?` matches.
    assert.equal(output('${V#*?}', () => 'é'.repeat(n)), '\ufffd' + 'é'.repeat(n - 1));
    assert.equal(output('${V##*?}', () => 'é'.repeat(n)), '');

    for (const template of ['${V#*b}', '${V##*b}', '${V%a*}', '${V%%a*}', '${V#*c}', '${V##*c*c}', '${V#*[}', '${V#a*b?c}']) {
      assertScales(`${template} on a long value`, 2000, engine, (length, { envsubst }) => {
        const long = 'ab'.repeat(length / 2);
        return () => envsubst(template, () => long, { strict: false });
      });
    }
    // Prefixes that end inside a character: two of every three of them here.
    assertScales('${V#*?[^a]} on multi-byte characters', 2000, engine, (length, { envsubst }) => {
      const long = 'é€😀'.repeat(length / 4);
      return () => envsubst('${V#*?[^a]}', () => long, { strict: false });
    });
  });
});
