/**
 * The editor's scan of a text: dollar runs, expansion ranges in UTF-16 offsets, errors with
 * scanning continued after them, referenced names, and evaluateExpansion agreeing with envsubst.
 */
import * as assert from 'assert/strict';
import { envsubst, evaluateExpansion, scanTemplate, type EnvsubstResult, type Expansion } from '../core/envsubst';
import { loadConformance } from './support/paths';
import { measureExpansion } from '../core/envsubst/parser';

interface Vector {
  id?: number;
  note?: string;
  input: string;
  env: Record<string, string>;
  strict: boolean;
}

/** The source text of each expansion, with its error if any. */
function expressions(text: string): Array<[string, string | undefined]> {
  return scanTemplate(text).expansions.map((e) => [text.slice(e.start, e.end), e.error]);
}

function lookupIn(env: Record<string, string>) {
  return (name: string) => (Object.prototype.hasOwnProperty.call(env, name) ? env[name] : undefined);
}

function comparable(result: EnvsubstResult): unknown {
  return result.kind === 'output' ? { kind: result.kind, bytes: [...result.bytes], text: result.text } : result;
}

suite('envsubst scanTemplate: dollar runs', () => {
  test('a text without `$` has no runs and no expansions', () => {
    for (const text of ['plain: text\n', '']) {
      const scan = scanTemplate(text);
      assert.deepEqual({ runs: scan.runs.all(), expansions: scan.expansions, nul: scan.nul }, { runs: [], expansions: [], nul: undefined });
    }
  });

  test('reports every maximal run with its count and what follows it', () => {
    const text = 'a $HOME $$ $$${B} $$$${C}$';
    const { runs } = scanTemplate(text);
    assert.deepEqual(
      runs.all().map((r) => [text.slice(r.start, r.end), r.count, r.next]),
      [
        ['$', 1, 'other'],
        ['$$', 2, 'other'],
        ['$$$', 3, 'brace'],
        ['$$$$', 4, 'brace'],
        ['$', 1, 'eof'],
      ],
    );
  });

  test('an odd run before `{` starts an expansion at its last `$`; an even run does not', () => {
    const text = '$$${A} $${B} ${C}';
    const { runs, expansions } = scanTemplate(text);
    assert.deepEqual(
      runs.all().map((r) => [r.start, r.end, r.count, r.next]),
      [
        [0, 3, 3, 'brace'],
        [7, 9, 2, 'brace'],
        [13, 14, 1, 'brace'],
      ],
    );
    assert.deepEqual(
      expansions.map((e) => [e.start, e.end, text.slice(e.start, e.end)]),
      [
        [2, 6, '${A}'],
        [13, 17, '${C}'],
      ],
    );
  });

  test('dollars inside an expansion are not top-level runs', () => {
    const text = '${A:-$$x$${B}} ${C/$$/x}';
    const { runs, expansions } = scanTemplate(text);
    assert.deepEqual(
      runs.all().map((r) => r.start),
      [0, 15],
    );
    assert.deepEqual(
      expansions.map((e) => e.names),
      [['A', 'B'], ['C']],
    );
  });

  test('a run right after an expansion is found', () => {
    const text = '${A}$$$';
    assert.deepEqual(
      scanTemplate(text).runs.all().map((r) => [r.start, r.count, r.next]),
      [
        [0, 1, 'brace'],
        [4, 3, 'eof'],
      ],
    );
  });
});

suite('envsubst scanTemplate: expansion ranges in UTF-16 offsets', () => {
  test('after non-ASCII text', () => {
    const text = 'héllo ${A} wörld ${B:-ü}';
    const { expansions } = scanTemplate(text);
    assert.deepEqual(
      expansions.map((e) => [e.start, e.end]),
      [
        [6, 10],
        [17, 24],
      ],
    );
    assert.deepEqual(expressions(text), [
      ['${A}', undefined],
      ['${B:-ü}', undefined],
    ]);
  });

  test('after and inside astral characters (surrogate pairs)', () => {
    const text = '😀${A}😀 ${B:-😀} ${C/😀/x}';
    const { expansions } = scanTemplate(text);
    assert.deepEqual(
      expansions.map((e) => e.start),
      [2, 9, 18],
    );
    assert.deepEqual(expressions(text), [
      ['${A}', undefined],
      ['${B:-😀}', undefined],
      ['${C/😀/x}', undefined],
    ]);
    const ref = expansions[2].refs[0];
    assert.deepEqual([ref.name, text.slice(ref.start, ref.end)], ['C', 'C']);
  });

  test('after a lone surrogate', () => {
    const text = '\ud800${A}';
    assert.deepEqual(
      scanTemplate(text).expansions.map((e) => [e.start, e.end]),
      [[1, 5]],
    );
  });

  test('node ranges cover the nested expressions and argument texts', () => {
    const text = 'é: ${A:-x${B}y}';
    const [expansion] = scanTemplate(text).expansions;
    const node = expansion.node;
    assert.ok(node);
    assert.equal(node.operator, ':-');
    assert.equal(text.slice(node.nameStart, node.nameEnd), 'A');
    assert.deepEqual(
      node.args.map((a) => [a.kind, text.slice(a.start, a.end)]),
      [
        ['text', 'x'],
        ['expansion', '${B}'],
        ['text', 'y'],
      ],
    );
  });

  test('escapes of replace arguments are removed from the argument text, not from its range', () => {
    const text = '${F/\\//$$}';
    const node = scanTemplate(text).expansions[0].node;
    assert.ok(node);
    assert.deepEqual(
      node.args.map((a) => (a.kind === 'text' ? [a.value, text.slice(a.start, a.end)] : [])),
      [
        ['/', '\\/'],
        ['$', '$$'],
      ],
    );
  });
});

suite('envsubst scanTemplate: names', () => {
  test('every name, nested ones included, in source order and without repeats', () => {
    const { expansions } = scanTemplate('${A:-${B/${C}/x}} ${#D} ${E:-${E}${F^^}}');
    assert.deepEqual(
      expansions.map((e) => e.names),
      [['A', 'B', 'C'], ['D'], ['E', 'F']],
    );
  });

  test('refs keep every occurrence with its range', () => {
    const text = '${E:-${E}}';
    const refs = scanTemplate(text).expansions[0].refs;
    assert.deepEqual(
      refs.map((r) => [r.name, r.start, r.end]),
      [
        ['E', 2, 3],
        ['E', 7, 8],
      ],
    );
  });

  test('unicode and digit names', () => {
    assert.deepEqual(
      scanTemplate('${é} ${1A} ${A٣} ${_}').expansions.map((e) => e.names),
      [['é'], ['1A'], ['A٣'], ['_']],
    );
  });

  test('a bare `${NAME}` is read without parsing, as the parse would read it, on every conformance input', () => {
    let bare = 0;
    for (const file of ['envsubst/curated.jsonl', 'envsubst/random.jsonl']) {
      for (const vector of loadConformance<Vector>(file)) {
        for (const fresh of scanTemplate(vector.input).expansions) {
          // Names first (the shortcut), then the same expansion scanned again and parsed.
          const shortcut = [...fresh.names];
          const parsed = scanTemplate(vector.input).expansions.find((e) => e.start === fresh.start)!;
          const node = parsed.node;
          const plain = node !== undefined && node.operator === 'value' && node.args.length === 0 && /^[A-Za-z_][A-Za-z0-9_]*$/.test(node.name) && vector.input.slice(fresh.start, fresh.end) === `\${${node.name}}`;
          assert.equal(fresh.plainName, plain ? node.name : undefined, vector.input.slice(fresh.start, fresh.end));
          // Read without the parser, a bare expansion ends where the parser ends it.
          if (fresh.plainName !== undefined) assert.equal(measureExpansion(vector.input, fresh.start), fresh.end);
          assert.deepEqual(shortcut, parsed.names);
          if (plain) bare++;
        }
      }
    }
    assert.ok(bare > 50, `only ${bare} bare expansions`);
  });

  test('an expression that fails keeps the names read before the error', () => {
    const [expansion] = scanTemplate('${A:-${B').expansions;
    assert.equal(expansion.error, 'missing closing brace');
    assert.deepEqual(expansion.names, ['A', 'B']);
  });
});

suite('envsubst scanTemplate: errors and continued scanning', () => {
  test('reports every broken expression with Flux’s error text', () => {
    const text = 'a: ${ARR[0]} b: ${OK} c: ${A-x} d: ${} e: ${!A} f: ${A:é} g: ${A#} h: ${A/x} i: ${Z}';
    assert.deepEqual(expressions(text), [
      ['${ARR[0]}', 'missing closing brace'],
      ['${OK}', undefined],
      ['${A-x}', 'missing closing brace'],
      ['${}', 'unable to parse variable name'],
      ['${!A}', 'unable to parse variable name'],
      ['${A:é}', 'bad substitution'],
      ['${A#}', 'unable to parse substitution within function'],
      ['${A/x}', 'bad substitution'],
      ['${Z}', undefined],
    ]);
  });

  test('stop is where Flux’s parser stopped; end covers the expression up to its `}`', () => {
    const text = 'x ${HOSTS[0]} y';
    const [expansion] = scanTemplate(text).expansions;
    assert.equal(expansion.error, 'missing closing brace');
    assert.equal(text.slice(expansion.start, expansion.stop), '${HOSTS[');
    assert.equal(text.slice(expansion.start, expansion.end), '${HOSTS[0]}');
    assert.equal(expansion.node, undefined);
  });

  test('a nested `${…}` does not close the failing expression early', () => {
    assert.deepEqual(expressions('${A:-${B C}} ${D}'), [
      ['${A:-${B C}}', 'missing closing brace'],
      ['${D}', undefined],
    ]);
  });

  test('without a `}` on its line, the error ends where the parser stopped, and never past the line', () => {
    assert.deepEqual(expressions('a: "${X" ${Y}'), [
      ['${X"', 'missing closing brace'],
      ['${Y}', undefined],
    ]);
    // The default word would run to the end of the text; the next line is scanned on its own.
    assert.deepEqual(expressions('x: ${A:-foo\ny: ${B}\n'), [
      ['${A:-foo', 'unable to parse substitution within function'],
      ['${B}', undefined],
    ]);
    assert.deepEqual(expressions('${'), [['${', 'unable to parse variable name']]);
    assert.deepEqual(expressions('x ${A'), [['${A', 'missing closing brace']]);
  });

  test('the first error of the scan is the error envsubst reports', () => {
    const text = '${A}\n${B C}\n${';
    const first = scanTemplate(text).expansions.find((e) => e.error !== undefined);
    assert.equal(first?.error, 'missing closing brace');
    assert.deepEqual(envsubst(text, () => 'v', { strict: false }), { kind: 'error', message: 'missing closing brace' });
  });
});

suite('envsubst scanTemplate: NUL ends the input', () => {
  test('nothing after the first NUL is reported, and a run before it is followed by eof', () => {
    const text = 'a ${A} $$\u0000 ${B} $$';
    const scan = scanTemplate(text);
    assert.equal(scan.nul, 9);
    assert.deepEqual(
      scan.runs.all().map((r) => [r.start, r.count, r.next]),
      [
        [2, 1, 'brace'],
        [7, 2, 'eof'],
      ],
    );
    assert.deepEqual(
      scan.expansions.map((e) => e.names),
      [['A']],
    );
    const result = envsubst(text, () => 'v', { strict: false });
    assert.equal(result.kind === 'output' ? result.text : result.message, 'a v $');
  });

  test('a NUL inside an expression is a parse error that ends at the NUL', () => {
    const text = 'x ${Z:-a\u0000b} ${Y}';
    const scan = scanTemplate(text);
    assert.equal(scan.nul, 8);
    assert.deepEqual(expressions(text), [['${Z:-a', 'unable to parse substitution within function']]);
  });

  test('a text with a NUL and no `$` still reports the NUL', () => {
    assert.equal(scanTemplate('a\u0000b').nul, 1);
  });
});

suite('envsubst evaluateExpansion', () => {
  test('agrees with envsubst for every conformance line that is exactly one expansion', () => {
    let checked = 0;
    const failures: string[] = [];
    for (const file of ['envsubst/curated.jsonl', 'envsubst/random.jsonl']) {
      for (const vector of loadConformance<Vector>(file)) {
        const scan = scanTemplate(vector.input);
        const only: Expansion | undefined = scan.expansions[0];
        const single =
          scan.expansions.length === 1 && scan.runs.length === 1 && only !== undefined && only.start === 0 && only.end === vector.input.length && scan.nul === undefined;
        if (!single) continue;
        checked++;
        const options = { strict: vector.strict };
        const lookup = lookupIn(vector.env);
        const alone = comparable(evaluateExpansion(only, lookup, options));
        const whole = comparable(envsubst(vector.input, lookup, options));
        try {
          assert.deepEqual(alone, whole);
        } catch {
          failures.push(`${file} ${vector.id ?? ''} ${JSON.stringify(vector.input)}: ${JSON.stringify(alone)} vs ${JSON.stringify(whole)}`);
        }
      }
    }
    assert.ok(checked > 500, `checked ${checked} single-expansion lines`);
    assert.deepEqual(failures.slice(0, 20), []);
  });

  test('strict mode, eager nested evaluation and panics', () => {
    const env: Record<string, string> = { A: 'hello', E: '' };
    const evaluate = (text: string, strict: boolean) => {
      const [expansion] = scanTemplate(text).expansions;
      const result = evaluateExpansion(expansion, lookupIn(env), { strict });
      return result.kind === 'output' ? result.text : `${result.kind}: ${result.message}`;
    };
    assert.equal(evaluate('${Z:-d}', true), 'd');
    assert.equal(evaluate('${A:-${Z}}', true), 'error: variable not set (strict mode): "Z"');
    assert.equal(evaluate('${A:-${Z}}', false), 'hello');
    assert.equal(evaluate('${E}', true), '');
    assert.equal(evaluate('${A:1:-1}', false), 'panic: runtime error: slice bounds out of range [1:0]');
    assert.equal(evaluate('${E:0:-1}', false), 'panic: runtime error: slice bounds out of range [:-1]');
    assert.equal(evaluate('${A:1::2}', false), 'el');
    assert.equal(evaluate('${A', false), 'error: missing closing brace');
  });

  test('output bytes may be invalid UTF-8; text decodes each bad byte as U+FFFD', () => {
    const [expansion] = scanTemplate('${U:1}').expansions;
    const result = evaluateExpansion(expansion, () => '😀x', { strict: false });
    assert.equal(result.kind, 'output');
    if (result.kind !== 'output') return;
    assert.deepEqual([...result.bytes], [0x9f, 0x98, 0x80, 0x78]);
    assert.equal(result.text, '\ufffd\ufffd\ufffdx');
  });
});
