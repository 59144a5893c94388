import { Memo } from '../memo';
import { defineVariableFix } from '../fixes';
import { fieldName } from '../kube/field-types';
import { describeValue, emptiedMeaning, fitOf, leftOutMeaning } from '../kube/field-verdict';
import { fieldAt, withArticle, type FieldInfo, type WorkspaceSchema } from '../kube/schema-types';
import { scalarAfterSubstitution, staysStringCheaply, type ScalarAfter } from '../render/scalar-after';
import type { TemplateScan } from '../envsubst';
import { isSecretData } from '../render/values';
import { codeSpan } from '../markdown';
import type { ActiveContext } from '../substitution';
import { commentCuts } from './support/comment-cut';
import { contextList, relatedKustomizations } from './support/contexts';
import type { Rule, RuleContext } from './rule';
import type { RuleFix } from '../model/rule-edits';
import type { ScalarSite } from '../yaml/scalar-sites';

/**
 * TYPE-CHANGE: after substitution a field's value no longer has the type the Kubernetes
 * schema gives the field, or the YAML breaks.
 *
 * The controller re-serializes each resource without its original quoting, substitutes the
 * text, and reads it back with YAML 1.1 typing. `value: "${PORT}"` with PORT=8080 arrives as
 * the number 8080; `replicas: ${REPLICAS}` with REPLICAS empty arrives as null. Field types
 * come from the Kubernetes schema and the common GitOps CRDs (kube/schema-types.ts) and from
 * the workspace's own CustomResourceDefinitions.
 */
export const typeChange: Rule = {
  id: 'TYPE-CHANGE',
  severity: 'error',
  summary: 'After substitution a field no longer holds the type its schema gives it, or the YAML breaks.',
  docs: `# TYPE-CHANGE

## What it does
Evaluates every substituted scalar the way kustomize-controller does — serialized by
go-yaml v2, substituted as text, read back with YAML 1.1 typing — and compares what arrives
with the field's type in the Kubernetes schema (the built-in kinds, Flux, cert-manager,
external-secrets and the Prometheus operator, and every CustomResourceDefinition in the
workspace):
- a string field (\`env[].value\`, labels, annotations, \`image\`, CronJob \`schedule\`,
  HelmRelease \`spec.chart.spec.version\`, …) that arrives as a bool or a number (error);
- an integer or boolean field that arrives as a string or a float (error);
  an \`int-or-string\` field (\`targetPort\`, \`maxSurge\`) takes a string or a whole
  number; a quantity (\`cpu\`, \`memory\`) a string or any number;
- a field that arrives as \`null\`: in an optional field the API server leaves the field
  out and its default applies (warning, naming the default the schema documents); a list
  item or a map value arrives as its type's empty value (warning); in a required field it
  is an error;
- a quoted value in a free-form field (HelmRelease \`spec.values\`, a CRD field with
  \`x-kubernetes-preserve-unknown-fields\`) whose type changes (warning; an unquoted
  \`\${replicas}\` there asks for YAML typing and is left alone);
- a value whose substitution breaks the YAML (error): a value with \`: \`, \`#\`, a quote
  inside a quoted scalar, or a leading \`*\`, \`@\` or \`&\`.

A kind no schema knows is not judged, except its \`metadata\`, which every object shares.

## Why is this bad?
Quotes in git do not survive: the controller re-emits every string with its own quoting,
so \`value: "\${PORT}"\` with \`PORT: "8080"\` arrives as the number 8080 and the API server
rejects the Deployment (\`cannot unmarshal number into Go struct field EnvVar.value of type
string\`). \`port: \${PORT}\` with \`PORT: http\` arrives as a string where the API wants an
integer. An empty variable makes the field \`null\`, and a required field rejects it.
Nothing warns before apply time.

## Example
\`\`\`yaml
spec:
  replicas: \${replicas}           # replicas undefined → null: the default 1 applies
  template:
    spec:
      containers:
        - name: web
          env:
            - name: FEATURE_ENABLED
              value: "\${feature_enabled}"   # feature_enabled: "true" → the bool true
\`\`\`

## Values cut by a comment
A substituted value that holds \` #\` is cut there in any field: the controller writes
\`key: \${X}\` plain before it substitutes, so \`X=abc #def\` reads back as \`abc\`, the rest a
comment. The finding says what the cluster receives (a Secret's value is not shown).

## Fix
For a string field that turns into a bool or a number, Flux's documented workaround keeps
the value a string: define a variable \`quote: '"'\` and write
\`'\${quote}\${feature_enabled}\${quote}'\`, so the substituted text is \`"true"\`. The quick
fix does both. For a null, or a field of another type, give the variable a value of the
field's type in every cluster: quotes would keep an empty value empty.
`,
  *check(context) {
    let workspace: readonly WorkspaceSchema[] | undefined;
    for (const { site, scan, document, comment } of context.substitutedScalars()) {
      if (comment || scan.expansions.length === 0 || failsToParse(scan)) continue;
      // Any field, string-typed or not, loses what follows ` #`.
      const cuts = commentCuts(document.substitution.active, site, scan);
      if (cuts.length > 0) {
        const shown = cuts.every((c) => !c.secret && !isSecretData(document.object?.kind, site.path)) ? `: the cluster receives \`${cuts[0].received}\`` : ' (secret value not shown)';
        const quoted = !cuts[0].secret && quoteFix(site.value, site.range, context.text, cuts[0].active, context.parsedFile);
        yield {
          range: site.range,
          severity: 'error',
          message: `A substituted value holds \` #\`, and the controller writes this scalar plain before substituting, so YAML cuts it there and reads the rest as a comment (${contextList(cuts.map((c) => c.active))})${shown}.`,
          related: relatedKustomizations(cuts.map((c) => c.active)),
          fixes: quoted ? [quoted] : [],
        };
        continue;
      }
      const field = site.isKey ? keyField : fieldAt(document.object ?? {}, site.path, (workspace ??= context.workspaceSchemas()));
      if (!field) continue;
      // In free-form values, a plain `${x}` asks for YAML typing; quotes say a string was meant.
      const freeForm = field.type === 'preserve-unknown';
      if (freeForm && site.style === 'PLAIN') continue;
      // A Secret's own data is a secret value too: its text is never quoted, nor re-quoted in a fix.
      const secretField = isSecretData(document.object?.kind, site.path);
      const problems = problemsOf(document.substitution.active, site, scan, secretField, field);
      if (!problems) continue;
      const breaks = problems.some((p) => p.fit === 'breaks');
      const related = relatedKustomizations(problems.map((p) => p.active));
      const name = codeSpan(fieldName(site.path), 200);
      if (freeForm && !breaks) {
        const decides = document.object?.kind === 'HelmRelease' && site.path[1] === 'values' ? 'the chart accepts' : 'whatever reads the field accepts';
        yield { range: site.range, severity: 'warning', message: `${name} changes type after substitution: ${describe(problems)}. Check that ${decides} it.`, related, fixes: [] };
        continue;
      }
      // A null the API server takes (the field left out, or an empty list item or map value) is a warning.
      const leftOut = problems.every((p) => p.fit === 'left-out');
      const emptied = problems.every((p) => p.fit === 'emptied');
      const head = site.isKey ? `This key: ${describe(problems)}` : `${name} is ${withArticle(field.type)}, but ${describe(problems)}`;
      // Quoting is the cure only for a string that re-types; a null or a broken YAML is not about quotes.
      const retyped = field.type === 'string' && problems.some((p) => p.fit === 'mismatch' && !p.nulled);
      // Quoting keeps an empty value empty: a null is mended by defining the variable, not by quotes.
      const fixes: RuleFix[] = [];
      const quoted = retyped && !breaks && !secretField && quoteFix(site.value, site.range, context.text, problems[0].active, context.parsedFile);
      if (quoted) fixes.push(quoted);
      const refused = problems.some((p) => p.fit === 'mismatch' && p.nulled);
      const tail = leftOut
        ? `: ${leftOutMeaning(field)}`
        : emptied
          ? `: ${emptiedMeaning(field)}`
          : retyped
            ? '; quotes in the file do not survive the controller'
            : refused
              ? `: the API server rejects the ${document.object?.kind ?? 'object'}`
              : '';
      yield { range: site.range, severity: leftOut || emptied ? 'warning' : 'error', message: `${head}${tail}.`, related, fixes };
    }
  },
};

/** A key is always a string to the API; what can go wrong is the YAML breaking. */
const keyField: FieldInfo = { type: 'string', required: true, source: 'YAML' };

interface Problem {
  active: ActiveContext;
  what: string;
  fit: 'mismatch' | 'left-out' | 'emptied' | 'breaks';
  /** It becomes null. */
  nulled?: boolean;
}

/**
 * What the scalar becomes in each context where that does not fit the field, or undefined
 * when it fits everywhere (almost always).
 */
function problemsOf(active: readonly ActiveContext[], site: ScalarSite, scan: TemplateScan, secretField: boolean, field: FieldInfo): Problem[] | undefined {
  let problems: Problem[] | undefined;
  for (const context of active) {
    const change = changeOf(context, site.value, site.isKey, scan);
    if (!change) continue;
    const { after, secretVariable } = change;
    const secret = secretField || secretVariable;
    if (after.kind === 'broken') {
      (problems ??= []).push({ active: context, what: `breaks the YAML (${secret ? 'with a secret value' : after.error})`, fit: 'breaks' });
      continue;
    }
    // Free-form fields take anything; a quoted value there that stops being a string is the surprise.
    const fit = field.type === 'preserve-unknown' ? (after.type === 'string' ? 'fits' : 'mismatch') : fitOf(field, after);
    if (fit === 'fits') continue;
    const nulled = after.type === 'null';
    const refused = nulled && fit === 'mismatch' ? ', and the field is required' : '';
    (problems ??= []).push({ active: context, what: `becomes ${describeValue(after, secret)}${refused}`, fit, nulled });
  }
  return problems;
}

/** Does an expansion fail to parse? ENVSUBST-PARSE reports it, and the value never renders. */
function failsToParse(scan: TemplateScan): boolean {
  for (const expansion of scan.expansions) if (expansion.error !== undefined) return true;
  return false;
}

/** What a value becomes in a context, and whether a secret went in. */
interface Change {
  after: Exclude<ScalarAfter, { kind: 'failed' }>;
  secretVariable: boolean;
}

/**
 * Per context (documents substituted alike share their contexts) and one-line value: a
 * manifest repeats the same `${app_name}` in every document, and the answer depends only on
 * the value and the context's variables. Multi-line values are rarely repeated: not kept.
 */
const changes = new Memo<ActiveContext, Map<string, Change | null>>();

function changeOf(active: ActiveContext, value: string, isKey: boolean, scan: TemplateScan): Change | undefined {
  if (value.includes('\n')) return computeChange(active, value, isKey, scan);
  const byValue = changes.of(active, () => new Map());
  const key = isKey ? `k${value}` : `v${value}`;
  let change = byValue.get(key);
  if (change === undefined) {
    change = computeChange(active, value, isKey, scan) ?? null;
    byValue.set(key, change);
  }
  return change ?? undefined;
}

/** A multi-line block that stays a string: its text is not worth showing in a message. */
const longString: Change['after'] = { kind: 'value', type: 'string', display: '…' };

function computeChange(active: ActiveContext, value: string, isKey: boolean, scan: TemplateScan): Change | undefined {
  const lookup = (name: string) => active.variable(name)?.value;
  // A block known to stay a string, or to fail substitution (reported by other rules), is
  // answered without decoding; so is one with a value it cannot see (read as unset), so this comes first.
  const cheaply = isKey ? undefined : staysStringCheaply(value, scan, lookup, active.strict);
  if (cheaply === 'failed') return undefined;
  if (cheaply === 'string') return { after: longString, secretVariable: false };
  const names = namesOf(scan);
  const variables = names.map((name) => active.variable(name));
  // A value the repository cannot show (encrypted, external) has no knowable type.
  if (active.opaque || variables.some((v) => v !== undefined && v.value === undefined)) return undefined;
  const after = scalarAfterSubstitution(value, isKey, lookup, active.strict);
  if (after.kind === 'failed') return undefined;
  return { after, secretVariable: variables.some((v) => v?.layers[0]?.secret === true) };
}

/** The distinct names a value reads; asked once per context. */
const namesByScan = new Memo<TemplateScan, readonly string[]>();

function namesOf(scan: TemplateScan): readonly string[] {
  if (scan.expansions.length === 1) return scan.expansions[0].names;
  return namesByScan.of(scan, () => [...new Set(scan.expansions.flatMap((e) => e.names))]);
}

/**
 * What happens, and where: grouped by what, in the order first seen, each context once ("in
 * production/apps it becomes null; in staging/apps it becomes the bool `true`"). Plain arrays
 * and indexed loops: asked for every finding, from a check left to baseline code, where a Map,
 * a Set and their iterators per finding were a big open's garbage.
 */
function describe(problems: ReadonlyArray<{ active: ActiveContext; what: string }>): string {
  const whats: string[] = [];
  const labels: string[][] = [];
  for (let i = 0; i < problems.length; i++) {
    const { what, active } = problems[i];
    let at = whats.indexOf(what);
    if (at < 0) {
      at = whats.push(what) - 1;
      labels.push([]);
    }
    if (!labels[at].includes(active.label)) labels[at].push(active.label);
  }
  let text = '';
  for (let i = 0; i < whats.length; i++) text += `${i === 0 ? '' : '; '}in ${labels[i].join(', ')} it ${whats[i]}`;
  return text;
}

/**
 * Flux's documented way to keep a value a string: `${quote}…${quote}` with a variable
 * `quote` holding `"`. The scalar is rewritten single-quoted; `quote` is defined where the
 * Kustomization's variables live if it is not already.
 */
function quoteFix(value: string, range: { start: number; end: number }, text: string, active: ActiveContext, parsedFile: RuleContext['parsedFile']): RuleFix | undefined {
  if (value.includes('\n') || text.slice(range.start, range.end).includes('\n')) return undefined;
  const wrapped = `'\${quote}${value.replace(/'/g, "''")}\${quote}'`;
  const edits: RuleFix['edits'] = [{ range, newText: wrapped }];
  const existing = active.variable('quote');
  if (existing && existing.value !== '"') return undefined;
  if (!existing) {
    const define = defineQuote(active, parsedFile);
    if (!define) return undefined;
    edits.push(...define.edits);
  }
  return { title: 'Keep it a string: wrap the value in ${quote}…${quote} (quote: \'"\')', edits, preferred: true };
}

/** The edits that define `quote` are the same for every finding of a context: made once. */
const quoteDefinitions = new Memo<ActiveContext, RuleFix | undefined>();

function defineQuote(active: ActiveContext, parsedFile: RuleContext['parsedFile']): RuleFix | undefined {
  return quoteDefinitions.of(active, () => makeQuoteDefinition(active, parsedFile));
}

function makeQuoteDefinition(active: ActiveContext, parsedFile: RuleContext['parsedFile']): RuleFix | undefined {
  const fix = defineVariableFix(active, 'quote', parsedFile);
  if (!fix) return undefined;
  // The placeholder is empty; `quote` needs its one character.
  return { ...fix, edits: fix.edits.map((e) => ({ ...e, newText: e.newText.replace(/quote: ""\n$/, `quote: '"'\n`) })) };
}
