import { defineVariableFix } from '../fixes';
import { relatedKustomizations } from './support/contexts';
import { closestName } from './support/near-names';
import type { Rule } from './rule';
import type { RuleFix } from '../model/rule-edits';
import { describeOutcomes, outcomesOf } from './support/variable-outcomes';

/**
 * SILENT-DEFAULT: `${X:-default}` (or `:=`, `=`, `:?`, `:+`) where X is not defined.
 *
 * The default is baked in when the controller reconciles; nothing says a cluster is
 * running on it. Often it is meant (a default for most clusters), often a typo in the name.
 */
export const silentDefault: Rule = {
  id: 'SILENT-DEFAULT',
  severity: 'warning',
  summary: 'A default operator on an undefined variable: the default is baked in at reconcile time.',
  docs: `# SILENT-DEFAULT

## What it does
Flags a default expression — \`\${X:-d}\`, \`\${X:=d}\`, \`\${X=d}\`, \`\${X:?d}\`, \`\${X:+d}\` — whose
variable X is not defined for a Kustomization that substitutes the file.

## Why is this bad?
In Flux all five forms mean the same thing: X if it is non-empty, else the word. \`:?\` never
fails and \`:+\` is not "alternative when set", unlike in a shell. When X is undefined the
default reaches the cluster with no warning anywhere; a misspelt variable name looks exactly
like a deliberate default.

## Example
\`\`\`yaml
replicas: \${replica_count:-1}   # the cluster defines "replicas", not "replica_count"
\`\`\`

## Fix
Correct the name when it is a typo: the preferred quick fix, offered when a name every
cluster here defines is one or two edits away (\`replcas\` → \`replicas\`). Otherwise the quick
fix defines the variable as its default where each cluster's variables live, which changes
nothing the cluster receives and makes the value visible and editable there. Or keep the
default on purpose and suppress the finding with a reason of at least 40 characters
(\`# render-lens-disable SILENT-DEFAULT -- one replica unless a cluster sets replica_count\`).
`,
  *check(context) {
    for (const { site, scan, document } of context.substitutedScalars()) {
      for (const expansion of scan.expansions) {
        const all = outcomesOf(expansion, document.substitution.active);
        if (all.length === 0) continue;
        const outcomes = all.filter((o) => o.kind === 'default');
        if (outcomes.length === 0 || !expansion.node) continue;
        const node = expansion.node;
        const range = site.rangeOf(node.nameStart, node.nameEnd);
        const fixes: RuleFix[] = [];
        // A name every one of these contexts defines, a typo away: the default hides the typo.
        const defined = outcomes.map((o) => new Set(o.active.context.instance.variables.vars.keys()));
        const near = closestName(node.name, [...defined[0]].filter((name) => defined.every((names) => names.has(name))));
        if (near) fixes.push({ title: `Change \`${node.name}\` to \`${near}\`, which every cluster here defines`, edits: [{ range, newText: near }], preferred: true });
        // Defining the variable as its default keeps what the cluster receives, and says so where the variables live.
        const edits = outcomes.flatMap((o) => (o.secret ? [] : (defineVariableFix(o.active, node.name, context.parsedFile, JSON.stringify(o.detail))?.edits ?? [])));
        const unique = [...new Map(edits.map((e) => [`${e.file}:${e.range.start}`, e])).values()];
        if (unique.length > 0 && unique.length === edits.length && edits.length === outcomes.length) {
          fixes.push({ title: `Define \`${node.name}\` as its default in ${[...new Set(unique.map((e) => e.file))].join(', ')}`, edits: unique, preferred: !near });
        }
        yield {
          range,
          message: `\`${node.name}\` is not defined, so the default applies: ${describeOutcomes(outcomes)}.`,
          related: relatedKustomizations(outcomes.map((o) => o.active)),
          fixes,
        };
      }
    }
  },
};
