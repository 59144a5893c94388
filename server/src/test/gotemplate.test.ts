/** The shared Go-template front end, run as Helm and as Fleet. */
import * as assert from 'assert/strict';
import { pathSegments } from '../core/gotemplate/ast';
import { fleetDialect, helmDialect, type Dialect } from '../core/gotemplate/dialect';
import { scanActions } from '../core/gotemplate/lexer';
import { buildTree } from '../core/gotemplate/tree';
import { maxTemplateParenDepth } from '../core/limits';

const actionTexts = (text: string, dialect: Dialect) => scanActions(text, dialect).actions.map((a) => text.slice(a.start, a.end));

/** The text an error points at, and its 0-based column on its line. */
function located(text: string, error: { pos: number; end: number } | undefined): { at: string; column: number } | undefined {
  if (!error) return undefined;
  return { at: text.slice(error.pos, error.end), column: error.pos - (text.lastIndexOf('\n', error.pos - 1) + 1) };
}

suite('go template front end: delimiters per product', () => {
  test('Helm reads `{{ }}` and leaves `${ }` as text; Fleet the other way round', () => {
    const text = 'a: {{ .Values.a }}\nb: ${ .ClusterName }\n';
    assert.deepEqual(actionTexts(text, helmDialect), ['{{ .Values.a }}']);
    assert.deepEqual(actionTexts(text, fleetDialect), ['${ .ClusterName }']);
  });

  test('trim markers and comments work with both pairs of delimiters', () => {
    const helm = scanActions('a {{- .x -}} b {{/* c */}}', helmDialect).actions;
    const fleet = scanActions('a ${- .x -} b ${/* c */}', fleetDialect).actions;
    for (const actions of [helm, fleet]) {
      assert.deepEqual(actions.map((a) => [a.trimLeft, a.trimRight, a.comment]), [[true, true, false], [false, false, true]]);
    }
    const tree = buildTree('t', 'a ${- .ClusterName -} b', fleetDialect);
    const texts = tree.body.filter((n) => n.type === 'text').map((n) => (n.type === 'text' ? tree.text.slice(n.start, n.end) : ''));
    assert.deepEqual(texts, ['a', 'b']);
  });

  test("Fleet's one-character right delimiter: `}` in a string does not close, a map's `}` outside an action is text", () => {
    const text = 'x: {a: 1}\ny: ${ printf "}%s" .ClusterName }';
    assert.deepEqual(actionTexts(text, fleetDialect), ['${ printf "}%s" .ClusterName }']);
    assert.equal(buildTree('t', text, fleetDialect).error, undefined);
  });
});

suite('go template front end: function tables per product', () => {
  test('a Helm function is unknown to Fleet, and every call of it is collected', () => {
    for (const name of ['include', 'tpl', 'toYaml', 'required', 'lookup', 'getHostByName']) {
      const helm = buildTree('t', `{{ ${name} "a" . }}`, helmDialect);
      const fleet = buildTree('t', `\${ ${name} "a" . }`, fleetDialect);
      assert.deepEqual(helm.unknownFunctions, [], `Helm knows ${name}`);
      assert.deepEqual(fleet.unknownFunctions.map((u) => [u.name, u.pos, u.end]), [[name, 3, 3 + name.length]], `Fleet lacks ${name}`);
    }
  });

  test('both have Go builtins and sprig; neither has `env`, which both remove', () => {
    for (const dialect of [helmDialect, fleetDialect]) {
      assert.equal(dialect.hasFunction('printf'), true);
      assert.equal(dialect.hasFunction('b64enc'), true);
      assert.equal(dialect.hasFunction('env'), false);
      assert.equal(dialect.hasFunction('expandenv'), false);
    }
  });

  test('calls after the first parse error are not collected: Go never reads them', () => {
    const tree = buildTree('t', '${ tpl "a" . }${ $y }${ include "b" . }', fleetDialect);
    assert.equal(tree.error?.message, 'undefined variable "$y"');
    assert.deepEqual(tree.unknownFunctions.map((u) => u.name), ['tpl']);
  });
});

suite('go template front end: nesting bound', () => {
  const nested = (n: number) => `${'('.repeat(n)}.x${')'.repeat(n)}`;

  test(`10,000 nested parentheses give one located limit, no stack overflow; ${maxTemplateParenDepth} are parsed`, () => {
    for (const [dialect, left, right] of [[helmDialect, '{{ ', ' }}'], [fleetDialect, '${ ', ' }']] as const) {
      const text = `a: ${left}${nested(10000)}${right}\nb: ${left}.y${right}`;
      const tree = buildTree('t', text, dialect);
      assert.equal(tree.error, undefined, dialect.product);
      assert.equal(tree.limit?.message, `parentheses nest more than ${maxTemplateParenDepth} deep here, more than Render Lens follows`);
      // The paren that goes one level too deep.
      assert.equal(tree.limit?.pos, text.indexOf('(') + maxTemplateParenDepth);
      assert.equal(tree.limit?.end, text.indexOf('(') + maxTemplateParenDepth + 1);
      // The action after it is still read.
      assert.deepEqual(tree.body.filter((n) => n.type === 'output').map((n) => (n.type === 'output' ? text.slice(n.action.start, n.action.end) : '')), [`${left}.y${right}`]);

      const atBound = buildTree('t', `${left}${nested(maxTemplateParenDepth)}${right}`, dialect);
      assert.equal(atBound.limit, undefined);
      assert.equal(atBound.error, undefined);
    }
  });
});

suite('go template front end: parse errors where Go reports them', () => {
  const cases: Array<[string, string, string, number]> = [
    // template, Go's message, the text it points at, its column
    ['a: {{ .Values.a | 3x }}', 'bad number syntax: "3x"', '3x', 18],
    ['a: {{ .Values.a }}\nb:   {{ end }}', 'unexpected {{end}}', 'end', 8],
    ['{{ if .x }}\n  {{- range .y }}\n{{ end }}', 'unexpected EOF', 'if', 3],
    ['x: {{ $y }}', 'undefined variable "$y"', '$y', 6],
    ['x: 1\ny: {{ .Values.a', 'unclosed action', '{{', 3],
    ['x: {{ (.a }}', 'unclosed left paren', '{{', 3],
    ['x: {{ "abc }}', 'unterminated quoted string', '"abc }}', 6],
    ['x: {{ .a | }}', 'missing value for command', '}}', 11],
    ['{{ if .a }}{{ else }}{{ else }}{{ end }}', 'expected end; found {{else}}', 'else', 24],
    ['{{ with .a }}{{ else if .b }}{{ end }}', 'unexpected <if> in input', 'if', 21],
    ['{{ if .a }}{{ define "x" }}{{ end }}{{ end }}', 'unexpected <define> in command', 'define', 14],
    ['{{ break }}', '{{break}} outside {{range}}', 'break', 3],
    ['{{ range .a }}{{ define "x" }}{{ break }}{{ end }}{{ end }}', 'unexpected <define> in command', 'define', 17],
    ['x: {{ "a".b }}', 'unexpected . after term "\\"a\\""', 'b', 10],
    ['x: {{ .a # }}', 'unexpected "#" in operand', '#', 9],
  ];
  for (const [text, message, at, column] of cases) {
    test(`${JSON.stringify(text)}: ${message}`, () => {
      const tree = buildTree('t', text, helmDialect);
      assert.equal(tree.error?.message, message);
      assert.deepEqual(located(text, tree.error), { at, column });
      // The same template with Fleet's delimiters fails the same way, at the same place less the shorter `}`.
      const fleetText = text.replace(/\{\{/g, '${').replace(/\}\}/g, '}');
      const fleet = buildTree('t', fleetText, fleetDialect);
      assert.equal(fleet.error?.message, message, fleetText);
    });
  }

  test('a variable lives until the `end` of the block that declares it, and a define has only `$`', () => {
    assert.equal(buildTree('t', '{{ with $x := .a }}{{ $x }}{{ else }}{{ $x }}{{ end }}', helmDialect).error, undefined);
    assert.equal(buildTree('t', '{{ range $i, $v := .a }}{{ end }}{{ $v }}', helmDialect).error?.message, 'undefined variable "$v"');
    assert.equal(buildTree('t', '{{ $x := 1 }}{{ define "d" }}{{ $x }}{{ end }}', helmDialect).error?.message, 'undefined variable "$x"');
    assert.equal(buildTree('t', '{{ $x := 1 }}{{ define "d" }}{{ $ }}{{ end }}{{ $x }}', helmDialect).error, undefined);
  });

  test('Helm keeps reading past a broken action; Go’s first error is the one recorded', () => {
    const text = '{{ .a | 3x }}\n{{ .b | quote }}\n{{ end }}';
    const tree = buildTree('t', text, helmDialect);
    assert.equal(tree.error?.message, 'bad number syntax: "3x"');
    assert.equal(tree.nodes.get(text.indexOf('{{ .b'))?.type, 'output');
    assert.equal(tree.nodes.get(0)?.type, 'error');
  });

  test('field chains keep the offset of each name, after a term of any kind', () => {
    const text = '{{ $x := .a }}{{ $x.b.c }}{{ (.d).e }}{{ now.Year }}';
    const tree = buildTree('t', text, helmDialect);
    assert.equal(tree.error, undefined);
    const terms = tree.body.flatMap((n) => (n.type === 'output' ? n.pipeline.commands.flatMap((c) => c.args) : []));
    const names = terms.map((t) => pathSegments(t).map((s) => `${s.name}@${text.slice(s.start, s.end)}`));
    assert.deepEqual(names, [['a@a'], ['b@b', 'c@c'], ['e@e'], ['Year@Year']]);
  });
});
