import { disableSubstitutionFix } from '../fixes';
import { contextList, relatedKustomizations } from './contexts';
import type { Rule, RuleFix } from './rule';

/**
 * DOLLAR-COLLAPSE: `$$` (or an odd run) not before `{` in a substituted resource.
 *
 * Flux's envsubst turns every `$$` into `$`, anywhere in the text. A shell `$$`, a PL/pgSQL
 * `DO $$` block or a `$$` in a password reaches the cluster as `$`. An even run of four or
 * more is taken as written on purpose (`$$$$` to get `$$`); `$${VAR}` is the documented
 * escape for `${VAR}` and is not flagged.
 */
export const dollarCollapse: Rule = {
  id: 'DOLLAR-COLLAPSE',
  severity: 'warning',
  summary: '`$$` not before `{`: Flux turns it into `$`.',
  docs: `# DOLLAR-COLLAPSE

## What it does
Flags \`$$\` (and odd runs like \`$$$\`) that are not followed by \`{\`, in resources that Flux
post-build substitution rewrites.

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
Double the run: \`$$$$\` arrives as \`$$\`. Or, when nothing in the resource needs
substitution, annotate it with \`kustomize.toolkit.fluxcd.io/substitute: disabled\` so Flux
leaves it untouched. Even runs of four or more are not flagged: they are the escaped form.
`,
  *check(context) {
    const scalars = context.substitutedScalars();
    for (let at = 0; at < scalars.length; at++) {
      const { site, scan, document } = scalars[at];
      // By index: the runs are packed (DollarRuns).
      const { runs } = scan;
      for (let i = 0; i < runs.length; i++) {
        const count = runs.count(i);
        if (count < 2 || (count % 2 === 0 && count >= 4) || runs.next(i) === 'brace') continue;
        const range = site.rangeOf(runs.start(i), runs.end(i));
        const written = '$'.repeat(count);
        const arrives = '$'.repeat(Math.ceil(count / 2));
        const fixes: RuleFix[] = [{ title: `Double the escape: \`${written}${written}\` arrives as \`${written}\``, edits: [{ range: { start: range.end, end: range.end }, newText: written }], preferred: true }];
        const object = document.object;
        if (object) {
          const disable = disableSubstitutionFix(context.text, object);
          if (disable) fixes.push(disable);
        }
        yield {
          range,
          message: `\`${written}\` arrives as \`${arrives}\`: Flux turns each \`$$\` into \`$\` (${contextList(document.substitution.active)}). Write \`${written}${written}\` to keep \`${written}\`.`,
          related: relatedKustomizations(document.substitution.active),
          fixes,
        };
      }
    }
  },
};
