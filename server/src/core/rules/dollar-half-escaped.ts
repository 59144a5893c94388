import { markReviewedFix } from './support/allow-fix';
import { relatedKustomizations } from './support/contexts';
import type { Rule } from './rule';
import type { RuleFix } from '../model/rule-edits';

/**
 * DOLLAR-HALF-ESCAPED: an odd run of three or more `$` before `{`.
 *
 * Flux's envsubst turns each `$$` into `$`; the odd `$` left over still starts a
 * substitution. So `$$${HOME}` arrives as `$` plus the value of HOME (empty, or a strict-mode
 * failure), not as the `$${HOME}` or `${HOME}` the author escaped for.
 */
export const dollarHalfEscaped: Rule = {
  id: 'DOLLAR-HALF-ESCAPED',
  severity: 'error',
  summary: 'An odd run of three or more `$` before `{`: the last `$` is live.',
  docs: `# DOLLAR-HALF-ESCAPED

## What it does
Flags a run of an odd number (three or more) of \`$\` directly before \`{\`.

## Why is this bad?
Flux's envsubst replaces every \`$$\` with \`$\`, left to right. In \`$$$\{HOME}\` the first two
dollars become one \`$\`, and the third still starts a substitution: the cluster receives
\`$\` followed by the value of \`HOME\` — empty when it is not defined, or a failed reconcile in
strict mode. The author meant to escape the expression and escaped it only half way.

## Example
\`\`\`yaml
data:
  run.sh: |
    echo "$$$\{HOME}"   # arrives as: echo "$"
\`\`\`

## Fix
Two fixes are offered. Escape once (preferred): \`$$\{HOME}\` arrives as \`\${HOME}\`, the literal
that the shell (or the next tool) expands. Or, when a literal \`$\` followed by the substituted
value is really meant (a price, \`$$$\{AMOUNT}\` for \`$12\`), keep it as a reviewed exception: the
second fix adds an \`allow:\` entry to \`.render-lens.yaml\` (when the file exists) that says so.
`,
  *check(context) {
    for (const { site, scan, document } of context.substitutedScalars()) {
      // The runs are packed (DollarRuns): read by index.
      const { runs } = scan;
      for (let i = 0; i < runs.length; i++) {
        const count = runs.count(i);
        if (count < 3 || count % 2 === 0 || runs.next(i) !== 'brace') continue;
        const range = site.rangeOf(runs.start(i), runs.end(i));
        const dollars = '$'.repeat(count);
        const fixes: RuleFix[] = [{ title: 'Escape once: `$${` arrives as `${`', edits: [{ range, newText: '$$' }], preferred: true }];
        const close = site.value.indexOf('}', runs.end(i));
        const expression = close !== -1 && close - runs.end(i) <= 80 ? site.value.slice(runs.end(i), close + 1) : '{…}';
        const kept = '$'.repeat((count - 1) / 2);
        const reviewed = markReviewedFix(
          context,
          range,
          `\`${dollars}${expression}\` arrives as \`${kept}\` followed by the value of \`$${expression}\`, which is meant`,
          `Keep \`${kept}\` before the value of \`$${expression}\`: mark as reviewed (an \`allow\` entry in .render-lens.yaml)`,
        );
        if (reviewed) fixes.push(reviewed);
        yield {
          range,
          message:
            `\`${dollars}{\` is escaped only half way: Flux turns each \`$$\` into \`$\` and the last \`$\` still ` +
            `starts a substitution, so the expression is replaced. Write \`$\${\` to keep it literal.`,
          related: relatedKustomizations(document.substitution.active),
          // Escaping once is what a shell, a template engine or a second tool downstream expects:
          // `$${` arrives as `${`. Adding a `$` instead would over-escape (DOLLAR-OVER-ESCAPED).
          fixes,
        };
      }
    }
  },
};
