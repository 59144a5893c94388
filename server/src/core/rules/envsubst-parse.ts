import type { Rule, RuleReport } from './rule';
import { contextList, relatedKustomizations } from './support/contexts';
import { code } from './support/text';

/**
 * ENVSUBST-PARSE: an expression Flux's envsubst cannot parse.
 *
 * kustomize-controller parses the whole resource before it substitutes anything, so one
 * unparsable `${…}` fails every resource of the Kustomization: nothing is applied until it
 * is fixed. Bash forms are the usual cause: `${ARR[0]}`, `${VAR-default}`, `${!ref}`, `${}`.
 */
export const envsubstParse: Rule = {
  id: 'ENVSUBST-PARSE',
  severity: 'error',
  summary: 'An expression envsubst cannot parse: the whole Kustomization fails.',
  docs: `# ENVSUBST-PARSE

## What it does
Flags a \`\${…}\` that Flux's envsubst cannot parse, with the exact error the controller reports.

## Why is this bad?
kustomize-controller parses a resource completely before it substitutes anything. One
unparsable expression fails the reconcile of the whole Kustomization
(\`post build failed for 'ConfigMap.v1.[noGrp]/x': envsubst error: variable substitution
failed: missing closing brace\`), and nothing it manages is updated. Shell syntax is the usual
cause: \`\${ARR[0]}\`, \`\${VAR-default}\` (Flux only knows \`\${VAR:-default}\`), \`\${!ref}\`, \`\${}\`.

## Example
\`\`\`yaml
data:
  run.sh: |
    echo "\${HOSTS[0]}"
\`\`\`

## Fix
If the shell should see the expression, escape it for Flux as \`$\${HOSTS[0]}\`: Flux turns \`$$\`
into \`$\` and leaves the braces alone. If Flux should substitute it, use a form it knows
(\`\${VAR:-default}\`, \`\${VAR}\`).
`,
  *check(context) {
    for (const { site, scan, document } of context.substitutedScalars()) {
      const active = document.substitution.active;
      for (const expansion of scan.expansions) {
        if (expansion.error === undefined) continue;
        const range = site.rangeOf(expansion.start, expansion.end);
        const expression = site.value.slice(expansion.start, expansion.end);
        const report: RuleReport = {
          range,
          message: `Flux cannot parse ${code(expression)}: ${expansion.error}. Every resource of ${contextList(active)} fails to reconcile.${hint(expression)}`,
          related: relatedKustomizations(active),
          // After dollars (`$$${A[0]}`) the run is half-escaped: DOLLAR-HALF-ESCAPED's fix escapes
          // it, and a second `$` from here would undo that fix.
          fixes: site.value[expansion.start - 1] === '$' ? [] : [
            {
              title: `Escape for Flux: ${code('$' + expression)} reaches the cluster as ${code(expression)}`,
              edits: [{ range: { start: range.start, end: range.start }, newText: '$' }],
              preferred: true,
            },
          ],
        };
        yield report;
      }
    }
  },
};

/** Names the bash habit behind the most common parse errors. */
function hint(expression: string): string {
  if (/^\$\{[\p{L}\p{Nd}_]+\[/u.test(expression)) return ' Flux has no arrays; escape it if the shell should see it.';
  if (/^\$\{[\p{L}\p{Nd}_]+[-+?]/u.test(expression)) return ' Flux knows only the `:-` form of defaults (`${VAR:-default}`).';
  if (/^\$\{!/.test(expression)) return ' Flux has no indirect expansion.';
  return '';
}
