import { chartDirOf } from '../helm/chart';
import type { FieldSlot } from '../helm/key-paths';
import { appendQuote, printfQuoted } from '../helm/quote-fixes';
import { judgeScalar, probesFor, scalarPieces, takesProbe, type ScalarFailure, type ScalarPiece } from '../helm/scalar-judge';
import { chartScope } from '../helm/chart-scope';
import { outputScope } from '../helm/output-scope';
import { analyzeTemplate } from '../helm/template-file';
import type { Candidate } from '../helm/value-sources';
import { valuesJudge, type ValuesJudge, type ValuesJudgement } from '../helm/values-judge';
import { printed, Unknown } from '../helm/values';
import { entryLine, entryName } from '../helm/values-worlds';
import { fieldName } from '../kube/field-types';
import { holdsFreeText } from '../kube/free-text-fields';
import { fieldAt, type WorkspaceSchema } from '../kube/schema-types';
import { codeSpan } from '../markdown';
import { GoMap } from '../goyaml/v2/value';
import type { Rule, RuleContext, RuleReport } from './rule';
import type { RuleFix } from '../model/rule-edits';

/**
 * HELM-UNQUOTED-STRING: a chart template prints a value bare into a field the Kubernetes
 * schema types as a string (CronJob `schedule`, `env[].value`, labels, annotations,
 * ConfigMap `data`, container `image`, `args` / `command`, …): kube/schema-types.ts.
 *
 * Helm renders text, then reads it back as YAML 1.1: the field's type is decided by the
 * value, not by the chart. The check reads every branch, so a resource behind a disabled
 * `{{ if }}` is checked too, and judges the whole plain scalar, literal text included. Fields
 * users fill with numbers (kube/free-text-fields.ts) meet any value; the other string fields
 * meet the values the chart's own values files give (helm/values-judge.ts).
 */
export const helmUnquotedString: Rule = {
  id: 'HELM-UNQUOTED-STRING',
  severity: 'error',
  target: 'helm-template',
  summary: 'A chart template renders a value bare into a field that must be a string.',
  docs: `# HELM-UNQUOTED-STRING

## What it does
In a Helm chart template, flags an action (\`{{ … }}\`) whose output makes up a plain YAML
scalar of a field that the Kubernetes schema types as a string, unless its pipeline ends in
\`quote\` or \`squote\`. The schema covers the built-in kinds, Flux, cert-manager,
external-secrets, the Prometheus operator and the workspace's own CRDs; a kind none of them
knows is not judged. How the action is judged depends on the field:

- **Fields users commonly fill with numbers or booleans** — CronJob \`spec.schedule\`,
  \`env[].value\`, \`metadata.labels\` and \`metadata.annotations\` values, ConfigMap and
  Secret \`data\`, container \`args\` and \`command\` items, selectors, taints and
  tolerations, and \`image\`, \`tag\` and \`version\` fields (\`1.10\` arrives as the float
  1.1): any value passed through bare is flagged, whatever values.yaml says, because the next
  \`--set\` decides.
- **Every other string field** (names, hosts, paths, intervals, ports' names): the scalar is
  rendered with what the chart's own values give the action — \`values.yaml\`, then each
  values file under the chart's \`ci/\` folder laid over it, as chart-testing installs them —
  and flagged only when one of them makes YAML read something other than a string there
  (\`8080\`, \`true\`, \`"1.10"\`, \`0755\`), breaks the YAML, or is a map or a list, which Go
  prints as \`map[…]\` / \`[…]\` text. The value is followed through locals
  (\`$svc := .Values.service\`), the dot of \`with\` and \`range\`, \`dict\` arguments of the
  chart's \`include\` calls, and \`default\`, \`or\` and \`dig\` chains; the message names the
  values entry and its line. A string that stays a string (\`http\`, \`ClusterIP\`, \`30s\`) is
  not flagged; the hover says that an override with a number would re-type it.

  A value **no values file sets and no default catches** is not reported in these fields (the
  hover says so): what it becomes is decided by whoever installs the chart, and a volume is
  never named \`true\` — reporting every such name, path and host of a chart repository (1,223
  on prometheus-community/helm-charts alone) buried the ones that break. An empty default
  (\`""\`, \`~\`) is not reported either: rendered bare it is null, which leaves an optional
  field out, and in a required one the missing value is the fault, not the quoting. A falsy
  value behind a condition on that same value (\`{{ if .Values.x }}name: {{ .Values.x }}\`)
  never renders and is not judged.

Enum fields (\`imagePullPolicy\`, Service \`type\`) are not flagged: none of their names
re-types, and a value outside them is rejected however it is quoted.

Every branch of the template is read, so a resource behind \`{{- if .Values.x.enabled }}\` is
checked even when the chart's defaults disable it. A scalar that mixes literal text and
actions is judged as a whole: \`schedule: {{ .Values.minute }} * * * *\` is flagged, because
a minute of \`*/5\` makes the whole line an invalid alias; \`name: app-{{ .Values.x }}\` is not.

Not flagged: \`toYaml\` / \`toJson\` (they keep the value's own type on purpose), blocks written
with \`nindent\`, named templates (\`include\`) and release or chart names, digests and
base64 (\`b64enc\`, \`sha256sum\`), and hand-quoted scalars (see HELM-HAND-QUOTED).

What the template itself decides is judged by what it prints, in any string field, not as a
value passed through: \`printf\` with constant text (\`printf ":%v" .Values.port\` is always a
string), \`ternary\` of two constants, \`tpl (quote …)\`, a local set earlier from such an
action or from \`quote\` or \`include\`, an item of a range over \`list\` or \`dict\` constants,
and \`.Chart\` fields as Chart.yaml writes them (\`appVersion: 1.10\` renders \`1.1\`, a
number: flagged). Inside a \`define\`, a field of the dot is judged by what the chart's
\`include\` calls pass there.

## Why is this bad?
Helm renders text and reads it back as YAML 1.1, so the value decides the type:
- a schedule of \`*/5 * * * *\` aborts the whole render with
  \`error converting YAML to JSON: yaml: line N: did not find expected alphabetic or numeric
  character\` — an error that names the template, not the value;
- \`true\`, \`yes\`, \`on\` arrive as bools, \`8080\` and \`0755\` as numbers, and the object is
  rejected: the API server answers \`cannot unmarshal bool into Go struct field
  EnvVar.value of type string\`, and for labels and annotations Helm itself fails with
  \`unable to build kubernetes objects from release manifest\`.

A CI test over the chart's default values only sees the values it was given; the next
\`--set\` breaks the release.

## Example
\`\`\`yaml
spec:
  schedule: {{ .Values.backup.schedule }}
  jobTemplate:
    spec:
      template:
        spec:
          containers:
            - name: backup
              env:
                - name: COMPRESS
                  value: {{ .Values.backup.compress }}   # "true" in values.yaml → the bool true
              ports:
                - name: {{ .Values.backup.portName }}    # 8080 in values.yaml → the number 8080
                  containerPort: 8080
\`\`\`

## Fix
End the pipeline in \`quote\`: \`{{ .Values.backup.schedule | quote }}\`. \`quote\` uses Go
escaping, so any value re-reads as the same string. \`toString\` is not a fix: its output is
still typed by YAML. For a scalar built from several parts, build it in one action:
\`{{ printf "%v * * * *" .Values.minute | quote }}\`.
`,
  *check(context) {
    const analysis = analyzeTemplate(context.file, context.text);
    const scope = outputScope(analysis.tree, analysis.rebound, chartScope(context));
    for (const action of analysis.tree.scan.actions) {
      const node = analysis.tree.nodes.get(action.start);
      if (node?.type === 'error' && node.limit) yield { range: { start: action.start, end: action.end }, severity: 'information', message: `Not checked: ${node.message}.` };
    }
    const seen = new Set<string>();
    let workspace: readonly WorkspaceSchema[] | undefined;
    let judge: ValuesJudge | undefined | null = null;
    for (const slot of analysis.layout.slots.values()) {
      const key = `${slot.start}:${slot.end}`;
      if (slot.isKey || slot.style !== 'plain' || seen.has(key)) continue;
      seen.add(key);
      const field = fieldAt({ kind: slot.kind }, slot.path, (workspace ??= context.workspaceSchemas()));
      if (field?.type !== 'string' || field.enumerated) continue;
      const pieces = scalarPieces(slot, analysis, scope);
      if (!pieces || !pieces.some((p) => p.kind === 'action')) continue;
      const freeText = holdsFreeText(slot.kind, slot.path);
      if (freeText || !pieces.some((p) => takesProbe(p.output))) {
        // A free-text field meets any value users pass; elsewhere only what the template itself prints is certain.
        const failure = judgeScalar(context.text, pieces, probesFor(slot));
        if (failure) yield report(context.text, slot, pieces, message(context.text, slot, pieces, failure));
        continue;
      }
      if (judge === null) {
        const dir = chartDirOf(context.file, { text: (path) => context.derived(path, 'text', (t) => t) });
        judge = dir === undefined ? undefined : valuesJudge(context, dir);
      }
      const judgement = judge?.(analysis, pieces, field);
      if (judgement?.kind === 'retypes') yield report(context.text, slot, pieces, valuesMessage(context, slot, judgement), judgement.how.kind !== 'structure');
    }
  },
};

function report(text: string, slot: FieldSlot, pieces: readonly ScalarPiece[], message: string, fixable = true): RuleReport {
  if (!fixable) return { range: { start: slot.start, end: slot.end }, message };
  const single = pieces.length === 1 ? pieces[0] : undefined;
  const fixes: RuleFix[] = [];
  if (single && single.output?.kind !== 'quoted') fixes.push({ title: 'Add `| quote`', edits: [appendQuote(single.pipeline!)], preferred: true });
  else {
    const edit = printfQuoted(text, { start: slot.start, end: slot.end }, pieces);
    if (edit) fixes.push({ title: 'Build the scalar in one action: `printf … | quote`', edits: [edit], preferred: true });
  }
  return { range: { start: slot.start, end: slot.end }, message, fixes };
}

/** The message for a value the chart's own values give: which entry, what it renders, what YAML makes of it. */
function valuesMessage(context: RuleContext, slot: FieldSlot, judgement: Extract<ValuesJudgement, { kind: 'retypes' }>): string {
  const field = fieldName(slot.path);
  const action = codeSpan(context.text.slice(judgement.target.start, judgement.target.end));
  const source = valuesSource(context, judgement.candidate);
  const how = judgement.how;
  if (how.kind === 'structure') return `${field} must be a string, but ${source} is a ${how.what}: ${action} prints Go's ${codeSpan(judgement.rendered)}, not its contents. Pass one of its fields instead.`;
  const single = pieceCount(slot) === 1;
  const rendered = codeSpan(judgement.rendered);
  const printedBy = single ? `, and ${action} prints it bare` : `, and the plain scalar ${codeSpan(context.text.slice(slot.start, slot.end))} renders ${rendered}`;
  const fix = single ? 'Add `| quote`' : 'Build it in one action ending in `| quote`';
  if (how.kind === 'invalid') return `${field} must be a string, but ${source}${printedBy}, which is not valid YAML: the render aborts with \`error converting YAML to JSON: ${how.error.replace(/^yaml: /, 'yaml: line N: ')}\`, naming the template, not the value. ${fix}.`;
  const consequence = isMetadata(slot) ? 'Helm fails with `unable to build kubernetes objects from release manifest`' : `the API server rejects the ${slot.kind ?? 'object'}`;
  return `${field} must be a string, but ${source}${printedBy}: YAML reads ${single ? rendered : 'it'} as a ${how.verdict.type}, and ${consequence}. ${fix}.`;
}

/** "`.Values.port` is `8080` (values.yaml:12)", or the template's own default. */
function valuesSource(context: RuleContext, candidate: Candidate): string {
  const value = candidate.value;
  const scalar = !(value instanceof GoMap || Array.isArray(value));
  const shown = scalar ? ` is ${codeSpan(printed(value as Exclude<typeof value, Unknown>) || '""')}` : '';
  if (!candidate.entry) return `the template's own default${shown}`;
  const line = entryLine(context, candidate.entry);
  const where = `${candidate.entry.file}${line ? `:${line}` : ''}`;
  return scalar ? `${codeSpan(entryName(candidate.entry))}${shown} (${where})` : `${codeSpan(entryName(candidate.entry))} (${where})`;
}

function pieceCount(slot: FieldSlot): number {
  return slot.parts.filter((p) => p.kind === 'action' || p.end > p.start).length;
}

function message(text: string, slot: FieldSlot, pieces: readonly ScalarPiece[], failure: ScalarFailure): string {
  const field = fieldName(slot.path);
  const source = text.slice(slot.start, slot.end);
  const schedule = failure.probe === '*/5';
  const consequence = isMetadata(slot) ? 'Helm fails with `unable to build kubernetes objects from release manifest`' : `the API server rejects the ${slot.kind ?? 'object'}`;
  if (pieces.length === 1) {
    // No value took a probe: the template alone decides what it prints.
    if (failure.target === undefined) {
      return `${field} must be a string, but ${codeSpan(source)} renders ${codeSpan(failure.rendered)}, which YAML reads as a ${verdictType(failure)}: ${consequence}. Add \`| quote\`.`;
    }
    if (schedule) return `${field} must be a string, but ${codeSpan(source)} renders bare: a schedule like \`*/5 * * * *\` aborts the render with \`error converting YAML to JSON: yaml: line N: did not find expected alphabetic or numeric character\`, an error that names the template, not the value. Add \`| quote\`.`;
    return `${field} must be a string, but ${codeSpan(source)} renders bare: values like \`true\` or \`8080\` arrive as a bool or a number and ${consequence}. Add \`| quote\`.`;
  }
  const what = failure.verdict.ok ? `which YAML reads as a ${verdictType(failure)}: ${consequence}` : `which is not valid YAML: the render aborts with \`error converting YAML to JSON: ${failure.verdict.error.replace(/^yaml: /, 'yaml: line N: ')}\`, naming the template, not the value`;
  const probe = failure.target ? ` if ${codeSpan(text.slice(failure.target.start, failure.target.end))} gives \`${failure.probe}\`,` : '';
  return `${field} must be a string, but the plain scalar ${codeSpan(source)} is typed by YAML after rendering:${probe} it becomes ${codeSpan(failure.rendered)}, ${what}. Build it in one action ending in \`| quote\`.`;
}

function verdictType(failure: ScalarFailure): string {
  return failure.verdict.ok ? failure.verdict.type : 'string';
}

function isMetadata(slot: FieldSlot): boolean {
  const n = slot.path.length;
  return n >= 3 && slot.path[n - 3] === 'metadata' && (slot.path[n - 2] === 'labels' || slot.path[n - 2] === 'annotations');
}
