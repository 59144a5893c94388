import { codeSpan } from '../markdown';
import { defineVariableFix } from '../fixes';
import { relatedKustomizations } from './support/contexts';
import type { Expansion } from '../envsubst';
import type { ScalarSite } from '../yaml/scalar-sites';
import type { Rule, RuleContext, RuleReport } from './rule';
import type { RuleFix } from '../model/rule-edits';
import { describeOutcomes, outcomesOf, type ContextOutcome } from './support/variable-outcomes';

/**
 * UNDEFINED-VAR: `${X}` where X is not defined in a render context.
 *
 * Without strict mode the controller substitutes an empty string and applies the result;
 * with strict mode (the default from Flux 2.9) the whole Kustomization fails. Which one
 * happens depends on the cluster, so the message says what happens where.
 */
export const undefinedVar: Rule = {
  id: 'UNDEFINED-VAR',
  severity: 'warning',
  summary: '`${X}` with X undefined: renders empty, or fails the Kustomization in strict mode.',
  docs: `# UNDEFINED-VAR

## What it does
Flags \`\${X}\` (and every other form that reads X, nested ones included) when X is not
defined for a Kustomization that substitutes the file: not in its \`postBuild.substitute\`,
not in any ConfigMap or Secret of its \`substituteFrom\`.

## Why is this bad?
Without strict mode, Flux substitutes an empty string and applies the result: an image tag,
a hostname or a replica count silently becomes empty. With strict mode (the default from
Flux 2.9), the Kustomization fails with \`variable not set (strict mode): "X"\` and nothing it
manages is updated. The same file can do one in staging and the other in production; the
message says which happens where. Strict mode also fails on an unset variable inside a
default word, even when the default is not used (\`\${A:-\${B}}\`).

## Example
\`\`\`yaml
image: ghcr.io/example/app:\${app_version}
\`\`\`

## When the repository does not show the cluster's Flux version
Strict mode is read from the cluster's \`gotk-components.yaml\` header (\`# Flux Version:\`) or
a \`StrictPostBuildSubstitutions\` feature gate in the repository. When neither is there, Render
Lens assumes Flux ≥ 2.9's default, strict, and says so: the message reads "fails the
Kustomization if its Flux substitutes strictly, as Flux ≥ 2.9 does by default (…), else
renders empty". The finding stays an error, since both outcomes are broken. Set \`strict\`, or
\`clusters.<name>.strict\`, in \`.render-lens.yaml\` to say which is true.

## When the repository does not show every source
A \`substituteFrom\` object that the cluster does not apply from the repository (created by
hand, by Terraform or a bootstrap script), a Secret made by an ExternalSecret from
\`dataFrom\`, or keys only a controller knows make the variable set *open*: a name no visible
layer defines may still be defined. Such a name is reported as information that names the
source that would have to supply it, never as a failing Kustomization. Declare what comes
from outside the repository in \`.render-lens.yaml\` (\`clusters.<name>.variables\` or
\`externalVariables\`) to make the set whole again.

## Fix
Define the variable for every cluster that renders the file: the quick fix adds the key to
the ConfigMap where that cluster's other variables live (then set its value), or to the
Kustomization's own \`postBuild.substitute\`. Or give the expression a default
(\`\${app_version:=1.4.2}\`).

When no cluster that renders the file defines the name, it is often text meant for the
application, not for Flux: a Grafana dashboard's \`\${DS_PROMETHEUS}\` that grafana-operator
maps to a data source, or a shell's \`\${HOME}\`. A second fix writes \`$\${DS_PROMETHEUS}\`,
which Flux turns into \`\${DS_PROMETHEUS}\` for the application to read.
`,
  *check(context) {
    for (const { site, scan, document } of context.substitutedScalars()) {
      for (const expansion of scan.expansions) {
        const all = outcomesOf(expansion, document.substitution.active);
        if (all.length === 0) continue;
        const report = undefinedReport(site, expansion, all, document.substitution.active.length, context.parsedFile);
        if (report) yield report;
      }
    }
  },
};

/**
 * The finding for an expansion that reads an undefined name somewhere, unless every such
 * context uses its default (SILENT-DEFAULT's case).
 */
function undefinedReport(site: ScalarSite, expansion: Expansion, all: readonly ContextOutcome[], contexts: number, parsedFile: RuleContext['parsedFile']): RuleReport | undefined {
  const outcomes = all.filter((o) => o.kind !== 'default');
  if (outcomes.length === 0) return undefined;
  const missing = [...new Set(outcomes.flatMap((o) => o.missing))];
  const ref = expansion.refs.find((r) => missing.includes(r.name)) ?? expansion;
  // Where a source Render Lens cannot read may define the name, defining it is no answer.
  const known = outcomes.filter((o) => o.kind !== 'unknown');
  const fixes = missing.flatMap((name) => defineEverywhere(name, known, parsedFile) ?? []);
  if (fixes.length > 0) fixes[0].preferred = true;
  // Defined by no context that renders the file: often text for the application (a Grafana
  // dashboard's ${DS_PROMETHEUS}, a shell's ${HOME}), which Flux must be told to leave.
  if (known.length === contexts) fixes.push(...escapeFix(site, expansion));
  const names = missing.map((n) => `\`${n}\``).join(', ');
  const message =
    known.length === 0
      ? `${names} ${missing.length === 1 ? 'is' : 'are'} not in any source Render Lens can read for ${[...new Set(outcomes.map((o) => o.active.label))].join(', ')}: ${outcomes[0].detail}.`
      : `${names} ${missing.length === 1 ? 'is' : 'are'} not defined: ${describeOutcomes(outcomes)}.`;
  return {
    range: site.rangeOf(ref.start, ref.end),
    severity: outcomes.some((o) => o.kind === 'fails') ? 'error' : known.length > 0 ? 'warning' : 'information',
    message,
    related: relatedKustomizations(outcomes.map((o) => o.active)),
    fixes,
  };
}

/** `$${X}` instead of `${X}`: Flux writes `${X}` and the application sees it. */
function escapeFix(site: ScalarSite, expansion: Expansion): RuleFix[] {
  // After a `$` the run is already odd: DOLLAR-HALF-ESCAPED's fix is the one that applies there.
  if (site.value[expansion.start - 1] === '$') return [];
  const expression = site.value.slice(expansion.start, expansion.end);
  const at = site.rangeOf(expansion.start, expansion.start + 1).start;
  return [{ title: `Leave ${codeSpan(expression)} for the application: write ${codeSpan('$' + expression)}, which Flux turns into ${codeSpan(expression)}`, edits: [{ range: { start: at, end: at }, newText: '$' }] }];
}

/** One fix that defines `name` for every context that lacks it (one edit per variable map). */
function defineEverywhere(name: string, outcomes: readonly ContextOutcome[], parsedFile: RuleContext['parsedFile']): RuleFix | undefined {
  const fixes = outcomes.filter((o) => o.missing.includes(name)).flatMap((o) => defineVariableFix(o.active, name, parsedFile) ?? []);
  if (fixes.length === 0) return undefined;
  const edits = [...new Map(fixes.flatMap((f) => f.edits).map((e) => [`${e.file}:${e.range.start}`, e])).values()];
  const where = [...new Set(edits.map((e) => e.file))];
  return { title: where.length === 1 ? fixes[0].title : `Define ${name} with an empty value in ${where.join(', ')}`, edits };
}
