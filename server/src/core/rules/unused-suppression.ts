import type { Rule } from './rule';

/**
 * UNUSED-SUPPRESSION: a `# render-lens-disable` comment that silences nothing.
 *
 * Suppressions are a reviewed allowlist: each needs a reason, and one that no longer
 * matches a finding (the problem was fixed, the rule id is misspelt) only hides the next
 * real problem. This rule runs after all others, and cannot itself be suppressed.
 */
export const unusedSuppression: Rule = {
  id: 'UNUSED-SUPPRESSION',
  severity: 'warning',
  summary: 'A suppression comment that suppresses nothing, names an unknown rule, or gives no reason.',
  runsLast: true,
  docs: `# UNUSED-SUPPRESSION

## What it does
Flags a \`# render-lens-disable RULE-ID -- reason\` comment that silences no finding in the node
below it, that names a rule that does not exist, or that gives no reason after \`--\` (a
suppression without a reason is not applied).

## Why is this bad?
A suppression is a reviewed exception. Once the problem it excused is fixed, or when the
rule id is misspelt, it silently waits to hide the next real problem in that node. A reason
is what lets a reviewer tell a deliberate exception from a shortcut.

## Example
\`\`\`yaml
# render-lens-disable SILENT-DEFAULT
replicas: \${replica_count:-1}
\`\`\`

## Fix
Give the reason (\`-- one replica outside production\`), correct the rule id, or delete the
comment (the quick fix does).
`,
  *check(context) {
    for (const suppression of context.suppressions()) {
      const range = { start: suppression.comment.start, end: suppression.comment.end };
      const removeLine = {
        title: 'Remove this suppression comment',
        edits: [{ range: lineRange(context.text, range.start), newText: '' }],
        preferred: true,
      };
      if (suppression.reason === undefined) {
        yield { range, message: 'This suppression gives no reason after `--`, so it is not applied. Say why the finding is acceptable here.' };
        continue;
      }
      const unknown = suppression.rules.filter((id) => !context.knownRule(id));
      if (unknown.length > 0) {
        yield { range, message: `Unknown rule ${unknown.map((id) => `\`${id}\``).join(', ')}: this suppression cannot silence anything.` };
        continue;
      }
      const unused = suppression.rules.filter((id) => !suppression.used.has(id));
      if (unused.length === suppression.rules.length) {
        yield { range, message: `Nothing to suppress: no ${unused.join(', ')} finding in the node below. Remove the comment so it cannot hide a future problem.`, fixes: [removeLine] };
      } else if (unused.length > 0) {
        yield { range, message: `${unused.join(', ')} finds nothing in the node below; only ${suppression.rules.filter((id) => suppression.used.has(id)).join(', ')} is suppressed.` };
      }
    }
  },
};

/** The whole line holding `offset`, with its line break, when the comment stands alone on it. */
function lineRange(text: string, offset: number): { start: number; end: number } {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const newline = text.indexOf('\n', offset);
  const end = newline === -1 ? text.length : newline + 1;
  return text.slice(start, offset).trim() === '' ? { start, end } : { start: offset, end: newline === -1 ? text.length : newline };
}
