import { relatedKustomizations } from './contexts';
import type { Rule } from './rule';
import { describeOutcomes, outcomesOf } from './variable-outcomes';

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
Define the variable, correct its name, or keep the default on purpose and suppress the
finding with a reason (\`# render-lens-disable SILENT-DEFAULT -- one replica outside prod\`).
`,
  *check(context) {
    const scalars = context.substitutedScalars();
    for (let at = 0; at < scalars.length; at++) {
      const { site, scan, document } = scalars[at];
      // Indexed (see SubstitutedScalar.scan).
      for (let i = 0; i < scan.expansions.length; i++) {
        const expansion = scan.expansions[i];
        const all = outcomesOf(expansion, document.substitution.active);
        if (all.length === 0) continue;
        const outcomes = all.filter((o) => o.kind === 'default');
        if (outcomes.length === 0 || !expansion.node) continue;
        const node = expansion.node;
        yield {
          range: site.rangeOf(node.nameStart, node.nameEnd),
          message: `\`${node.name}\` is not defined, so the default applies: ${describeOutcomes(outcomes)}.`,
          related: relatedKustomizations(outcomes.map((o) => o.active)),
        };
      }
    }
  },
};
