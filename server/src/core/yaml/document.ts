/**
 * YAML files parsed once with positions, and the scalars of each document with their
 * decoded text mapped back to source offsets.
 */
import { Composer, Document, LineCounter, Parser, Scalar, isMap, isPair, isScalar, isSeq, type Node } from 'yaml';
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
  /** Every comment, in source order (the controller drops them; some paths do not). */
  comments: YamlComment[];
}

export function parseYamlFile(text: string): ParsedFile {
  const lineCounter = new LineCounter();
  // One pass of the parser gives both the documents and the comments (from the syntax tree).
  const tokens = [...new Parser(lineCounter.addNewLine).parse(text)];
  const composer = new Composer({ keepSourceTokens: true, prettyErrors: false, uniqueKeys: false });
  const documents = [...composer.compose(tokens, true, text.length)] as Document.Parsed[];
  const problems: YamlProblem[] = [];
  for (const doc of documents) {
    for (const e of doc.errors) problems.push({ message: e.message, range: { start: e.pos[0], end: Math.max(e.pos[1], e.pos[0]) }, severity: 'error' });
  }
  return { text, documents, lineCounter, problems, comments: collectComments(tokens) };
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

export interface YamlComment {
  /** Offset of the `#`. */
  start: number;
  end: number;
  /** The comment's text without the `#`. */
  text: string;
}

/** Collects comment tokens anywhere in the parser's syntax tree. */
function collectComments(tokens: readonly unknown[]): YamlComment[] {
  const comments: YamlComment[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const token = value as { type?: string; offset?: number; source?: string };
    if (token.type === 'comment' && typeof token.offset === 'number' && typeof token.source === 'string') {
      comments.push({ start: token.offset, end: token.offset + token.source.length, text: token.source.slice(1) });
      return;
    }
    for (const key of Object.keys(value)) if (key !== 'source') visit((value as Record<string, unknown>)[key]);
  };
  visit(tokens);
  return comments.sort((a, b) => a.start - b.start);
}
