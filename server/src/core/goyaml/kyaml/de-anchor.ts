/**
 * kustomize reads resources with anchors "weighed" (kyaml `RNode.DeAnchor`): every alias is
 * replaced by a copy of what it names, and merge keys (`<<: *defaults`) are folded into their
 * mapping. This happens before Flux serializes the resource, so an alias never reaches
 * envsubst as an alias. The rules reproduced here are kyaml's, which differ from go-yaml's
 * own merge handling in small ways:
 *   - explicit keys win over merged ones, and in `<<: [*a, *b]` the first map wins;
 *   - keys are matched by their text, so `1:` and `"1":` are the same field;
 *   - the first key whose text is `<<` is removed from every mapping, merge or not.
 */
import type { AliasNode, MappingEntry, MappingNode, SourceNode } from '../v3/nodes';
import { MERGE_TAG } from '../v3/resolve';

export class DeAnchorError extends Error {}

export type PlainNode = Exclude<SourceNode, AliasNode>;

/** Replaces aliases and merge keys in place, as kyaml does, and returns the new root. */
export function deAnchor(root: SourceNode): PlainNode {
  return new DeAnchorer().visit(root);
}

class DeAnchorer {
  /** Nodes whose processing is under way: an alias back into one of them is a cycle. */
  private readonly inProgress = new Set<SourceNode>();

  visit(node: SourceNode): PlainNode {
    if (node.kind === 'alias') {
      // kyaml would recurse forever on a self-containing anchor; go-yaml's decoder names it.
      if (this.inProgress.has(node.target)) throw new DeAnchorError(`yaml: anchor '${node.name}' value contains itself`);
      return copyNode(this.visit(node.target));
    }
    delete node.anchor;
    if (node.kind === 'scalar') return node;
    this.inProgress.add(node);
    if (node.kind === 'mapping') {
      const toMerge = removeMergeKey(node);
      mergeAll(node, toMerge);
      for (const entry of node.entries) {
        entry.key = this.visit(entry.key);
        entry.value = this.visit(entry.value);
      }
    } else {
      node.items = node.items.map((item) => this.visit(item));
    }
    this.inProgress.delete(node);
    return node;
  }
}

/** kyaml removeMergeTags: the maps to merge, in the order they are applied (later wins). */
function removeMergeKey(node: MappingNode): SourceNode[] {
  if (node.entries.length === 0) return [];
  let mergeValue: SourceNode | undefined;
  for (const entry of node.entries) {
    if (keyTag(entry.key) !== MERGE_TAG) continue;
    if (mergeValue) throw new DeAnchorError('duplicate merge key');
    mergeValue = entry.value;
  }
  const toMerge = mergeValue ? findMergeValues(mergeValue) : [];
  // kyaml clears the field named "<<" whether or not it was a merge key.
  const index = node.entries.findIndex((entry) => keyText(entry.key) === '<<');
  if (index >= 0) node.entries.splice(index, 1);
  return toMerge;
}

function findMergeValues(node: SourceNode): SourceNode[] {
  switch (node.kind) {
    case 'mapping':
      return [node];
    case 'alias':
      if (node.target.kind !== 'mapping') throw new DeAnchorError('invalid map merge: received alias for a non-map value');
      return [node.target];
    case 'sequence': {
      // Each item is prepended, so the first map of the list ends up applied last and wins.
      let values: SourceNode[] = [];
      for (const item of node.items) {
        if (item.kind === 'sequence') throw new DeAnchorError('invalid map merge: received a nested sequence');
        values = [...findMergeValues(item), ...values];
      }
      return values;
    }
    default:
      throw new DeAnchorError('map merge requires map or sequence of maps as the value');
  }
}

/** kyaml mergeAll: start from the mapping's own fields, then set every merged field, then its own again. */
function mergeAll(node: MappingNode, toMerge: SourceNode[]): void {
  const result: MappingEntry[] = node.entries.map((entry) => ({ key: copyNode(entry.key), value: copyNode(entry.value) }));
  for (const source of [...toMerge, node]) {
    if (source.kind !== 'mapping') continue;
    for (const entry of source.entries) setField(result, copyNode(entry.key), copyNode(entry.value));
  }
  node.entries = result;
}

/**
 * kyaml MapEntrySetter: replaces the first field with the same key text, or appends. A
 * replaced field keeps its place, so it keeps its line for go-yaml's duplicate-key message.
 */
function setField(entries: MappingEntry[], key: SourceNode, value: SourceNode): void {
  const name = keyText(key);
  const existing = entries.find((entry) => keyText(entry.key) === name);
  if (existing) {
    existing.key = { ...key, line: existing.key.line };
    existing.value = value;
  } else {
    entries.push({ key, value });
  }
}

/** go-yaml's Node.Value of a key: the scalar text, or the anchor name of an alias. */
function keyText(node: SourceNode): string {
  if (node.kind === 'scalar') return node.value;
  if (node.kind === 'alias') return node.name;
  return '';
}

function keyTag(node: SourceNode): string {
  return node.kind === 'alias' ? '' : node.tag;
}

/** kyaml Copy: a deep copy, except that aliases keep pointing at their original anchor. */
function copyNode<T extends SourceNode>(node: T): T {
  switch (node.kind) {
    case 'scalar':
      return { ...node };
    case 'mapping':
      return { ...node, entries: node.entries.map((entry) => ({ key: copyNode(entry.key), value: copyNode(entry.value) })) };
    case 'sequence':
      return { ...node, items: node.items.map((item) => copyNode(item)) };
    default:
      return { ...node };
  }
}
