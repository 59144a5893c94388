/** Small, total accessors over `yaml` nodes: missing or mistyped parts give undefined. */
import { isAlias, isMap, isScalar, isSeq, type Node, type Pair, type Scalar, type YAMLMap } from 'yaml';
import type { Range } from '../model';

export function asMap(node: unknown): YAMLMap | undefined {
  return isMap(node) ? node : undefined;
}

export function mapPair(node: unknown, key: string): Pair<Node, Node | null> | undefined {
  const map = asMap(node);
  if (!map) return undefined;
  for (const pair of map.items) if (isScalar(pair.key) && String(pair.key.value) === key) return pair as Pair<Node, Node | null>;
  return undefined;
}

export function mapGet(node: unknown, ...keys: string[]): Node | undefined {
  let current: unknown = node;
  for (const key of keys) {
    current = mapPair(current, key)?.value ?? undefined;
    if (current === undefined) return undefined;
  }
  return current as Node;
}

export function asScalar(node: unknown): Scalar | undefined {
  return isScalar(node) ? node : undefined;
}

/** A scalar's value as text (numbers and bools as written), or undefined. */
export function scalarText(node: unknown): string | undefined {
  const scalar = asScalar(node);
  if (!scalar || scalar.value === null || scalar.value === undefined) return undefined;
  if (typeof scalar.value === 'string') return scalar.value;
  return scalar.source ?? String(scalar.value);
}

export function seqItems(node: unknown): Node[] {
  return isSeq(node) ? (node.items as Node[]) : [];
}

/** The entries of a map whose keys are scalars, in source order. */
export function mapEntries(node: unknown): Array<{ key: string; keyNode: Scalar; value: Node | null }> {
  const map = asMap(node);
  if (!map) return [];
  const out: Array<{ key: string; keyNode: Scalar; value: Node | null }> = [];
  for (const pair of map.items) if (isScalar(pair.key)) out.push({ key: String(pair.key.value), keyNode: pair.key, value: (pair.value as Node | null) ?? null });
  return out;
}

/** A string→string map (labels, annotations, ConfigMap data), scalar values only. */
export function stringMap(node: unknown): Map<string, string> {
  return addStringEntries(node, undefined) ?? new Map();
}

/**
 * Adds the string entries of `node` (a YAML map; anything else adds none) to `into`, made on
 * the first entry: read straight from the pairs, no list of entries between.
 */
function addStringEntries(node: unknown, into: Map<string, string> | undefined): Map<string, string> | undefined {
  const map = asMap(node);
  if (!map) return into;
  for (let i = 0; i < map.items.length; i++) {
    const { key, value } = map.items[i];
    if (!isScalar(key)) continue;
    const text = scalarText((value as Node | null) ?? null);
    if (text !== undefined) (into ??= new Map()).set(String(key.value), text);
  }
  return into;
}

export function rangeOf(node: Node | null | undefined): Range | undefined {
  return node?.range ? { start: node.range[0], end: node.range[1] } : undefined;
}

/** Most objects and kustomization files set no labels or annotations: they share one empty map. */
const noEntries: ReadonlyMap<string, string> = new Map();

/**
 * The string entries of `maps` (YAML maps, or anything else, skipped), later maps winning.
 * Asked twice for every document of a file the graph reads: no map is made for none.
 */
export function mergedStringMap(...maps: unknown[]): ReadonlyMap<string, string> {
  let merged: Map<string, string> | undefined;
  for (let m = 0; m < maps.length; m++) merged = addStringEntries(maps[m], merged);
  return merged ?? noEntries;
}

/**
 * The node an alias stands for: the last node before it anchored with its name (YAML's rule;
 * document order is close enough for the scalars Flux objects alias). Other nodes are
 * returned as they are.
 */
export function resolveAlias(node: Node | null | undefined, root: Node | null | undefined): Node | null | undefined {
  if (!isAlias(node)) return node;
  let found: Node | undefined;
  const visit = (n: unknown): void => {
    if (found || !n || typeof n !== 'object') return;
    if ((n as Node).anchor === node.source && !isAlias(n)) {
      found = n as Node;
      return;
    }
    if (isMap(n)) for (const pair of n.items) (visit(pair.key), visit(pair.value));
    else if (isSeq(n)) for (const item of n.items) visit(item);
  };
  visit(root);
  return found ?? node;
}
