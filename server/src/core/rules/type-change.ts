import { defineVariableFix } from '../fixes';
import { fieldKind, fieldName } from '../kube/field-types';
import { scalarAfterSubstitution, staysStringCheaply, type ScalarAfter } from '../render/scalar-after';
import type { TemplateScan } from '../envsubst';
import { isSecretData } from '../render/values';
import type { ActiveContext } from '../substitution';
import { commentCuts } from './comment-cut';
import { contextList, relatedKustomizations } from './contexts';
import type { Rule, RuleContext, RuleFix } from './rule';
import type { ScalarSite } from '../yaml/scalar-sites';

/**
 * TYPE-CHANGE: after substitution a string field becomes a bool, number or null, or the
 * YAML breaks.
 *
 * The controller re-serializes each resource without its original quoting, substitutes the
 * text, and reads it back with YAML 1.1 typing. `value: "${PORT}"` with PORT=8080 arrives as
 * the number 8080; `on`, `yes`, `0755` and an empty value re-type too.
 */
export const typeChange: Rule = {
  id: 'TYPE-CHANGE',
  severity: 'error',
  summary: 'After substitution a string field becomes a bool, number or null, or the YAML breaks.',
  docs: `# TYPE-CHANGE

## What it does
Evaluates every substituted scalar the way kustomize-controller does — serialized by
go-yaml v2, substituted as text, read back with YAML 1.1 typing — and flags:
- a field that must be a string (\`env[].value\`, labels, annotations, CronJob \`schedule\`,
  ConfigMap \`data\`, Secret \`stringData\`, container \`command\`/\`args\`, \`nodeSelector\`,
  selectors, taint and toleration values) that arrives as a bool, number or null (error);
- a quoted value in a free-form field (HelmRelease \`spec.values\`) whose type changes
  (warning; an unquoted \`\${replicas}\` there asks for YAML typing and is left alone);
- a value whose substitution breaks the YAML (error): a value with \`: \`, \`#\`, a quote
  inside a quoted scalar, or a leading \`*\`, \`@\` or \`&\`.

## Why is this bad?
Quotes in git do not survive: the controller re-emits every string with its own quoting,
so \`value: "\${PORT}"\` with \`PORT: "8080"\` arrives as the number 8080 and the API server
rejects the Deployment (\`cannot unmarshal number into Go struct field EnvVar.value of type
string\`). An empty variable makes the field \`null\`. Nothing warns before apply time.

## Example
\`\`\`yaml
env:
  - name: FEATURE_ENABLED
    value: "\${feature_enabled}"   # feature_enabled: "true" → the bool true
\`\`\`

## Values cut by a comment
A substituted value that holds \` #\` is cut there in any field: the controller writes
\`key: \${X}\` plain before it substitutes, so \`X=abc #def\` reads back as \`abc\`, the rest a
comment. The finding says what the cluster receives (a Secret's value is not shown).

## Fix
Flux's documented workaround keeps the value a string: define a variable \`quote: '"'\` and
write \`'\${quote}\${feature_enabled}\${quote}'\`, so the substituted text is \`"true"\`. The quick fix
does both.
`,
  *check(context) {
    const scalars = context.substitutedScalars();
    for (let at = 0; at < scalars.length; at++) {
      const { site, scan, document, comment } = scalars[at];
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
      const kind = site.isKey ? 'string' : fieldKind(document.object?.kind, site.path);
      // In free-form values, a plain `${x}` asks for YAML typing; quotes say a string was meant.
      if (kind === 'other' || (kind === 'free-form' && site.style === 'PLAIN')) continue;
      // A Secret's own data is a secret value too: its text is never quoted, nor re-quoted in a fix.
      const secretField = isSecretData(document.object?.kind, site.path);
      const problems = problemsOf(document.substitution.active, site, scan, secretField);
      if (!problems) continue;
      const breaks = problems.some((p) => p.breaks);
      const related = relatedKustomizations(problems.map((p) => p.active));
      if (kind === 'free-form' && !breaks) {
        yield { range: site.range, severity: 'warning', message: `${fieldName(site.path)} changes type after substitution: it ${describe(problems)}. Check that the chart accepts it.`, related, fixes: [] };
        continue;
      }
      const fixes: RuleFix[] = [];
      const quoted = !breaks && !secretField && quoteFix(site.value, site.range, context.text, problems[0].active, context.parsedFile);
      if (quoted) fixes.push(quoted);
      yield { range: site.range, severity: 'error', message: `${site.isKey ? 'This key' : `${fieldName(site.path)} must be a string, but it`} ${describe(problems)}${breaks ? '' : '; quotes in the file do not survive the controller'}.`, related, fixes };
    }
  },
};

interface Problem {
  active: ActiveContext;
  what: string;
  breaks: boolean;
}

/**
 * What the scalar becomes in each context where that is not a string, or undefined when it
 * stays one everywhere (almost always). Indexed loops, no closures: asked for every substituted
 * scalar, mostly before V8 has optimized this (see SubstitutedScalar.scan).
 */
function problemsOf(active: readonly ActiveContext[], site: ScalarSite, scan: TemplateScan, secretField: boolean): Problem[] | undefined {
  let problems: Problem[] | undefined;
  for (let i = 0; i < active.length; i++) {
    const change = changeOf(active[i], site.value, site.isKey, scan);
    if (!change) continue;
    const { after, secretVariable } = change;
    const secret = secretField || secretVariable;
    if (after.kind === 'broken') (problems ??= []).push({ active: active[i], what: `breaks the YAML (${secret ? 'with a secret value' : after.error})`, breaks: true });
    else if (after.kind === 'value') (problems ??= []).push({ active: active[i], what: secret ? `becomes a ${after.type} (secret value not shown)` : `becomes the ${after.type} \`${after.display}\``, breaks: false });
  }
  return problems;
}

/** Does an expansion fail to parse? ENVSUBST-PARSE reports it, and the value never renders. */
function failsToParse(scan: TemplateScan): boolean {
  for (let i = 0; i < scan.expansions.length; i++) if (scan.expansions[i].error !== undefined) return true;
  return false;
}

/** What a value becomes in a context when that is not a string, and whether a secret went in. */
interface Change {
  after: Exclude<ScalarAfter, { kind: 'failed' }>;
  secretVariable: boolean;
}

/**
 * Per context (documents substituted alike share their contexts) and one-line value: a
 * manifest repeats the same `${app_name}` in every document, and the answer depends only on
 * the value and the context's variables. Multi-line values are rarely repeated: not kept.
 */
const changes = new WeakMap<ActiveContext, Map<string, Change | null>>();

function changeOf(active: ActiveContext, value: string, isKey: boolean, scan: TemplateScan): Change | undefined {
  if (value.includes('\n')) return computeChange(active, value, isKey, scan);
  let byValue = changes.get(active);
  if (!byValue) changes.set(active, (byValue = new Map()));
  const key = isKey ? `k${value}` : `v${value}`;
  let change = byValue.get(key);
  if (change === undefined) {
    change = computeChange(active, value, isKey, scan) ?? null;
    byValue.set(key, change);
  }
  return change ?? undefined;
}

function computeChange(active: ActiveContext, value: string, isKey: boolean, scan: TemplateScan): Change | undefined {
  const lookup = (name: string) => active.variable(name)?.value;
  // A block known to stay a string, or to fail substitution (reported by other rules), has no
  // type change; nor does it with a value it cannot see (read as unset), so this comes first.
  if (!isKey && staysStringCheaply(value, scan, lookup, active.strict) !== undefined) return undefined;
  const names = namesOf(scan);
  const variables = names.map((name) => active.variable(name));
  // A value the repository cannot show (encrypted, external) has no knowable type.
  if (active.opaque || variables.some((v) => v !== undefined && v.value === undefined)) return undefined;
  const after = scalarAfterSubstitution(value, isKey, lookup, active.strict);
  if (after.kind === 'failed' || (after.kind === 'value' && after.type === 'string')) return undefined;
  return { after, secretVariable: variables.some((v) => v?.layers[0]?.secret === true) };
}

/** The distinct names a value reads; asked once per context. */
const namesByScan = new WeakMap<TemplateScan, readonly string[]>();

function namesOf(scan: TemplateScan): readonly string[] {
  if (scan.expansions.length === 1) return scan.expansions[0].names;
  let names = namesByScan.get(scan);
  if (!names) namesByScan.set(scan, (names = [...new Set(scan.expansions.flatMap((e) => e.names))]));
  return names;
}

/**
 * What happens, and where: grouped by what, in the order first seen, each context once. Plain
 * arrays and indexed loops: asked for every finding, from a check left to baseline code, where
 * a Map, a Set and their iterators per finding were a big open's garbage.
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
  for (let i = 0; i < whats.length; i++) text += `${i === 0 ? '' : '; '}${whats[i]} in ${labels[i].join(', ')}`;
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
const quoteDefinitions = new WeakMap<ActiveContext, RuleFix | null>();

function defineQuote(active: ActiveContext, parsedFile: RuleContext['parsedFile']): RuleFix | undefined {
  let known = quoteDefinitions.get(active);
  if (known === undefined) quoteDefinitions.set(active, (known = makeQuoteDefinition(active, parsedFile) ?? null));
  return known ?? undefined;
}

function makeQuoteDefinition(active: ActiveContext, parsedFile: RuleContext['parsedFile']): RuleFix | undefined {
  const fix = defineVariableFix(active, 'quote', parsedFile);
  if (!fix) return undefined;
  // The placeholder is empty; `quote` needs its one character.
  return { ...fix, edits: fix.edits.map((e) => ({ ...e, newText: e.newText.replace(/quote: ""\n$/, `quote: '"'\n`) })) };
}
