import { configFile } from '../config';
import { allowEntryProblem } from './support/allow-entries';
import type { Rule, RuleContext, RuleReport } from './rule';

/**
 * UNUSED-SUPPRESSION: a reviewed exception that excuses nothing, or excuses without a reason.
 *
 * Suppressions are a reviewed allowlist: each covers one occurrence and needs a reason, and
 * one that no longer matches a finding (the problem was fixed, the rule id is misspelt) only
 * hides the next real problem. The same holds for the `allow:` entries of `.render-lens.yaml`.
 * This rule runs after all others, and cannot itself be suppressed.
 */
export const unusedSuppression: Rule = {
  id: 'UNUSED-SUPPRESSION',
  severity: 'warning',
  summary: 'A suppression comment or `allow:` entry that excuses nothing, names an unknown rule, or gives no real reason.',
  runsLast: true,
  docs: `# UNUSED-SUPPRESSION

## What it does
Flags a \`# render-lens-disable RULE-ID -- reason\` comment that silences no finding on the
line it covers, that names a rule that does not exist, or whose reason is missing or shorter
than 40 characters (\`reasonMinLength\` in \`.render-lens.yaml\` changes the minimum); such a
suppression is not applied. Also flags, at its line in \`.render-lens.yaml\`, an \`allow:\`
entry whose reason is too short, whose \`context\` is shorter than 24 characters or holds no
dollar run, whose \`path\` has a wildcard, or that is stale: the file is gone, the context is
no longer in it, or it only covers an ordinary \`$\${\` that needs no excuse.

## The contract
A suppression comment covers **one line**: the line it stands above (blank and comment lines
between are skipped), or its own line when it trails code. A second \`$$\` further down the
same block scalar is a new occurrence and is reported. Inside a block scalar, where a \`#\` is
text and no comment can go, excuse a run with an \`allow:\` entry instead:

\`\`\`yaml
# .render-lens.yaml
allow:
  - path: apps/db/migrations.yaml          # relative to the repository root, no wildcards
    context: "DO $$ BEGIN PERFORM 1; END $$;"   # verbatim, at least 24 characters, holds the run
    reason: "the loader re-doubles every dollar before it runs this block, so DO $ is expected"
\`\`\`

An entry excuses DOLLAR-COLLAPSE, DOLLAR-HALF-ESCAPED and DOLLAR-OVER-ESCAPED findings that lie
inside a place where the file's text holds the context verbatim, and nothing else: another
\`DO $$\` elsewhere in the same file is still reported.

## Why is this bad?
A suppression is a reviewed exception. Once the problem it excused is fixed, or when the
rule id is misspelt, it silently waits to hide the next real problem. A reason is what lets
a reviewer tell a deliberate exception from a shortcut: it should say what will be emitted
and why that is fine, which does not fit in a few characters.

## Example
\`\`\`yaml
# render-lens-disable SILENT-DEFAULT -- ok
replicas: \${replica_count:-1}
\`\`\`

## Fix
Give the reason (\`-- one replica unless a cluster sets replica_count, by design\`), correct
the rule id, or delete the comment or the stale entry (the quick fix does).
`,
  *check(context) {
    if (context.file === configFile) {
      yield* allowListProblems(context);
      return;
    }
    const minimum = context.policy().reasonMinLength;
    for (const suppression of context.suppressions()) {
      const range = { start: suppression.comment.start, end: suppression.comment.end };
      const removeLine = {
        title: 'Remove this suppression comment',
        edits: [{ range: lineRange(context.text, range.start), newText: '' }],
        preferred: true,
      };
      if (suppression.reason === undefined) {
        yield { range, message: 'This suppression gives no reason after `--`, so it is not applied. Say what will be emitted and why that is fine here.' };
        continue;
      }
      if (!suppression.reasoned) {
        yield {
          range,
          message: `This suppression's reason is ${suppression.reason.length} characters, under the ${minimum} a reviewed exception needs, so it is not applied. Say what will be emitted and why that is fine here.`,
        };
        continue;
      }
      const unknown = suppression.rules.filter((id) => !context.knownRule(id));
      if (unknown.length > 0) {
        yield { range, message: `Unknown rule ${unknown.map((id) => `\`${id}\``).join(', ')}: this suppression cannot silence anything.` };
        continue;
      }
      const unused = suppression.rules.filter((id) => !suppression.used.has(id));
      if (unused.length === suppression.rules.length) {
        yield { range, message: `Nothing to suppress: no ${unused.join(', ')} finding on the line this comment covers. Remove the comment so it cannot hide a future problem.`, fixes: [removeLine] };
      } else if (unused.length > 0) {
        yield { range, message: `${unused.join(', ')} finds nothing on the line this comment covers; only ${suppression.rules.filter((id) => suppression.used.has(id)).join(', ')} is suppressed.` };
      }
    }
  },
};

/** The problems of `.render-lens.yaml`'s `allow:` part, each at its entry's first line. */
function* allowListProblems(context: RuleContext): Iterable<RuleReport> {
  const policy = context.policy();
  for (const problem of policy.problems) yield { range: problem.range, message: problem.message };
  for (const entry of policy.allow) {
    const problem = allowEntryProblem(context, entry, policy.reasonMinLength);
    if (!problem) continue;
    const remove = { title: 'Remove this allow entry', edits: [{ range: itemLines(context.text, entry.range), newText: '' }], preferred: true };
    yield { range: entry.head, message: problem.message, ...(problem.stale ? { fixes: [remove] } : {}) };
  }
}

/** The lines a sequence item spans, from the start of its first to the end of its last. */
function itemLines(text: string, range: { start: number; end: number }): { start: number; end: number } {
  const start = text.lastIndexOf('\n', range.start - 1) + 1;
  const last = text.slice(range.start, range.end).replace(/\s+$/, '').length + range.start;
  const newline = text.indexOf('\n', last);
  return { start, end: newline === -1 ? text.length : newline + 1 };
}

/** The whole line holding `offset`, with its line break, when the comment stands alone on it. */
function lineRange(text: string, offset: number): { start: number; end: number } {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const newline = text.indexOf('\n', offset);
  const end = newline === -1 ? text.length : newline + 1;
  return text.slice(start, offset).trim() === '' ? { start, end } : { start: offset, end: newline === -1 ? text.length : newline };
}
