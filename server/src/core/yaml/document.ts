/**
 * YAML files parsed once with positions, and the scalars of each document with their
 * decoded text mapped back to source offsets.
 */
import { Document, LineCounter, Scalar, isMap, isPair, isScalar, isSeq, parseAllDocuments, type Node } from 'yaml';
import type { Range } from '../model';
import { decodeScalar, type ScalarStyle, type ScalarText } from './scalar-text';

export interface YamlProblem {
  message: string;
  range: Range;
  severity: 'error' | 'warning';
}

export interface ParsedFile {
  text: string;
  documents: Document.Parsed[];
  lineCounter: LineCounter;
  problems: YamlProblem[];
}

export function parseYamlFile(text: string): ParsedFile {
  const lineCounter = new LineCounter();
  const documents = parseAllDocuments(text, { lineCounter, keepSourceTokens: true, prettyErrors: false, uniqueKeys: false });
  const list = Array.isArray(documents) ? documents : [];
  const problems: YamlProblem[] = [];
  for (const doc of list) {
    for (const e of doc.errors) problems.push({ message: e.message, range: { start: e.pos[0], end: Math.max(e.pos[1], e.pos[0]) }, severity: 'error' });
  }
  return { text, documents: list, lineCounter, problems };
}

/** Where a scalar sits: the keys and indices from the document root. */
export type NodePath = ReadonlyArray<string | number>;

export interface ScalarSite {
  node: Scalar;
  isKey: boolean;
  /** For a value, the path to it; for a key, the path of the map entry it names. */
  path: NodePath;
  style: ScalarStyle;
  /** The scalar's source range (quotes and block header included). */
  range: Range;
  /** The decoded value as a string, with source offsets per unit. */
  text: ScalarText;
}

/** Every scalar (keys and values) of a document, in source order. */
export function* scalarsOf(doc: Document.Parsed, source: string): Generator<ScalarSite> {
  if (doc.contents) yield* walk(doc.contents, source, [], false);
}

function* walk(node: Node | null | undefined, source: string, path: Array<string | number>, isKey: boolean): Generator<ScalarSite> {
  if (!node) return;
  if (isScalar(node)) {
    const site = siteOf(node, source, path, isKey);
    if (site) yield site;
    return;
  }
  if (isMap(node)) {
    for (const item of node.items) {
      if (!isPair(item)) continue;
      const key = item.key as Node | null;
      const name = isScalar(key) ? String(key.value) : '';
      yield* walk(key, source, [...path, name], true);
      yield* walk(item.value as Node | null, source, [...path, name], false);
    }
    return;
  }
  if (isSeq(node)) {
    for (let index = 0; index < node.items.length; index++) yield* walk(node.items[index] as Node, source, [...path, index], false);
  }
}

function siteOf(node: Scalar, source: string, path: NodePath, isKey: boolean): ScalarSite | undefined {
  if (!node.range) return undefined;
  const [start, end] = node.range;
  const style = (node.type ?? 'PLAIN') as ScalarStyle;
  const raw = source.slice(start, end);
  const token = node.srcToken as { indent?: number } | undefined;
  let text = decodeScalar(raw, style, start, token?.indent ?? 0);
  if (typeof node.value === 'string' && text.value !== node.value) {
    // Our decoder and the parser disagree (an edge case of folding or escapes): trust the
    // parser's value and point every unit at the whole scalar rather than at a wrong column.
    text = wholeRange(node.value, start, end);
  }
  return { node, isKey, path, style, range: { start, end }, text };
}

function wholeRange(value: string, start: number, end: number): ScalarText {
  return { value, starts: new Int32Array(value.length).fill(start), ends: new Int32Array(value.length).fill(end) };
}
