import { isScalar } from 'yaml';
import { comparePatchEntries } from '../fleet/compare-patches';
import { fleetDocuments } from '../fleet/options';
import { goRegexpError, goRegexpHint } from '../fleet/regexp';
import { firstLineRange, nodeRange } from '../fleet/yaml';
import type { Range } from '../model';
import type { ScalarSite } from '../yaml/scalar-sites';
import type { Rule } from './rule';

/**
 * FLEET-PATCH-NAME: a comparePatches `name` that does not compile as a Go (RE2) regular
 * expression.
 *
 * The agent matches a patch by exact name first and then as a Go regexp; a name Go cannot
 * compile is dropped with a log line. It is compiled here with re2js, a port of Go's
 * regexp/syntax, never with JavaScript's RegExp, which accepts lookbehind and backreferences.
 */
export const fleetPatchName: Rule = {
  id: 'FLEET-PATCH-NAME',
  severity: 'error',
  summary: 'A Fleet comparePatches `name` that is not a valid Go (RE2) regular expression.',
  docs: `# FLEET-PATCH-NAME

## What it does
Compiles every \`diff.comparePatches[].name\` in fleet.yaml (top level, \`targets[i]\`,
\`targetCustomizations[i]\`) and in HelmOp resources the way Go's \`regexp.Compile\` does, and
reports Go's error at the part of the name it points to. An empty name (match every name)
is fine.

## Why is this bad?
Fleet matches a patch to a resource by exact name first and then as an unanchored Go regular
expression. Go uses RE2 syntax: no lookbehind (\`(?<=…)\`, \`(?<!…)\`), no lookahead, no
backreferences (\`\\1\`), no atomic groups or possessive quantifiers — all of which JavaScript,
PCRE and most online regex testers accept. A name Go cannot compile is dead config: the agent
drops the patch and only logs it, so the drift keeps showing. Fleet versions with
comparePatches validation reject the fleet.yaml (\`diff.comparePatches[0].name: invalid
regular expression …\`).

## Example
\`\`\`yaml
diff:
  comparePatches:
    - kind: Deployment
      name: (?<!canary-)web.*
      operations:
        - {"op": "remove", "path": "/spec/replicas"}
\`\`\`

## Fix
Rewrite the pattern in RE2 syntax (list the names, or match a prefix: \`^web-(api|worker)$\`),
or use the exact resource name.
`,
  *check(context) {
    for (const doc of fleetDocuments(context.file, context.documents())) {
      for (const entry of comparePatchEntries(doc)) {
        const { name } = entry;
        if (!name.value) continue;
        const error = goRegexpError(name.value);
        if (!error) continue;
        const site = isScalar(name.node) ? doc.sites.get(name.node) : undefined;
        const range = (site && fragmentRange(site, error.fragment)) ?? nodeRange(name.node) ?? firstLineRange(context.text, name.owner);
        const hint = goRegexpHint(name.value);
        yield { range, message: `${name.where}: invalid regular expression ${JSON.stringify(name.value)}: ${error.message}${hint ? `. ${hint}` : ''}.` };
      }
    }
  },
};

/** The part of the name Go's error quotes, when it occurs exactly once. */
function fragmentRange(site: ScalarSite, fragment: string | undefined): Range | undefined {
  if (!fragment) return undefined;
  const at = site.value.indexOf(fragment);
  if (at < 0 || site.value.indexOf(fragment, at + 1) >= 0) return undefined;
  return site.rangeOf(at, at + fragment.length);
}
