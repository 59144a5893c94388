/**
 * The TextMate injection grammars in syntaxes/: Flux substitutions and dollar runs, and
 * Go-template actions, inside the string contexts that VS Code's YAML grammar produces.
 */
import * as assert from 'assert/strict';
import * as path from 'path';
import type { IGrammar, IRawGrammar } from 'vscode-textmate';
import { projectRoot } from './support/paths';
import { type ScopedText, loadGrammar, rawGrammar, readGrammarFile, tokensAt } from './support/textmate';

/*
 * Two grammars, because an injection grammar has one priority for all its patterns, and the
 * two kinds need opposite ones where a YAML value starts (JSON grammars cannot carry comments,
 * so the reasons live here and in the tests below):
 * - Flux substitution (`source.yaml -comment …`, normal priority): YAML opens its plain scalar
 *   with a zero-width look-ahead at the same column; normal priority lets YAML win that tie, so
 *   `${X}` sits inside the string scope and the `{X}` after an escaped `$$` stays string text.
 *   With `L:` the injection would take the `$$` first and YAML would read `{X}` as a flow mapping.
 *   Comments are left out: the controller never substitutes them.
 * - Go-template actions (`L:source.yaml …`): `{{` where a value starts must beat YAML's flow
 *   mapping `{`. Comments are included: Helm renders actions in YAML comments too.
 * Neither injects into its own scopes or into the other's where that would mis-read text.
 */
const ENVSUBST_SCOPE = 'render-lens.flux-envsubst.injection';
const GO_TEMPLATE_SCOPE = 'render-lens.go-template.injection';
const ENVSUBST_FILE = 'syntaxes/render-lens.flux-envsubst.injection.tmLanguage.json';
const GO_TEMPLATE_FILE = 'syntaxes/render-lens.go-template.injection.tmLanguage.json';

/**
 * A small stand-in for VS Code's `source.yaml` (the real one ships inside VS Code, not on npm).
 * It gives the same scope names for keys, plain, quoted and block scalars, flow mappings and
 * comments, and it opens those contexts the same way: plain scalars and keys with a zero-width
 * look-ahead, quoted strings, flow mappings and comments with their first character, block
 * scalars from the header to the first line that is not indented more than the header's line.
 */
const YAML_STAND_IN = {
  name: 'YAML (test stand-in)',
  scopeName: 'source.yaml',
  patterns: [
    { include: '#comment' },
    { include: '#block-scalar' },
    { include: '#sequence-item' },
    { include: '#key' },
    { include: '#value-separator' },
    { include: '#double' },
    { include: '#single' },
    { include: '#flow-mapping' },
    { include: '#plain' },
  ],
  repository: {
    comment: {
      begin: '(?:^|(?<=[ \\t]))#',
      end: '$',
      beginCaptures: { 0: { name: 'punctuation.definition.comment.yaml' } },
      name: 'comment.line.number-sign.yaml',
    },
    'block-scalar': {
      begin: '^([ \\t]*)(?:(-)[ \\t]+)?(?:([^\\s#\'"{}\\[\\]-][^#]*?)(:)[ \\t]+)?(?:(\\|)|(>))([-+]?)(?=[ \\t]*$)',
      end: '^(?!\\1[ \\t]+\\S|[ \\t]*$)',
      beginCaptures: {
        2: { name: 'punctuation.definition.block.sequence.item.yaml' },
        3: { name: 'string.unquoted.plain.out.yaml entity.name.tag.yaml' },
        4: { name: 'punctuation.separator.map.value.yaml' },
        5: { name: 'keyword.control.flow.block-scalar.literal.yaml' },
        6: { name: 'keyword.control.flow.block-scalar.folded.yaml' },
        7: { name: 'storage.modifier.chomping-indicator.yaml' },
      },
      contentName: 'string.unquoted.block.yaml',
    },
    'sequence-item': {
      match: '^[ \\t]*(-)(?=[ \\t]|$)',
      captures: { 1: { name: 'punctuation.definition.block.sequence.item.yaml' } },
    },
    key: {
      begin: '(?=[^\\s#\'"{}\\[\\]|>,&*!%@`?:-][^#]*?:(?:[ \\t]|$))',
      end: '(?=[ \\t]*:(?:[ \\t]|$))',
      name: 'string.unquoted.plain.out.yaml entity.name.tag.yaml',
    },
    'value-separator': {
      match: ':(?=[ \\t]|$)',
      name: 'punctuation.separator.map.value.yaml',
    },
    double: {
      begin: '"',
      end: '"',
      beginCaptures: { 0: { name: 'punctuation.definition.string.begin.yaml' } },
      endCaptures: { 0: { name: 'punctuation.definition.string.end.yaml' } },
      name: 'string.quoted.double.yaml',
      patterns: [{ match: '\\\\.', name: 'constant.character.escape.yaml' }],
    },
    single: {
      begin: "'",
      end: "'(?!')",
      beginCaptures: { 0: { name: 'punctuation.definition.string.begin.yaml' } },
      endCaptures: { 0: { name: 'punctuation.definition.string.end.yaml' } },
      name: 'string.quoted.single.yaml',
      patterns: [{ match: "''", name: 'constant.character.escape.single-quote.yaml' }],
    },
    'flow-mapping': {
      begin: '\\{',
      end: '\\}',
      beginCaptures: { 0: { name: 'punctuation.definition.mapping.begin.yaml' } },
      endCaptures: { 0: { name: 'punctuation.definition.mapping.end.yaml' } },
      name: 'meta.flow.mapping.yaml',
      patterns: [
        { include: '#double' },
        { include: '#single' },
        { match: ',', name: 'punctuation.separator.mapping.yaml' },
        { match: ':(?=[ \\t,}]|$)', name: 'punctuation.separator.map.value.yaml' },
        { include: '#flow-mapping' },
        {
          begin: '(?=[^\\s,:{}\\[\\]#\'"])',
          end: '(?=[ \\t]*(?:[,{}\\[\\]]|:(?:[ \\t,}]|$))|[ \\t]+#)',
          name: 'string.unquoted.plain.in.yaml',
        },
      ],
    },
    plain: {
      begin: '(?=[^\\s#\'"{}\\[\\]|>,&*!%@`?:-]|[-?:]\\S)',
      end: '(?=[ \\t]+#)|$',
      name: 'string.unquoted.plain.out.yaml',
    },
  },
};

// YAML contexts (from the stand-in, named as in VS Code's grammar).
const KEY = ['string.unquoted.plain.out.yaml', 'entity.name.tag.yaml'];
const PLAIN = ['string.unquoted.plain.out.yaml'];
const DOUBLE = ['string.quoted.double.yaml'];
const SINGLE = ['string.quoted.single.yaml'];
const BLOCK = ['string.unquoted.block.yaml'];
const COMMENT = ['comment.line.number-sign.yaml'];

// Flux substitution scopes.
const SUB = 'meta.embedded.substitution.flux.render-lens';
const SUB_BEGIN = 'punctuation.definition.substitution.begin.flux.render-lens';
const SUB_END = 'punctuation.definition.substitution.end.flux.render-lens';
const SUB_VAR = 'variable.other.substitution.flux.render-lens';
const SUB_OP = 'keyword.operator.substitution.flux.render-lens';
const SUB_DEFAULT = 'string.unquoted.default.flux.render-lens';
const ESCAPE = 'constant.character.escape.dollar.flux.render-lens';
const COLLAPSE = 'constant.character.escape.dollar.collapse.flux.render-lens';
const HALF = 'invalid.deprecated.half-escaped.flux.render-lens';

// Go-template scopes.
const GO = 'meta.embedded.block.go-template.render-lens';
const GO_BEGIN = 'punctuation.section.embedded.begin.go-template';
const GO_END = 'punctuation.section.embedded.end.go-template';
const GO_MEMBER = 'variable.other.member.go-template';
const GO_PIPE = 'keyword.operator.pipe.go-template';
const GO_FUNC = 'support.function.go-template';
const GO_STRING = 'string.quoted.double.go-template';
const GO_COMMENT = 'comment.block.go-template';

/** The three tokens of a bare live `${name}` inside `context`. */
function live(context: string[], name: string): ScopedText[] {
  return [
    ['${', [...context, SUB, SUB_BEGIN]],
    [name, [...context, SUB, SUB_VAR]],
    ['}', [...context, SUB, SUB_END]],
  ];
}

/** A Go-template string `"text"` inside `context`. */
function goString(context: string[], text: string): ScopedText[] {
  return [
    ['"', [...context, GO_STRING, 'punctuation.definition.string.begin.go-template']],
    [text, [...context, GO_STRING]],
    ['"', [...context, GO_STRING, 'punctuation.definition.string.end.go-template']],
  ];
}

suite('grammar: injections into YAML (syntaxes/)', () => {
  let yamlOnly: IGrammar;
  let yaml: IGrammar;

  suiteSetup(async () => {
    const grammars = new Map<string, IRawGrammar>([
      ['source.yaml', rawGrammar(YAML_STAND_IN, 'yaml-stand-in')],
      [ENVSUBST_SCOPE, readGrammarFile(path.join(projectRoot, ENVSUBST_FILE))],
      [GO_TEMPLATE_SCOPE, readGrammarFile(path.join(projectRoot, GO_TEMPLATE_FILE))],
    ]);
    yamlOnly = await loadGrammar('source.yaml', grammars);
    yaml = await loadGrammar('source.yaml', grammars, { 'source.yaml': [ENVSUBST_SCOPE, GO_TEMPLATE_SCOPE] });
  });

  /** The tokens (text, scopes below `source.yaml`) that make up `needle` in `text`, with the injections. */
  const scopesOf = (text: string, needle: string, occurrence?: number): ScopedText[] => tokensAt(yaml, text, needle, occurrence);

  suite('the stand-in YAML grammar alone', () => {
    test('gives the YAML scopes for keys, plain, quoted and block scalars, flow mappings and comments', () => {
      const text = ['key: plain ${X}', 'd: "a\\"b"', "s: 'it''s'", 'run: |', '  echo ${X}', 'm: {a: b} # note'].join('\n');
      const at = (needle: string) => tokensAt(yamlOnly, text, needle);
      assert.deepEqual(at('key: plain ${X}'), [
        ['key', KEY],
        [':', ['punctuation.separator.map.value.yaml']],
        [' ', []],
        ['plain ${X}', PLAIN],
      ]);
      assert.deepEqual(at('"a\\"b"'), [
        ['"', [...DOUBLE, 'punctuation.definition.string.begin.yaml']],
        ['a', DOUBLE],
        ['\\"', [...DOUBLE, 'constant.character.escape.yaml']],
        ['b', DOUBLE],
        ['"', [...DOUBLE, 'punctuation.definition.string.end.yaml']],
      ]);
      assert.deepEqual(at("'it''s'"), [
        ["'", [...SINGLE, 'punctuation.definition.string.begin.yaml']],
        ['it', SINGLE],
        ["''", [...SINGLE, 'constant.character.escape.single-quote.yaml']],
        ['s', SINGLE],
        ["'", [...SINGLE, 'punctuation.definition.string.end.yaml']],
      ]);
      assert.deepEqual(at('run: |'), [
        ['run', KEY],
        [':', ['punctuation.separator.map.value.yaml']],
        [' ', []],
        ['|', ['keyword.control.flow.block-scalar.literal.yaml']],
      ]);
      assert.deepEqual(at('  echo ${X}'), [['  echo ${X}', BLOCK]]);
      assert.deepEqual(at('{a: b}'), [
        ['{', ['meta.flow.mapping.yaml', 'punctuation.definition.mapping.begin.yaml']],
        ['a', ['meta.flow.mapping.yaml', 'string.unquoted.plain.in.yaml']],
        [':', ['meta.flow.mapping.yaml', 'punctuation.separator.map.value.yaml']],
        [' ', ['meta.flow.mapping.yaml']],
        ['b', ['meta.flow.mapping.yaml', 'string.unquoted.plain.in.yaml']],
        ['}', ['meta.flow.mapping.yaml', 'punctuation.definition.mapping.end.yaml']],
      ]);
      assert.deepEqual(at('# note'), [
        ['#', [...COMMENT, 'punctuation.definition.comment.yaml']],
        [' note', COMMENT],
      ]);
    });
  });

  suite('Flux substitution and dollar runs', () => {
    test('a live ${X} is a substitution inside the plain scalar', () => {
      assert.deepEqual(scopesOf('value: ${X}', '${X}'), live(PLAIN, 'X'));
      assert.deepEqual(scopesOf('value: a-${X}-b', 'a-${X}-b'), [['a-', PLAIN], ...live(PLAIN, 'X'), ['-b', PLAIN]]);
    });

    test('an escaped $${X} is dollars and literal braces, neither a substitution nor a flow mapping', () => {
      assert.deepEqual(scopesOf('value: $${X}', '$${X}'), [
        ['$$', [...PLAIN, ESCAPE]],
        ['{X}', PLAIN],
      ]);
      assert.deepEqual(scopesOf('value: $$$${X}', '$$$${X}'), [
        ['$$$$', [...PLAIN, ESCAPE]],
        ['{X}', PLAIN],
      ]);
    });

    test('a half-escaped $$${X}: the even part escapes, the last $ opens a live substitution, the run is deprecated', () => {
      const halfEscaped = (dollars: string): ScopedText[] => [
        [dollars, [...PLAIN, HALF, ESCAPE]],
        ['$', [...PLAIN, SUB, HALF, SUB_BEGIN]],
        ['{', [...PLAIN, SUB, SUB_BEGIN]],
        ['X', [...PLAIN, SUB, SUB_VAR]],
        ['}', [...PLAIN, SUB, SUB_END]],
      ];
      assert.deepEqual(scopesOf('value: $$${X}', '$$${X}'), halfEscaped('$$'));
      assert.deepEqual(scopesOf('value: a$$$$${X}', '$$$$${X}'), halfEscaped('$$$$'));
    });

    test('$$ not before { collapses to $; an odd dollar left over is literal', () => {
      assert.deepEqual(scopesOf('cmd: kill $$; echo $$HOME x$$', 'kill $$; echo $$HOME x$$'), [
        ['kill ', PLAIN],
        ['$$', [...PLAIN, COLLAPSE]],
        ['; echo ', PLAIN],
        ['$$', [...PLAIN, COLLAPSE]],
        ['HOME x', PLAIN],
        ['$$', [...PLAIN, COLLAPSE]],
      ]);
      assert.deepEqual(scopesOf('cmd: $$$X', '$$$X'), [
        ['$$', [...PLAIN, COLLAPSE]],
        ['$X', PLAIN],
      ]);
    });

    test('$VAR, ${}, ${ X} and a lone $ are not substitutions', () => {
      assert.deepEqual(scopesOf('value: $VAR ${} ${ X} $', '$VAR ${} ${ X} $'), [['$VAR ${} ${ X} $', PLAIN]]);
    });

    test('an operator with a default word, and nested expansions inside the word', () => {
      assert.deepEqual(scopesOf('value: ${A:-pre-${B:=x}}', '${A:-pre-${B:=x}}'), [
        ['${', [...PLAIN, SUB, SUB_BEGIN]],
        ['A', [...PLAIN, SUB, SUB_VAR]],
        [':-', [...PLAIN, SUB, SUB_OP]],
        ['pre-', [...PLAIN, SUB, SUB_DEFAULT]],
        ['${', [...PLAIN, SUB, SUB_DEFAULT, SUB, SUB_BEGIN]],
        ['B', [...PLAIN, SUB, SUB_DEFAULT, SUB, SUB_VAR]],
        [':=', [...PLAIN, SUB, SUB_DEFAULT, SUB, SUB_OP]],
        ['x', [...PLAIN, SUB, SUB_DEFAULT, SUB, SUB_DEFAULT]],
        ['}', [...PLAIN, SUB, SUB_DEFAULT, SUB, SUB_END]],
        ['}', [...PLAIN, SUB, SUB_END]],
      ]);
      // In a default word `$$` is not collapsed: the first `$` is text, `${B}` is nested.
      assert.deepEqual(scopesOf('value: ${A=$${B}}', '=$${B}}'), [
        ['=', [...PLAIN, SUB, SUB_OP]],
        ['$', [...PLAIN, SUB, SUB_DEFAULT]],
        ...live([...PLAIN, SUB, SUB_DEFAULT], 'B'),
        ['}', [...PLAIN, SUB, SUB_END]],
      ]);
    });

    test('substring, trim, replace, case and length operators', () => {
      const inSub = (...scopes: string[]) => [...PLAIN, SUB, ...scopes];
      assert.deepEqual(scopesOf('v: ${A:1:-2}', ':1:-2}'), [
        [':', inSub(SUB_OP)],
        ['1', inSub('constant.numeric.integer.flux.render-lens')],
        [':', inSub('punctuation.separator.substring.flux.render-lens')],
        ['-2', inSub('constant.numeric.integer.flux.render-lens')],
        ['}', inSub(SUB_END)],
      ]);
      const pattern = 'string.unquoted.pattern.flux.render-lens';
      assert.deepEqual(scopesOf('v: ${A##*/[ab]}', '##*/[ab]}'), [
        ['##', inSub(SUB_OP)],
        ['*', inSub(pattern, 'keyword.operator.glob.flux.render-lens')],
        ['/', inSub(pattern)],
        ['[ab]', inSub(pattern, 'constant.other.character-class.glob.flux.render-lens')],
        ['}', inSub(SUB_END)],
      ]);
      const replacement = 'string.unquoted.replacement.flux.render-lens';
      const escape = 'constant.character.escape.flux.render-lens';
      assert.deepEqual(scopesOf('v: ${A//a\\/b/c$$d}', '//a\\/b/c$$d}'), [
        ['//', inSub(SUB_OP)],
        ['a', inSub(pattern)],
        ['\\/', inSub(pattern, escape)],
        ['b', inSub(pattern)],
        ['/', inSub('punctuation.separator.replacement.flux.render-lens')],
        ['c', inSub(replacement)],
        ['$$', inSub(replacement, escape)],
        ['d', inSub(replacement)],
        ['}', inSub(SUB_END)],
      ]);
      assert.deepEqual(scopesOf('v: ${A^^}', '^^}'), [
        ['^^', inSub(SUB_OP)],
        ['}', inSub(SUB_END)],
      ]);
      assert.deepEqual(scopesOf('v: ${#A}', '${#A}'), [
        ['${', inSub(SUB_BEGIN)],
        ['#', inSub('keyword.operator.length.flux.render-lens')],
        ['A', inSub(SUB_VAR)],
        ['}', inSub(SUB_END)],
      ]);
    });

    test('text after the name that is no operator is marked invalid (Flux: missing closing brace)', () => {
      assert.deepEqual(scopesOf('v: ${A-x}', '-x}'), [
        ['-x', [...PLAIN, SUB, 'invalid.illegal.substitution.flux.render-lens']],
        ['}', [...PLAIN, SUB, SUB_END]],
      ]);
    });

    test('an unclosed ${A ends with its line', () => {
      const text = 'a: ${A\nb: ${B}';
      assert.deepEqual(scopesOf(text, '${A'), live(PLAIN, 'A').slice(0, 2));
      assert.deepEqual(scopesOf(text, 'b: ${B}'), [
        ['b', KEY],
        [':', ['punctuation.separator.map.value.yaml']],
        [' ', []],
        ...live(PLAIN, 'B'),
      ]);
    });

    test('inside a double-quoted string', () => {
      assert.deepEqual(scopesOf('value: "x-${X} $${Y} $$${Z}"', '"x-${X} $${Y} $$${Z}"'), [
        ['"', [...DOUBLE, 'punctuation.definition.string.begin.yaml']],
        ['x-', DOUBLE],
        ...live(DOUBLE, 'X'),
        [' ', DOUBLE],
        ['$$', [...DOUBLE, ESCAPE]],
        ['{Y} ', DOUBLE],
        ['$$', [...DOUBLE, HALF, ESCAPE]],
        ['$', [...DOUBLE, SUB, HALF, SUB_BEGIN]],
        ['{', [...DOUBLE, SUB, SUB_BEGIN]],
        ['Z', [...DOUBLE, SUB, SUB_VAR]],
        ['}', [...DOUBLE, SUB, SUB_END]],
        ['"', [...DOUBLE, 'punctuation.definition.string.end.yaml']],
      ]);
    });

    test('inside a single-quoted string', () => {
      assert.deepEqual(scopesOf("value: '${X}''s $${Y}'", "'${X}''s $${Y}'"), [
        ["'", [...SINGLE, 'punctuation.definition.string.begin.yaml']],
        ...live(SINGLE, 'X'),
        ["''", [...SINGLE, 'constant.character.escape.single-quote.yaml']],
        ['s ', SINGLE],
        ['$$', [...SINGLE, ESCAPE]],
        ['{Y}', SINGLE],
        ["'", [...SINGLE, 'punctuation.definition.string.end.yaml']],
      ]);
    });

    test('inside a block scalar line', () => {
      const text = ['data:', '  run.sh: |', '    echo "${HOST}" $$ $${HOME}', '  other: x'].join('\n');
      assert.deepEqual(scopesOf(text, '    echo "${HOST}" $$ $${HOME}'), [
        ['    echo "', BLOCK],
        ...live(BLOCK, 'HOST'),
        ['" ', BLOCK],
        ['$$', [...BLOCK, COLLAPSE]],
        [' ', BLOCK],
        ['$$', [...BLOCK, ESCAPE]],
        ['{HOME}', BLOCK],
      ]);
      assert.deepEqual(scopesOf(text, 'other'), [['other', KEY]], 'the block scalar ends at the less indented key');
    });

    test('in keys, flow mappings and sequence items', () => {
      assert.deepEqual(scopesOf('${KEY}: v', '${KEY}'), live(KEY, 'KEY'));
      const flowPlain = ['meta.flow.mapping.yaml', 'string.unquoted.plain.in.yaml'];
      assert.deepEqual(scopesOf('m: {a: ${X}}', '${X}}'), [
        ...live(flowPlain, 'X'),
        ['}', ['meta.flow.mapping.yaml', 'punctuation.definition.mapping.end.yaml']],
      ]);
      assert.deepEqual(scopesOf('- ${X}', '${X}'), live(PLAIN, 'X'));
    });

    test('not in comments: the controller never substitutes them', () => {
      assert.deepEqual(scopesOf('a: b # ${X} $${Y} $$', '# ${X} $${Y} $$'), [
        ['#', [...COMMENT, 'punctuation.definition.comment.yaml']],
        [' ${X} $${Y} $$', COMMENT],
      ]);
    });
  });

  suite('Go-template actions', () => {
    test('trim markers {{- and -}} are part of the delimiters; {{-3}} is a number', () => {
      assert.deepEqual(scopesOf('{{- if .Values.enabled }}', '{{- if .Values.enabled }}'), [
        ['{{-', [GO, GO_BEGIN]],
        [' ', [GO]],
        ['if', [GO, 'keyword.control.go-template']],
        [' ', [GO]],
        ['.Values.enabled', [GO, GO_MEMBER]],
        [' ', [GO]],
        ['}}', [GO, GO_END]],
      ]);
      assert.deepEqual(scopesOf('  {{- toYaml .Values.resources | nindent 12 -}}', '{{- toYaml .Values.resources | nindent 12 -}}'), [
        ['{{-', [GO, GO_BEGIN]],
        [' ', [GO]],
        ['toYaml', [GO, GO_FUNC]],
        [' ', [GO]],
        ['.Values.resources', [GO, GO_MEMBER]],
        [' ', [GO]],
        ['|', [GO, GO_PIPE]],
        [' ', [GO]],
        ['nindent', [GO, GO_FUNC]],
        [' ', [GO]],
        ['12', [GO, 'constant.numeric.go-template']],
        [' ', [GO]],
        ['-}}', [GO, GO_END]],
      ]);
      assert.deepEqual(scopesOf('x: {{-3}}', '{{-3}}'), [
        ['{{', [GO, GO_BEGIN]],
        ['-3', [GO, 'constant.numeric.go-template']],
        ['}}', [GO, GO_END]],
      ]);
    });

    test('a pipeline with quote as a plain value is an action, not a YAML flow mapping', () => {
      const text = 'image: {{ .Values.image | quote }}';
      assert.deepEqual(scopesOf(text, '{{ .Values.image | quote }}'), [
        ['{{', [GO, GO_BEGIN]],
        [' ', [GO]],
        ['.Values.image', [GO, GO_MEMBER]],
        [' ', [GO]],
        ['|', [GO, GO_PIPE]],
        [' ', [GO]],
        ['quote', [GO, GO_FUNC]],
        [' ', [GO]],
        ['}}', [GO, GO_END]],
      ]);
      const [first] = tokensAt(yamlOnly, text, '{');
      const flowMappingBegin = ['meta.flow.mapping.yaml', 'punctuation.definition.mapping.begin.yaml'];
      assert.deepEqual(first, ['{', flowMappingBegin], 'without the injection it would be a flow mapping');
    });

    test('comment actions, trimmed and spanning lines', () => {
      assert.deepEqual(scopesOf('{{/* note */}}', '{{/* note */}}'), [
        ['{{', [GO, GO_BEGIN]],
        ['/*', [GO, GO_COMMENT, 'punctuation.definition.comment.begin.go-template']],
        [' note ', [GO, GO_COMMENT]],
        ['*/', [GO, GO_COMMENT, 'punctuation.definition.comment.end.go-template']],
        ['}}', [GO, GO_END]],
      ]);
      assert.deepEqual(scopesOf('{{- /* trimmed ${X} */ -}}', '{{- /* trimmed ${X} */ -}}'), [
        ['{{-', [GO, GO_BEGIN]],
        [' ', [GO]],
        ['/*', [GO, GO_COMMENT, 'punctuation.definition.comment.begin.go-template']],
        [' trimmed ${X} ', [GO, GO_COMMENT]],
        ['*/', [GO, GO_COMMENT, 'punctuation.definition.comment.end.go-template']],
        [' ', [GO]],
        ['-}}', [GO, GO_END]],
      ]);
      const text = '{{/* first\n   second */}}\nk: v';
      assert.deepEqual(scopesOf(text, '   second */}}'), [
        ['   second ', [GO, GO_COMMENT]],
        ['*/', [GO, GO_COMMENT, 'punctuation.definition.comment.end.go-template']],
        ['}}', [GO, GO_END]],
      ]);
      assert.deepEqual(scopesOf(text, 'k: v'), [
        ['k', KEY],
        [':', ['punctuation.separator.map.value.yaml']],
        [' ', []],
        ['v', PLAIN],
      ]);
    });

    test('strings, the dot, variables, assignment, parentheses and keywords', () => {
      assert.deepEqual(scopesOf('name: {{ include "chart.fullname" . }}-web', '{{ include "chart.fullname" . }}-web'), [
        ['{{', [GO, GO_BEGIN]],
        [' ', [GO]],
        ['include', [GO, GO_FUNC]],
        [' ', [GO]],
        ...goString([GO], 'chart.fullname'),
        [' ', [GO]],
        ['.', [GO, 'variable.language.dot.go-template']],
        [' ', [GO]],
        ['}}', [GO, GO_END]],
        ['-web', PLAIN],
      ]);
      assert.deepEqual(scopesOf('{{- range $i, $v := (index $.Values "a-b") }}', 'range $i, $v := (index $.Values "a-b") }}'), [
        ['range', [GO, 'keyword.control.go-template']],
        [' ', [GO]],
        ['$i', [GO, 'variable.other.go-template']],
        [',', [GO, 'punctuation.separator.comma.go-template']],
        [' ', [GO]],
        ['$v', [GO, 'variable.other.go-template']],
        [' ', [GO]],
        [':=', [GO, 'keyword.operator.assignment.go-template']],
        [' ', [GO]],
        ['(', [GO, 'punctuation.section.parens.begin.go-template']],
        ['index', [GO, GO_FUNC]],
        [' ', [GO]],
        ['$', [GO, 'variable.other.go-template']],
        ['.Values', [GO, GO_MEMBER]],
        [' ', [GO]],
        ...goString([GO], 'a-b'),
        [')', [GO, 'punctuation.section.parens.end.go-template']],
        [' ', [GO]],
        ['}}', [GO, GO_END]],
      ]);
      assert.deepEqual(scopesOf('{{ end }}', 'end'), [['end', [GO, 'keyword.control.go-template']]]);
    });

    test('an action may span lines', () => {
      const text = 'v: {{ .Values.x\n  | default "y" }}\nk: v';
      assert.deepEqual(scopesOf(text, '  | default "y" }}'), [
        ['  ', [GO]],
        ['|', [GO, GO_PIPE]],
        [' ', [GO]],
        ['default', [GO, GO_FUNC]],
        [' ', [GO]],
        ...goString([GO], 'y'),
        [' ', [GO]],
        ['}}', [GO, GO_END]],
      ]);
      assert.deepEqual(scopesOf(text, 'k'), [['k', KEY]]);
    });

    test('inside quoted strings, block scalars, keys and YAML comments', () => {
      const action = (context: string[]): ScopedText[] => [
        ['{{', [...context, GO, GO_BEGIN]],
        [' ', [...context, GO]],
        ['.Values.x', [...context, GO, GO_MEMBER]],
        [' ', [...context, GO]],
        ['}}', [...context, GO, GO_END]],
      ];
      assert.deepEqual(scopesOf('v: "{{ .Values.x }}"', '{{ .Values.x }}'), action(DOUBLE));
      assert.deepEqual(scopesOf("v: '{{ .Values.x }}'", '{{ .Values.x }}'), action(SINGLE));
      assert.deepEqual(scopesOf('v: |\n  a {{ .Values.x }}', '{{ .Values.x }}'), action(BLOCK));
      assert.deepEqual(scopesOf('v: a-{{ .Values.x }}', '{{ .Values.x }}'), action(PLAIN));
      // Helm renders actions in YAML comments too.
      assert.deepEqual(scopesOf('v: a # {{ .Values.x }}', '{{ .Values.x }}'), action(COMMENT));
      assert.deepEqual(scopesOf('{{ .Values.x }}: y', '{{ .Values.x }}: y'), [
        ...action([]),
        [':', ['punctuation.separator.map.value.yaml']],
        [' ', []],
        ['y', PLAIN],
      ]);
    });

    test('a Flux substitution inside an action string is live (Flux runs before Helm sees the values)', () => {
      assert.deepEqual(scopesOf('v: {{ printf "%s" "${X}" }}', '"${X}"'), [
        ['"', [GO, GO_STRING, 'punctuation.definition.string.begin.go-template']],
        ...live([GO, GO_STRING], 'X'),
        ['"', [GO, GO_STRING, 'punctuation.definition.string.end.go-template']],
      ]);
    });

    test('${{ ... }} (GitHub Actions) is a literal $ and an action, not a substitution', () => {
      assert.deepEqual(scopesOf('run: ${{ github.sha }}', '${{ github.sha }}'), [
        ['$', PLAIN],
        ['{{', [...PLAIN, GO, GO_BEGIN]],
        [' ', [...PLAIN, GO]],
        ['github', [...PLAIN, GO, GO_FUNC]],
        ['.sha', [...PLAIN, GO, GO_MEMBER]],
        [' ', [...PLAIN, GO]],
        ['}}', [...PLAIN, GO, GO_END]],
      ]);
    });
  });
});
