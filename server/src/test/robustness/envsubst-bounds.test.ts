/**
 * The envsubst engine (`envsubst`, `scanTemplate`) on hostile templates: it always returns
 * (never throws, never hangs), and its cost grows linearly with the template. Linearity is
 * asserted on how the cost scales between an input and one 16 times larger (linear: ×16,
 * quadratic: ×256; the bound is ×96, room for one-off costs such as V8 moving large strings
 * to its large-object space), the best of three batches each, never on a fixed time.
 */
import * as assert from 'assert/strict';
import * as fc from 'fast-check';
import { envsubst, scanTemplate } from '../../core/envsubst';

const values: Record<string, string> = { a: 'x', b: '', A: 'hello world', n: '3', path: '/a/b/c' };
const lookup = (name: string) => values[name];

/** Characters that drive the scanner and the parser into every branch. */
const alphabet = ['$', '$', '$', '{', '{', '}', '}', ':', '-', '=', '?', '+', '#', '%', '/', '^', ',', '!', '*', '[', ']', '\\', 'a', 'b', 'A', 'n', '_', '0', '1', ' ', '\n', '\t', '\u0000', '\r', 'é', '\uD800', '😀'];

function run(text: string): void {
  const scan = scanTemplate(text);
  for (const r of scan.runs) assert.ok(r.start >= 0 && r.start < r.end && r.end <= text.length);
  for (const e of scan.expansions) assert.ok(e.start >= 0 && e.start < e.end && e.end <= text.length);
  for (const strict of [false, true]) {
    const result = envsubst(text, lookup, { strict });
    assert.ok(['output', 'error', 'panic'].includes(result.kind));
  }
}

/**
 * The time of one run, in nanoseconds: repeated until a batch takes 4 ms (a fast run is
 * timed over many), the least of three batches (a collection pause spoils one at most).
 */
function cost(work: () => void): number {
  let repeats = 1;
  for (;;) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < repeats; i++) work();
    if (Number(process.hrtime.bigint() - start) >= 4e6 || repeats >= 1 << 16) break;
    repeats *= 2;
  }
  let best = Infinity;
  for (let batch = 0; batch < 3; batch++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < repeats; i++) work();
    best = Math.min(best, Number(process.hrtime.bigint() - start) / repeats);
  }
  return best;
}

/**
 * Inputs of `size` and 16 × `size` characters. Text without `$` starts above 128 KB, where V8
 * moves strings to its large-object space: crossing that line costs a constant once, which a
 * small input would mistake for super-linear growth.
 */
function assertLinear(name: string, unit: string, size = 10000): void {
  const repeats = Math.ceil(size / unit.length);
  const small = unit.repeat(repeats);
  const large = unit.repeat(repeats * 16);
  // Warm up first, so the small run is not paying for compilation.
  run(small);
  const ratio = cost(() => run(large)) / cost(() => run(small));
  assert.ok(ratio < 96, `${name}: 16× the input costs ${ratio.toFixed(1)}× the time`);
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

  // Known and not fixed yet (each body is the regression test; un-skip it with the fix). The
  // engine and the preview contain both: a failure costs the file's findings, not the server.
  test('scales linearly: many unclosed `${` on one line (closingBraceOnLine rescans the rest of the line for each)', () => {
    assertLinear('unclosed openers', '${ ');
    assertLinear('unparsable expressions', '${?} ');
  });
  test.skip('KNOWN: returns on 10,000 nested `${a:-${a:-…}}` (the recursive parser overflows the stack)', () => {
    run('${a:-'.repeat(10000) + '}'.repeat(10000));
    run('${a:-'.repeat(10000));
  });
  test.skip('KNOWN: trim `#`/`##` scales linearly with the value (it tries every prefix, as Go does)', () => {
    const trim = (length: number) => cost(() => envsubst('${V#*b}', () => 'a'.repeat(length), { strict: false }));
    trim(1000);
    assert.ok(trim(16000) / trim(1000) < 96);
  });
});
