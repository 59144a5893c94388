/**
 * Files no rule can report on, recognized without a full parse. A workspace check reads every
 * file, and most of a GitOps repository is Deployments, Services and Ingresses that nothing
 * substitutes into and nothing reads as a variable source: parsing each in full and running
 * every rule over it, to report nothing, was most of `render-lens check`.
 *
 * A file qualifies when its text holds nothing a rule looks for (`$`, `{{`, a suppression, a
 * Fleet marker), the caller finds nothing the definition and Flux rules read in it (no Flux
 * object, no ExternalSecret, no variable definition a cluster reads, no postBuild a patch
 * gives a Flux Kustomization), and the block-style reader takes it, which it does only
 * for text the full parser reads without error, or go-yaml reads it (a document go-yaml reads
 * has no syntax finding). The answer is the number of scalars a full check would have
 * counted. nothing-to-check.test.ts compares every fixture repository's findings and counts
 * with and without this shortcut.
 */
import { maxFileSize, notCheckedReason } from '../limits';
import { readBlockYaml } from '../yaml/block-yaml';
import { goYamlScalarCount } from '../goyaml/v2/parser';
import { countScalars } from '../yaml/scalar-sites';

/** What a rule looks for in a file's text; a file without any of these can hold no finding of one. */
const ruleMarkers = ['$', '{{', 'render-lens-disable', 'fleet.cattle.io'];

/** True when `text` holds something a rule looks for (or is not read, which a finding says): ask first, it is the cheap test. */
export function holdsRuleMarkers(text: string): boolean {
  return notCheckedReason(text) !== undefined || ruleMarkers.some((marker) => text.includes(marker));
}

/**
 * The number of scalars of `text` (which holds no rule marker) when the block-style reader
 * takes it or go-yaml reads it; undefined when only a full check can tell (a syntax error).
 */
export function scalarsOfCleanText(text: string): number | undefined {
  const roots = readBlockYaml(text);
  // Past the fast reader's subset (flow collections, anchors, …), go-yaml decides the syntax.
  return roots ? roots.reduce((n, root) => n + countScalars(root), 0) : goYamlScalarCount(text);
}

const dollarAfterHash = /#[^\n]*\$/;

/**
 * Past the markers: a file holding `$` or `{{` that no Kustomization renders (a chart's
 * values.yaml, a CRD, a test asset) gives the envsubst rules nothing, so only a syntax error
 * could be reported, and go-yaml (which the controllers and Helm read with) decides that,
 * reading events only. Still a full check for suppressions and Fleet files. The answer is the
 * number of scalars go-yaml read, or undefined when only a full check can tell.
 */
export function scalarsOfUnrenderedText(text: string): number | undefined {
  if (text.length > maxFileSize || text.includes('render-lens-disable') || text.includes('fleet.cattle.io')) return undefined;
  // A comment holding `$` is counted as a field by a full check: let one count it.
  if (dollarAfterHash.test(text)) return undefined;
  return goYamlScalarCount(text);
}
