/** The Go-template scanner, the action parser and the YAML key paths recovered from chart templates. */
import * as assert from 'assert/strict';
import { isStringField } from '../core/kube/schema-types';
import { templateLayout, type FieldSlot } from '../core/helm/key-paths';
import { splitManifests } from '../core/helm/manifests';
import { classifyOutput } from '../core/helm/output-class';
import type { ActionNode } from '../core/gotemplate/ast';
import { helmDialect } from '../core/gotemplate/dialect';
import { scanActions } from '../core/gotemplate/lexer';
import { parseAction } from '../core/gotemplate/parser';
import { buildTree } from '../core/gotemplate/tree';

/** The source of each action the scanner found. */
function actionTexts(text: string): string[] {
  return scanActions(text, helmDialect).actions.map((a) => text.slice(a.start, a.end));
}

function parse(body: string): ActionNode {
  const text = `{{ ${body} }}`;
  return parseAction(text, scanActions(text, helmDialect).actions[0], helmDialect);
}

/** The slot of the output action whose source is `needle`. */
function slotOf(text: string, needle: string): FieldSlot {
  const layout = templateLayout(buildTree('t.yaml', text, helmDialect));
  const slot = layout.slots.get(text.indexOf(needle));
  assert.ok(slot, `no slot for ${needle}`);
  return slot;
}

const pathOf = (slot: FieldSlot) => slot.path.map((p) => (typeof p === 'number' ? '[]' : p)).join('.').replace(/\.\[\]/g, '[]');

suite('helm template scanner', () => {
  test('finds actions, trim markers and comments with their positions', () => {
    const text = 'a: {{ .Values.a }}\n{{- if .Values.b -}}\n{{/* note */}}\n{{- /* trimmed */ -}}';
    const { actions, error } = scanActions(text, helmDialect);
    assert.equal(error, undefined);
    assert.deepEqual(actionTexts(text), ['{{ .Values.a }}', '{{- if .Values.b -}}', '{{/* note */}}', '{{- /* trimmed */ -}}']);
    assert.deepEqual(actions.map((a) => [a.trimLeft, a.trimRight, a.comment]), [[false, false, false], [true, true, false], [false, false, true], [true, true, true]]);
    assert.equal(text.slice(actions[0].bodyStart, actions[0].bodyEnd), ' .Values.a ');
  });

  test('`}}` inside strings does not close an action; raw strings may span lines', () => {
    const text = 'x: {{ printf "}}%s" .Values.a }} y: {{ `a\n}}b` }}';
    assert.deepEqual(actionTexts(text), ['{{ printf "}}%s" .Values.a }}', '{{ `a\n}}b` }}']);
  });

  test('a dash must touch a space to trim: `{{-3}}` is the number -3', () => {
    const [action] = scanActions('{{-3}}', helmDialect).actions;
    assert.equal(action.trimLeft, false);
  });

  test('reports text/template lexer errors', () => {
    assert.equal(scanActions('a: {{ .Values.a', helmDialect).error?.message, 'unclosed action');
    assert.equal(scanActions('{{/* open', helmDialect).error?.message, 'unclosed comment');
    assert.equal(scanActions('{{/* c */ x }}', helmDialect).error?.message, 'comment ends before closing delimiter');
    assert.equal(scanActions('{{ "abc }}', helmDialect).error?.message, 'unterminated quoted string');
  });
});

suite('helm action parser', () => {
  test('parses pipelines into commands with offsets', () => {
    const node = parse('.Values.a | default "x" | quote');
    assert.equal(node.type, 'output');
    if (node.type !== 'output') return;
    assert.deepEqual(node.pipeline.commands.map((c) => c.args.map((a) => a.kind)), [['field'], ['function', 'string'], ['function']]);
    assert.deepEqual(node.pipeline.commands[0].args[0], { kind: 'field', path: ['Values', 'a'], start: 3, end: 12 });
  });

  test('parses control actions, declarations and nested pipelines', () => {
    assert.deepEqual(parse('else if .Values.b').type, 'else');
    assert.deepEqual(parse('end'), { type: 'end' });
    assert.deepEqual(parse('define "x.name"'), { type: 'define', name: 'x.name' });
    const range = parse('range $k, $v := .Values.env');
    assert.ok(range.type === 'range' && range.pipeline.declarations.join() === '$k,$v');
    const nested = parse('include "x" (dict "a" $.Values.a) | nindent 4');
    assert.ok(nested.type === 'output');
    if (nested.type !== 'output') return;
    const dict = nested.pipeline.commands[0].args[2];
    assert.ok(dict.kind === 'pipeline' && dict.pipeline.commands[0].args[2].kind === 'variable');
  });

  test('reports grammar errors as text/template does', () => {
    const node = parse('.Values.a |');
    assert.equal(node.type, 'error');
    assert.equal(parse('if').type, 'error');
  });

  test('classifies what an action prints', () => {
    const kindOf = (body: string, rebound = false) => {
      const node = parse(body);
      return node.type === 'output' ? classifyOutput(node.pipeline, rebound).kind : node.type;
    };
    assert.equal(kindOf('.Values.x'), 'value');
    assert.equal(kindOf('.Values.x | toString'), 'value');
    assert.equal(kindOf('.Values.x | quote'), 'quoted');
    assert.equal(kindOf('quote .Values.x'), 'quoted');
    assert.equal(kindOf('toYaml .Values.x | nindent 4'), 'block');
    assert.equal(kindOf('include "x.name" .'), 'name');
    assert.equal(kindOf('.Release.Name | trunc 63'), 'name');
    assert.equal(kindOf('.Release.Name', true), 'value');
    assert.equal(kindOf('.Values.p | b64enc'), 'opaque');
    assert.equal(kindOf('"on"'), 'literal');
  });
});

suite('helm template key paths', () => {
  const cronjob = `{{- if .Values.cron.enabled }}
apiVersion: batch/v1
kind: CronJob
metadata:
  name: {{ include "x.name" . }}
  labels:
    {{- include "x.labels" . | nindent 4 }}
    {{- range $k, $v := .Values.extraLabels }}
    {{ $k }}: {{ $v }}
    {{- end }}
spec:
  schedule: {{ .Values.cron.schedule }}
  jobTemplate:
    spec:
      template:
        spec:
          containers:
            - name: job
              args:
                - {{ .Values.arg }}
              env:
                - name: A
                  value: "x"
                - name: B
                  value: {{ .Values.b }}
          nodeSelector: {{- toYaml .Values.nodeSelector | nindent 12 }}
{{- end }}
---
kind: ConfigMap
data:
  script: |
    echo {{ .Values.x }}
  plain: {{ .Values.m }} * * * *
`;

  test('recovers the key path behind a disabled `if`, with the document kind', () => {
    const schedule = slotOf(cronjob, '{{ .Values.cron.schedule }}');
    assert.equal(pathOf(schedule), 'spec.schedule');
    assert.equal(schedule.kind, 'CronJob');
    assert.ok(isStringField({ kind: schedule.kind }, schedule.path));
    const env = slotOf(cronjob, '{{ .Values.b }}');
    assert.equal(pathOf(env), 'spec.jobTemplate.spec.template.spec.containers[].env[].value');
    assert.deepEqual(env.path.slice(-3), ['env', 1, 'value']);
    assert.equal(pathOf(slotOf(cronjob, '{{ .Values.arg }}')), 'spec.jobTemplate.spec.template.spec.containers[].args[]');
  });

  test('a templated key stands as `*`: `{{ $k }}: {{ $v }}` under labels is a label value', () => {
    const value = slotOf(cronjob, '{{ $v }}');
    assert.equal(pathOf(value), 'metadata.labels.*');
    assert.ok(isStringField({ kind: value.kind }, value.path));
    assert.equal(slotOf(cronjob, '{{ $k }}').isKey, true);
  });

  test('lines of only actions inject blocks and add no structure', () => {
    const injected = slotOf(cronjob, '{{- include "x.labels"');
    assert.equal(injected.style, 'injected');
    assert.equal(pathOf(injected), 'metadata.labels');
    assert.equal(slotOf(cronjob, '{{- toYaml .Values.nodeSelector').style, 'plain');
  });

  test('documents split on `---`; block scalars and partly literal scalars are kept whole', () => {
    const block = slotOf(cronjob, '{{ .Values.x }}');
    assert.equal(block.style, 'block');
    assert.equal(block.kind, 'ConfigMap');
    assert.equal(pathOf(block), 'data.script');
    const plain = slotOf(cronjob, '{{ .Values.m }}');
    assert.equal(cronjob.slice(plain.start, plain.end), '{{ .Values.m }} * * * *');
    assert.deepEqual(plain.parts.map((p) => p.kind), ['action', 'text']);
  });

  test('quoted scalars keep their quotes in the range and the actions inside', () => {
    const text = 'metadata:\n  annotations:\n    a: "{{ .Values.a }}-x"  # note\n';
    const slot = slotOf(text, '{{ .Values.a }}');
    assert.equal(slot.style, 'double');
    assert.equal(text.slice(slot.start, slot.end), '"{{ .Values.a }}-x"');
  });

  test('a define body has paths of its own, relative to where it is included', () => {
    const text = 'spec:\n  x: 1\n{{- define "x.meta" -}}\nmetadata:\n  labels:\n    app: {{ .Values.a }}\n{{- end }}\n  name: {{ .Values.n }}\n';
    assert.equal(pathOf(slotOf(text, '{{ .Values.a }}')), 'metadata.labels.app');
    assert.equal(pathOf(slotOf(text, '{{ .Values.n }}')), 'name');
  });
});

suite('helm manifests', () => {
  test('split like releaseutil.SplitManifests: trimmed, on `---` lines', () => {
    const rendered = '\n\n---\na: 1\n\n---  \n  b: 2\n---\n';
    assert.deepEqual(splitManifests(rendered).map((m) => m.text), ['a: 1', 'b: 2']);
    const [first] = splitManifests(rendered);
    assert.equal(rendered.slice(first.start, first.end), 'a: 1');
  });
});

suite('helm template tree', () => {
  test('applies trim markers to text and lifts defines out', () => {
    const text = 'a\n  {{- if .x }}\nb\n{{- end }}\n{{ define "n" }}body{{ end }}tail';
    const tree = buildTree('t.yaml', text, helmDialect);
    assert.equal(tree.error, undefined);
    assert.equal(tree.defines[0].name, 'n');
    const texts = tree.body.filter((n) => n.type === 'text').map((n) => (n.type === 'text' ? text.slice(n.start, n.end) : ''));
    assert.deepEqual(texts, ['a', '\n', 'tail']);
  });

  test('reports an unbalanced end', () => {
    assert.equal(buildTree('t.yaml', '{{ end }}', helmDialect).error?.message, 'unexpected {{end}}');
    assert.equal(buildTree('t.yaml', '{{ if .x }}a', helmDialect).error?.message, 'unexpected EOF');
  });
});
