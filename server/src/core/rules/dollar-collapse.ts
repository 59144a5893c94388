import { disableSubstitutionFix } from '../fixes';
import type { DollarRuns } from '../envsubst';
import { markReviewedFix } from './support/allow-fix';
import { contextList, relatedKustomizations } from './support/contexts';
import type { Rule } from './rule';
import type { RuleFix } from '../model/rule-edits';

/**
 * DOLLAR-COLLAPSE: `$$` (or an odd run) not before `{` in a substituted resource.
 *
 * Flux's envsubst turns every `$$` into `$`, anywhere in the text. A shell `$$`, a PL/pgSQL
 * `DO $$` block or a `$$` in a password reaches the cluster as `$`. Every collapsed run is
 * remarked; how loudly depends on whether it reads as an escape. A `$$` before a name, `(`
 * or `{` in a value where every `$` is doubled is an author escaping for Flux (`$$HOME`
 * arrives as `$HOME`): information, with "mark as reviewed" as its fix, since doubling it
 * again would break the script. Anything else (a PID, `DO $$`, an odd run, a value that also
 * holds a single `$`) is a warning. `strictDollars` in `.render-lens.yaml` makes every run a
 * warning. An even run of four or more is taken as written on purpose (`$$$$` to get `$$`);
 * `$${VAR}` is the documented escape for `${VAR}` and is not flagged.
 */
export const dollarCollapse: Rule = {
  id: 'DOLLAR-COLLAPSE',
  severity: 'warning',
  summary: '`$$` not before `{`: Flux turns it into `$`.',
  docs: `# DOLLAR-COLLAPSE

## What it does
Flags \`$$\` (and odd runs like \`$$$\`) that are not followed by \`{\`, in resources that Flux
post-build substitution rewrites.

## The contract
Every collapsed run is remarked; the severity says whether it reads as a mistake:
- **warning**: a \`$$\` before a space, \`;\`, a quote, a digit or the end (a PID, a PL/pgSQL
  \`DO $$\`), any odd run (\`$$$\`), and any \`$$\` in a value that also holds a single \`$\`
  (the author did not escape consistently).
- **information**: a \`$$\` before a name or \`(\` (\`$$HOME\`, \`$$(date)\`) in a value where every
  \`$\` is written \`$$\` — an author escaping a script for Flux. The message says what arrives
  (\`$HOME\`); the fix marks it as reviewed instead of doubling it, which would break the script.

\`strictDollars: true\` in \`.render-lens.yaml\` makes every run a warning. A run inside a block
scalar can be excused with an \`allow:\` entry of \`.render-lens.yaml\` (see UNUSED-SUPPRESSION).

## Why is this bad?
Flux's envsubst replaces every \`$$\` with \`$\`, wherever it appears — not only before \`{\`.
A PL/pgSQL \`DO $$ … $$;\` block arrives as \`DO $ … $;\` and the migration fails; a shell
\`echo $$\` prints \`$\`; a password with \`$$\` loses a character. \`flux build\` and
\`--strict\` do not warn about it.

## Example
\`\`\`yaml
data:
  001-audit.sql: |
    DO $$
    BEGIN
      CREATE ROLE audit;
    END
    $$;
\`\`\`

## Fix
For a warning, double the run: \`$$$$\` arrives as \`$$\`. Or, when nothing in the resource needs
substitution, annotate it with \`kustomize.toolkit.fluxcd.io/substitute: disabled\` so Flux
leaves it untouched. Even runs of four or more are not flagged: they are the escaped form. For an escaped
\`$$HOME\`, mark it as reviewed: the fix adds an \`allow:\` entry to \`.render-lens.yaml\` (when
the file exists) whose reason says what arrives.
`,
  *check(context) {
    const strict = context.policy().strictDollars;
    for (const { site, scan, document } of context.substitutedScalars()) {
      // The runs are packed (DollarRuns): read by index.
      const { runs } = scan;
      let consistent: boolean | undefined;
      for (let i = 0; i < runs.length; i++) {
        const count = runs.count(i);
        if (count < 2 || (count % 2 === 0 && count >= 4) || runs.next(i) === 'brace') continue;
        const range = site.rangeOf(runs.start(i), runs.end(i));
        const written = '$'.repeat(count);
        const arrives = '$'.repeat(Math.ceil(count / 2));
        const contexts = contextList(document.substitution.active);
        const related = relatedKustomizations(document.substitution.active);
        escapedName.lastIndex = runs.end(i);
        const follower = escapedName.exec(site.value);
        if (!strict && count === 2 && follower && (consistent ??= everyDollarDoubled(runs))) {
          const shown = follower[0] === '(' ? '$(' : `$${follower[0]}`;
          const reviewed = markReviewedFix(context, range, `\`$${shown}\` arrives as \`${shown}\`: every \`$\` of this value is doubled, escaped for Flux on purpose`);
          yield {
            range,
            severity: 'information',
            message: `\`$${shown}\` arrives as \`${shown}\` (${contexts}): every \`$\` of this value is written \`$$\`, which reads as escaping for Flux. Mark it as reviewed if that is the intent.`,
            related,
            ...(reviewed ? { fixes: [{ ...reviewed, preferred: true }] } : {}),
          };
          continue;
        }
        const fixes: RuleFix[] = [{ title: `Double the escape: \`${written}${written}\` arrives as \`${written}\``, edits: [{ range: { start: range.end, end: range.end }, newText: written }], preferred: true }];
        const object = document.object;
        if (object) {
          const disable = disableSubstitutionFix(context.text, object);
          if (disable) fixes.push(disable);
        }
        yield {
          range,
          message: `\`${written}\` arrives as \`${arrives}\`: Flux turns each \`$$\` into \`$\` (${contexts}). Write \`${written}${written}\` to keep \`${written}\`.`,
          related,
          fixes,
        };
      }
    }
  },
};

/** What follows a `$$` that escapes for a shell: a name or `(`. Sticky: read in place, not from a copy of the rest. */
const escapedName = /[A-Za-z_][A-Za-z0-9_]*|\(/y;

/** No single `$` is left in the value: every run is even, or a lone `$` that starts `${…}`. */
function everyDollarDoubled(runs: DollarRuns): boolean {
  for (let i = 0; i < runs.length; i++) {
    const count = runs.count(i);
    if (count % 2 === 1 && !(count === 1 && runs.next(i) === 'brace')) return false;
  }
  return true;
}
