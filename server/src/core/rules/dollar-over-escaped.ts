import { relatedKustomizations } from './support/contexts';
import type { Rule } from './rule';

/**
 * DOLLAR-OVER-ESCAPED: an even run of four or more `$` before `{`.
 *
 * `$${VAR}` already keeps `${VAR}` literal. `$$$${VAR}` arrives as `$${VAR}`: the braces are
 * never substituted and the extra dollars reach the cluster, which is rarely what the author
 * meant (a tool downstream then sees `$$`).
 */
export const dollarOverEscaped: Rule = {
  id: 'DOLLAR-OVER-ESCAPED',
  severity: 'warning',
  summary: 'An even run of four or more `$` before `{`: extra dollars, the brace is never substituted.',
  docs: `# DOLLAR-OVER-ESCAPED

## What it does
Flags a run of an even number (four or more) of \`$\` directly before \`{\`.

## Why is this bad?
One escape is enough: \`$\${VAR}\` arrives as \`\${VAR}\`, for the shell or the application to
expand. \`$$$\${VAR}\` arrives as \`$\${VAR}\`, which a shell reads as its PID followed by
\`{VAR}\`, and a template engine as an escaped brace. The expression is never substituted by
Flux either way.

## Example
\`\`\`yaml
args:
  - echo "$$$\${HOME}"   # arrives as: echo "$\${HOME}"
\`\`\`

## Fix
Use two dollars: \`$\${HOME}\` arrives as \`\${HOME}\`. If the output really needs \`$\${…}\` (it
goes through another envsubst), suppress the finding with a reason.
`,
  *check(context) {
    for (const { site, scan, document } of context.substitutedScalars()) {
      // The runs are packed (DollarRuns): read by index.
      const { runs } = scan;
      for (let i = 0; i < runs.length; i++) {
        const count = runs.count(i);
        if (count < 4 || count % 2 !== 0 || runs.next(i) !== 'brace') continue;
        const range = site.rangeOf(runs.start(i), runs.end(i));
        const arrives = '$'.repeat(count / 2);
        yield {
          range,
          message: `\`${'$'.repeat(count)}{\` arrives as \`${arrives}{\`: the expression is escaped more than once. \`$\${\` is enough to keep \`\${\` literal.`,
          related: relatedKustomizations(document.substitution.active),
          fixes: [{ title: 'Escape once: `$${` arrives as `${`', edits: [{ range: { start: range.start, end: range.end - 2 }, newText: '' }], preferred: true }],
        };
      }
    }
  },
};
