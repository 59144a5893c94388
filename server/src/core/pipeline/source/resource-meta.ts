/**
 * What kyaml reads from a resource's metadata, by field text rather than by typed value:
 * the identity the controller names in its errors, and the substitution opt-out. kyaml
 * looks fields up by the key's text and reads a scalar's text, so `name: 0755` is "0755"
 * here even though the decoded value is the number 493.
 */
import type { PlainNode } from '../../goyaml/kyaml/de-anchor';

/** The label and annotation key, and the one value, that turn substitution off. */
export const SUBSTITUTE_KEY = 'kustomize.toolkit.fluxcd.io/substitute';
export const SUBSTITUTE_DISABLED = 'disabled';

export interface ResourceIdentity {
  /** kyaml's Gvk.String(): `Kind.version.group`, with `[noGrp]` and friends for empty parts. */
  gvk: string;
  name: string;
}

export function resourceIdentity(root: PlainNode): ResourceIdentity {
  const apiVersion = scalarText(field(root, 'apiVersion'));
  const kind = scalarText(field(root, 'kind'));
  const name = scalarText(field(field(root, 'metadata'), 'name'));
  // kyaml ParseGroupVersion: everything before the first "/" is the group.
  const slash = apiVersion.indexOf('/');
  const group = slash >= 0 ? apiVersion.slice(0, slash) : '';
  const version = slash >= 0 ? apiVersion.slice(slash + 1) : apiVersion;
  return { gvk: `${kind || '[noKind]'}.${version || '[noVer]'}.${group || '[noGrp]'}`, name };
}

/**
 * Which opt-out applies, if any: `metadata.labels` or `metadata.annotations` holding the key
 * with exactly the value "disabled". When a key repeats, kyaml keeps the last one.
 */
export function substituteOptOut(root: PlainNode): 'label' | 'annotation' | undefined {
  const metadata = field(root, 'metadata');
  if (lastScalarText(field(metadata, 'labels'), SUBSTITUTE_KEY) === SUBSTITUTE_DISABLED) return 'label';
  if (lastScalarText(field(metadata, 'annotations'), SUBSTITUTE_KEY) === SUBSTITUTE_DISABLED) return 'annotation';
  return undefined;
}

/** kyaml RNode.Field: the first entry whose key text matches. */
function field(node: PlainNode | undefined, name: string): PlainNode | undefined {
  if (node?.kind !== 'mapping') return undefined;
  const entry = node.entries.find((e) => e.key.kind === 'scalar' && e.key.value === name);
  return entry?.value as PlainNode | undefined;
}

function lastScalarText(node: PlainNode | undefined, name: string): string | undefined {
  if (node?.kind !== 'mapping') return undefined;
  let found: string | undefined;
  for (const entry of node.entries) {
    if (entry.key.kind === 'scalar' && entry.key.value === name) found = entry.value.kind === 'scalar' ? entry.value.value : undefined;
  }
  return found;
}

function scalarText(node: PlainNode | undefined): string {
  return node?.kind === 'scalar' ? node.value : '';
}
