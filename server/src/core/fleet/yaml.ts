/**
 * Reading fleet.yaml nodes the way Fleet's decoder sees them: keys matched like
 * encoding/json does (exact, then ignoring case), scalars typed like go-yaml v2.
 */
import { isMap, isScalar, isSeq, type Node, type Pair, type Scalar, type YAMLMap } from 'yaml';
import type { Range } from '../model';
import type { DocumentView } from '../model/documents';
import type { ScalarSite } from '../yaml/scalar-sites';
import { TAG_STR, resolvePlainV2 } from '../goyaml/v2/resolve';
import { GoFloat, GoInt, type GoValue } from '../goyaml/v2/value';

export type FleetPair = Pair<Node, Node | null>;

/** The scalars of a document by node, for exact ranges of decoded text. */
export type SiteIndex = ReadonlyMap<Scalar, ScalarSite>;

export function siteIndex(view: DocumentView): SiteIndex {
  const out = new Map<Scalar, ScalarSite>();
  for (const site of view.allSites()) out.set(site.node, site);
  return out;
}

/**
 * The entry for `name`: encoding/json takes an exact match, else a case-insensitive one.
 * A Kubernetes object (HelmOp) passes `fold: false`: the API server's schema is exact.
 */
export function fieldPair(node: unknown, name: string, fold = true): FleetPair | undefined {
  if (!isMap(node)) return undefined;
  const pairs = (node as YAMLMap).items as FleetPair[];
  const keyOf = (p: FleetPair) => (isScalar(p.key) ? String(p.key.value) : undefined);
  return pairs.find((p) => keyOf(p) === name) ?? (fold ? pairs.find((p) => keyOf(p)?.toLowerCase() === name.toLowerCase()) : undefined);
}

export function fieldValue(node: unknown, name: string, fold = true): Node | undefined {
  return fieldPair(node, name, fold)?.value ?? undefined;
}

export function seqNodes(node: unknown): Node[] {
  return isSeq(node) ? (node.items as Node[]) : [];
}

/** A scalar as Go decodes it: its JSON kind, its Go value and its decoded text. */
export interface GoScalar {
  kind: 'null' | 'bool' | 'number' | 'string';
  value: GoValue;
  /** The decoded text (for plain scalars, what go-yaml typed). */
  text: string;
  site: ScalarSite | undefined;
}

export function goScalar(node: Node | null | undefined, sites: SiteIndex): GoScalar | undefined {
  if (node === null || node === undefined) return { kind: 'null', value: null, text: '', site: undefined };
  if (!isScalar(node)) return undefined;
  const site = sites.get(node);
  const text = site?.value ?? (node.value === null || node.value === undefined ? '' : String(node.value));
  const plain = (site?.style ?? node.type ?? 'PLAIN') === 'PLAIN' && node.tag !== TAG_STR && node.tag !== '!!str';
  const value: GoValue = plain ? resolvePlainV2(text) : text;
  return { kind: jsonKind(value), value, text, site };
}

export function jsonKind(value: GoValue): GoScalar['kind'] {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return 'bool';
  if (value instanceof GoInt || value instanceof GoFloat) return 'number';
  return 'string';
}

/** The string Fleet reads from a string field; null decodes to "" and other kinds to undefined. */
export function goString(node: Node | null | undefined, sites: SiteIndex): string | undefined {
  const scalar = goScalar(node, sites);
  if (scalar?.kind === 'null') return '';
  return scalar?.kind === 'string' ? (scalar.value as string) : undefined;
}

export function nodeRange(node: Node | null | undefined): Range | undefined {
  return node?.range ? { start: node.range[0], end: node.range[1] } : undefined;
}

/** The first line of a node: where to point at a map item that lacks a key. */
export function firstLineRange(text: string, node: Node): Range {
  const range = nodeRange(node) ?? { start: 0, end: 0 };
  const newline = text.indexOf('\n', range.start);
  const end = newline === -1 || newline > range.end ? range.end : newline;
  return { start: range.start, end: Math.max(range.start, text.slice(range.start, end).trimEnd().length + range.start) };
}

/**
 * `value` written in the style of the scalar it replaces: plain stays plain (the caller
 * guarantees it is a safe plain scalar), quoted stays quoted. Undefined for block scalars
 * and multi-line plain scalars, where a one-line edit could change the structure.
 */
export function rewriteScalar(site: ScalarSite, value: string, source: string): string | undefined {
  const raw = source.slice(site.range.start, site.range.end);
  switch (site.style) {
    case 'PLAIN':
      return raw.includes('\n') ? undefined : value;
    case 'QUOTE_DOUBLE':
      return JSON.stringify(value);
    case 'QUOTE_SINGLE':
      return `'${value.replace(/'/g, "''")}'`;
    default:
      return undefined;
  }
}
