/**
 * A fast reader for the block-style YAML that Kubernetes manifests, kustomization files and
 * Flux objects are written in. It builds the same `yaml` nodes the full parser composes —
 * same values, types and ranges — for the subset it knows exactly, and gives up on anything
 * else (flow collections, anchors, tags, multi-line plain or quoted scalars, folded scalars,
 * escapes, tabs, directives, comments whose place it does not model), so the caller parses
 * those files in full. It is about fifteen times faster than the full parser, which matters
 * when the Flux graph reads a thousand files to index a repository, and when the analysis
 * opens a manifest of ten thousand lines (readBlockFile: the documents' ranges and the
 * comments too, for parseYamlFile).
 *
 * Ranges follow the composer: `[start, valueEnd, nodeEnd]`, where a scalar's node end takes
 * in the rest of its line and the indented comment lines the parser attaches to it, and a
 * collection's value end is its last value's node end. Nodes carry no source tokens.
 * block-yaml.test.ts compares every node with the full parser's on fixtures and fuzzed input,
 * yaml-fast-path.test.ts the documents, their ranges and the comments.
 */
import type { Node, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import { interned, newMap, newPair, newSeq, plainScalar, stringScalar } from './fast-nodes';

/** A document's root node; an empty document holds a null scalar, as the composer's does. */
export type BlockDocument = Node | null;

/** Thrown inside the reader for input outside the subset; never escapes it. */
class Unsupported extends Error {}

const unsupported = (): never => {
  throw new Unsupported();
};

/** yaml reports an implicit key whose `:` is more than 1024 characters after its start. */
const maxKeyLength = 1024;

/** Characters that never appear in the subset (tabs, carriage returns, BOM, controls, odd breaks). */
export const outsideSubset = /[\t\r\ufeff\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ufffe\uffff]/;

/** The documents of `text`, or undefined when it is not in the subset. */
export function readBlockYaml(text: string): BlockDocument[] | undefined {
  return read(text, (reader) => reader.documents());
}

/** A document as the composer lays it out: its root, and `[start, contentEnd, end]`. */
export interface BlockFileDocument {
  contents: Node;
  range: [number, number, number];
}

/** A text's documents with their layout, and its comments (`#` to the end of the line), in source order. */
export interface BlockFile {
  documents: BlockFileDocument[];
  comments: Array<{ start: number; end: number }>;
}

/**
 * What the analysis needs of a file in the subset: the documents with their ranges and the
 * comments. Undefined also for a text with an empty document (the composer's bookkeeping for
 * one is not modelled) or without any.
 */
export function readBlockFile(text: string): BlockFile | undefined {
  return read(text, (reader) => reader.file());
}

/**
 * One reading for both: the documents as readBlockYaml gives them, and the layout as
 * readBlockFile does when it is modelled. Undefined when the text is not in the subset.
 */
export function readBlockBoth(text: string): { documents: BlockDocument[]; file: BlockFile | undefined } | undefined {
  return read(text, (reader) => reader.both());
}

function read<T>(text: string, take: (reader: Reader) => T | undefined): T | undefined {
  if (outsideSubset.test(text)) return undefined;
  try {
    return take(new Reader(text));
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

/** Text without any document is one empty document to the caller's parser, as it forces one. */
function asDocuments(roots: BlockDocument[]): BlockDocument[] {
  return roots.length === 0 ? [null] : roots;
}

/** Collections nested deeper than this are left to the full parser. */
const maxDepth = 64;

const BLANK = 0;
const COMMENT = 1;
const CONTENT = 2;
const MARKER = 3;

/** Characters that cannot start a plain scalar (c-indicators), except `-?:` before a non-space. */
const indicators = new Set(['-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', "'", '"', '%', '@', '`']);

/**
 * Line tables, shared by every reader: one runs at a time and never calls another, and
 * allocating typed arrays per file costs more than reading a small file.
 */
let table = { starts: new Int32Array(256), ends: new Int32Array(256), indents: new Int32Array(256), kinds: new Uint8Array(256) };

function lineTable(lines: number): typeof table {
  if (table.starts.length < lines) {
    const size = Math.max(lines, table.starts.length * 2);
    table = { starts: new Int32Array(size), ends: new Int32Array(size), indents: new Int32Array(size), kinds: new Uint8Array(size) };
  }
  return table;
}

/**
 * The entries of the collections being read, innermost last. A collection takes its own as
 * one array of their exact length when it ends: an array grown by pushing reserves seventeen
 * slots at the first push, most maps of a manifest have two or three entries, and the index
 * keeps thousands of them.
 */
const entries: unknown[] = [];
let entriesTop = 0;

/** The entries pushed since `from`, as their own array; their slots are freed for the next collection. */
function takeEntries<T>(from: number): T[] {
  const taken = entries.slice(from, entriesTop) as T[];
  // Cleared, so the shared array keeps no node of a file alive.
  entries.fill(undefined, from, entriesTop);
  entriesTop = from;
  return taken;
}

class Reader {
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;
  private readonly indents: Int32Array;
  private readonly kinds: Uint8Array;
  /** How many lines the text has (the tables may be longer). */
  private readonly lines: number;
  private depth = 0;
  /** Per document with content, its start and end offsets (the composer's `range[0]` and `range[2]`). */
  private readonly layout: number[] = [];
  private hasEmptyDocument = false;
  /** A document whose end the composer places short of the next marker (see endsAtLines). */
  private unmodelledEnd = false;
  /** Comments after something on their line, as start and end offsets, in source order. */
  private readonly trailing: number[] = [];
  /** The first and last line of each literal block scalar's body (its `#` lines are content). */
  private readonly bodies: number[] = [];
  // What a step found besides its node (kept here rather than in a result object per node):
  /** The line after the last one the node took. */
  private next = 0;
  /** Where the node ends (its node end, `range[2]`). */
  private end = 0;
  /** The `:` after the key just read. */
  private colon = 0;
  /** After the closing quote of the quoted scalar just read. */
  private quoteEnd = 0;

  constructor(private readonly text: string) {
    // A reading given up (outside the subset) leaves the entries it had not taken.
    takeEntries(0);
    // Lines of the text; a final line break ends the last line, it does not start an empty one.
    let count = 0;
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
    if (text.length > 0 && !text.endsWith('\n')) count++;
    this.lines = count;
    ({ starts: this.starts, ends: this.ends, indents: this.indents, kinds: this.kinds } = lineTable(count));
    let start = 0;
    for (let line = 0; line < count; line++) {
      let end = text.indexOf('\n', start);
      if (end === -1) end = text.length;
      let indent = start;
      while (indent < end && text.charCodeAt(indent) === 32) indent++;
      const kind = indent === end ? BLANK : text.charCodeAt(indent) === 35 /* # */ ? COMMENT : CONTENT;
      this.starts[line] = start;
      this.ends[line] = end;
      this.indents[line] = indent - start;
      this.kinds[line] = indent === start && kind === CONTENT ? this.atColumnZero(start, end) : kind;
      start = end + 1;
    }
  }

  /** Document markers; directives, document ends and anything that starts like them are not in the subset. */
  private atColumnZero(start: number, end: number): number {
    const text = this.text;
    if (text[start] === '%') unsupported();
    if (text.startsWith('---', start) || text.startsWith('...', start)) {
      if (end - start === 3 && text[start] === '-') return MARKER;
      unsupported();
    }
    return CONTENT;
  }

  documents(): BlockDocument[] {
    return asDocuments(this.markedDocuments());
  }

  private markedDocuments(): BlockDocument[] {
    const documents: BlockDocument[] = [];
    const lines = this.lines;
    let line = 0;
    let marker = -1;
    for (;;) {
      const first = this.nextContent(line);
      const end = this.findMarker(line);
      if (first < end) {
        if (this.indents[first] !== 0) unsupported();
        const node = this.blockNode(first, 0);
        if (this.nextContent(this.next) < end) unsupported();
        documents.push(node);
        const documentEnd = end < lines ? this.starts[end] : this.text.length;
        this.layout.push(marker === -1 ? this.starts[first] : this.starts[marker], documentEnd);
        if (!this.endsAtLines(node.range![2], documentEnd, end)) this.unmodelledEnd = true;
      } else if (marker !== -1) {
        this.hasEmptyDocument = true;
        // An empty document after a marker: a null scalar right after `---`.
        if (this.hasComment(line, end)) unsupported();
        const at = this.starts[marker] + 3;
        documents.push(plainScalar('', at, at, at));
      }
      if (end >= lines) break;
      marker = end;
      line = end + 1;
    }
    return documents;
  }

  file(): BlockFile | undefined {
    return this.fileOf(this.markedDocuments());
  }

  both(): { documents: BlockDocument[]; file: BlockFile | undefined } {
    const roots = this.markedDocuments();
    return { documents: asDocuments(roots), file: this.fileOf(roots) };
  }

  private fileOf(roots: BlockDocument[]): BlockFile | undefined {
    if (roots.length === 0 || this.hasEmptyDocument || this.unmodelledEnd) return undefined;
    const documents = roots.map((contents, i): BlockFileDocument => ({ contents: contents!, range: [this.layout[2 * i], contents!.range![2], this.layout[2 * i + 1]] }));
    return { documents, comments: this.comments() };
  }

  /**
   * The composer's document ends at the next marker (or the end of the text) when what lies
   * between its content and there is whole lines, each empty or a comment. A line of spaces
   * there, or content that ends inside its line (an empty last value), ends it elsewhere.
   */
  private endsAtLines(contentEnd: number, documentEnd: number, endLine: number): boolean {
    if (contentEnd === documentEnd) return true;
    if (this.text.charCodeAt(contentEnd - 1) !== 10 /* \n */) return false;
    for (let line = endLine - 1; line >= 0 && this.starts[line] >= contentEnd; line--) {
      if (this.kinds[line] === BLANK && this.ends[line] > this.starts[line]) return false;
    }
    return true;
  }

  /** Comment lines outside literal bodies, merged with the trailing comments. */
  private comments(): Array<{ start: number; end: number }> {
    const out: Array<{ start: number; end: number }> = [];
    const trailing = this.trailing;
    let t = 0;
    let body = 0;
    for (let line = 0; line < this.lines; line++) {
      while (body < this.bodies.length && this.bodies[body + 1] < line) body += 2;
      if (this.kinds[line] !== COMMENT || (body < this.bodies.length && this.bodies[body] <= line)) continue;
      const start = this.starts[line] + this.indents[line];
      for (; t < trailing.length && trailing[t] < start; t += 2) out.push({ start: trailing[t], end: trailing[t + 1] });
      out.push({ start, end: this.ends[line] });
    }
    for (; t < trailing.length; t += 2) out.push({ start: trailing[t], end: trailing[t + 1] });
    return out;
  }

  private findMarker(from: number): number {
    let line = from;
    while (line < this.lines && this.kinds[line] !== MARKER) line++;
    return line;
  }

  /** The first content line at or after `from` (a marker or the end stops the search). */
  private nextContent(from: number): number {
    let line = from;
    while (line < this.lines && (this.kinds[line] === BLANK || this.kinds[line] === COMMENT)) line++;
    return line;
  }

  /** The last content line before `line` (or -1). */
  private previousContent(line: number): number {
    let previous = line - 1;
    while (previous >= 0 && this.kinds[previous] !== CONTENT) previous--;
    return previous;
  }

  private hasComment(from: number, to: number): boolean {
    for (let line = from; line < to; line++) if (this.kinds[line] === COMMENT) return true;
    return false;
  }

  private isContent(line: number): boolean {
    return line < this.lines && this.kinds[line] === CONTENT;
  }

  /** Is there a sequence entry (`-` then a space or the line end) at `offset`? */
  private isSeqEntry(offset: number): boolean {
    const text = this.text;
    return text[offset] === '-' && (offset + 1 >= text.length || text[offset + 1] === ' ' || text[offset + 1] === '\n');
  }

  /** A block map or sequence starting on `line` at `column`; sets `next`. */
  private blockNode(line: number, column: number): YAMLMap | YAMLSeq {
    // Each level is a call: deep nesting is the full parser's business (it has a limit for it).
    if (++this.depth > maxDepth) unsupported();
    const result = this.isSeqEntry(this.starts[line] + column) ? this.sequence(line, column) : this.map(line, column);
    this.depth--;
    return result;
  }

  /**
   * Where a scalar's node ends: after its line, and after the blank lines and comment lines
   * indented deeper than its collection that follow (the parser gives those to the scalar).
   * Sets `end` to the node end and `next` to the first line after it.
   */
  private scalarEnd(line: number, collectionIndent: number): void {
    let end = this.lineEnd(line);
    let next = line + 1;
    for (let probe = next; probe < this.lines; probe++) {
      const kind = this.kinds[probe];
      if (kind === BLANK) continue;
      if (kind !== COMMENT || this.indents[probe] <= collectionIndent) break;
      end = this.lineEnd(probe);
      next = probe + 1;
    }
    this.end = end;
    this.next = next;
  }

  /** The offset after a line's break (or the end of the text). */
  private lineEnd(line: number): number {
    return Math.min(this.ends[line] + 1, this.text.length);
  }

  /**
   * A collection's node end: the comment lines after its last value stay with it when one of
   * them is at least as indented as the collection (a root collection never keeps them).
   */
  private collectionEnd(valueEnd: number, indent: number, next: number): number {
    if (indent === 0) return valueEnd;
    let kept = false;
    let line = next - 1;
    while (line >= 0 && this.starts[line] >= valueEnd) line--;
    for (line++; line < next; line++) if (this.kinds[line] === COMMENT && this.indents[line] >= indent) kept = true;
    return kept ? this.trailingEnd(next) : valueEnd;
  }

  /** The end of the blank and comment lines before line `next`. */
  private trailingEnd(next: number): number {
    return next < this.lines ? this.starts[next] + (this.kinds[next] === CONTENT ? this.indents[next] : 0) : this.text.length;
  }

  private sequence(line: number, indent: number): YAMLSeq {
    const from = entriesTop;
    const start = this.starts[line] + indent;
    let current = line;
    for (;;) {
      const dash = this.starts[current] + indent;
      // Read before it is placed: reading it places (and takes) the entries of what it holds.
      const item = this.entry(current, dash + 1, indent, true);
      entries[entriesTop++] = item;
      const end = this.end;
      const following = this.nextContent(this.next);
      const deeper = this.isContent(following) && this.indents[following] > indent;
      if (deeper) unsupported();
      if (!this.isContent(following) || this.indents[following] < indent || !this.isSeqEntry(this.starts[following] + indent)) {
        // Ends here; a key at the same indent continues the map this sequence is a value of.
        const seq = newSeq(takeEntries(from));
        seq.range = [start, end, this.collectionEnd(end, indent, following)];
        this.next = following;
        return seq;
      }
      current = following;
    }
  }

  private map(line: number, indent: number): YAMLMap {
    const from = entriesTop;
    const start = this.starts[line] + indent;
    let current = line;
    for (;;) {
      const key = this.key(current, this.starts[current] + indent);
      const pair = newPair(key, this.entry(current, this.colon + 1, indent, false));
      entries[entriesTop++] = pair;
      const end = this.end;
      const following = this.nextContent(this.next);
      if (!this.isContent(following) || this.indents[following] < indent) {
        const map = newMap(takeEntries(from));
        map.range = [start, end, this.collectionEnd(end, indent, following)];
        this.next = following;
        return map;
      }
      // Deeper content, or a sequence at the map's indent after a key that has a value: errors.
      if (this.indents[following] !== indent || this.isSeqEntry(this.starts[following] + indent)) unsupported();
      current = following;
    }
  }

  /** An implicit key at `offset` on `line`, up to its `:` (in `colon`). */
  private key(line: number, offset: number): Scalar {
    const text = this.text;
    const lineEnd = this.ends[line];
    const first = text[offset];
    let node: Scalar;
    let colon: number;
    if (first === '"' || first === "'") {
      const value = this.quoted(offset, lineEnd);
      colon = this.quoteEnd;
      if (text[colon] !== ':' || colon - offset > maxKeyLength) unsupported();
      node = stringScalar(value, first === '"' ? 'QUOTE_DOUBLE' : 'QUOTE_SINGLE', offset, colon, colon);
    } else {
      if (!this.plainStart(offset, lineEnd)) unsupported();
      colon = this.mappingColon(offset, lineEnd);
      if (colon === -1 || colon - offset > maxKeyLength) unsupported();
      const source = interned(text.slice(offset, colon));
      if (source.endsWith(' ') || source.includes(' #')) unsupported();
      node = plainScalar(source, offset, colon, colon);
    }
    if (colon + 1 < lineEnd && text[colon + 1] !== ' ') unsupported();
    this.colon = colon;
    return node;
  }

  /** The first `:` followed by a space or `limit`, from `offset`; -1 when there is none. */
  private mappingColon(offset: number, limit: number): number {
    const text = this.text;
    for (let i = offset; i < limit; i++) {
      if (text.charCodeAt(i) === 58 /* : */ && (i + 1 === limit || text.charCodeAt(i + 1) === 32)) return i;
    }
    return -1;
  }

  /** Where a comment starts on the line (` #`), or `lineEnd`. */
  private commentStart(offset: number, lineEnd: number): number {
    const text = this.text;
    for (let i = offset; i < lineEnd - 1; i++) if (text.charCodeAt(i) === 32 && text.charCodeAt(i + 1) === 35 /* # */) return i;
    return lineEnd;
  }

  /** Can a plain scalar start at `offset`? */
  private plainStart(offset: number, lineEnd: number): boolean {
    const c = this.text[offset];
    if (!indicators.has(c)) return true;
    // `-`, `?` and `:` start a plain scalar when a non-space follows.
    return (c === '-' || c === '?' || c === ':') && offset + 1 < lineEnd && this.text[offset + 1] !== ' ';
  }

  /**
   * The value of a map entry or sequence entry: what follows its indicator (`:` or `-`, just
   * before `from`) on `line`, or the block below. `indent` is the collection's indent. Sets
   * `end` and `next`.
   */
  private entry(line: number, from: number, indent: number, inSequence: boolean): Node {
    const text = this.text;
    const lineEnd = this.ends[line];
    let at = from;
    while (at < lineEnd && text.charCodeAt(at) === 32) at++;
    if (at === lineEnd || text[at] === '#') {
      if (at < lineEnd) this.trailing.push(at, lineEnd);
      return this.blockBelow(line, at, indent, inSequence);
    }
    const c = text[at];
    if (c === '|') return this.literal(line, at, indent);
    if (c === '"' || c === "'") {
      const value = this.quoted(at, lineEnd);
      const close = this.quoteEnd;
      if (inSequence && text[close] === ':') return this.compactMap(line, at);
      this.checkLineTail(close, lineEnd);
      this.scalarEnd(line, indent);
      this.checkNotContinued(this.next, indent);
      return stringScalar(value, c === '"' ? 'QUOTE_DOUBLE' : 'QUOTE_SINGLE', at, close, this.end);
    }
    if (!this.plainStart(at, lineEnd)) unsupported();
    const commentAt = this.commentStart(at, lineEnd);
    if (this.mappingColon(at, commentAt) !== -1) {
      // `- key: value` opens a map at the key's column; after a key it is an error.
      if (!inSequence) unsupported();
      return this.compactMap(line, at);
    }
    if (commentAt < lineEnd) this.trailing.push(commentAt + 1, lineEnd);
    let valueEnd = commentAt;
    while (text.charCodeAt(valueEnd - 1) === 32) valueEnd--;
    this.scalarEnd(line, indent);
    this.checkNotContinued(this.next, indent);
    return plainScalar(text.slice(at, valueEnd), at, valueEnd, this.end);
  }

  /** A map that starts on a sequence entry's line (`- key: value`), indented at its first key. */
  private compactMap(line: number, at: number): Node {
    const node = this.map(line, at - this.starts[line]);
    this.end = node.range![2];
    return node;
  }

  /** After a scalar on its line: spaces, then a comment or nothing. */
  private checkLineTail(from: number, lineEnd: number): void {
    let at = from;
    while (at < lineEnd && this.text.charCodeAt(at) === 32) at++;
    if (at < lineEnd && (this.text[at] !== '#' || at === from)) unsupported();
    if (at < lineEnd) this.trailing.push(at, lineEnd);
  }

  /** A content line indented deeper than the collection would continue the scalar (or be an error). */
  private checkNotContinued(next: number, indent: number): void {
    const following = this.nextContent(next);
    if (this.isContent(following) && this.indents[following] > indent) unsupported();
  }

  /**
   * Nothing after the indicator on the line: the value is the block below (deeper, or a
   * sequence at a map's indent), or empty.
   */
  private blockBelow(line: number, at: number, indent: number, inSequence: boolean): Node {
    const following = this.nextContent(line + 1);
    if (this.isContent(following)) {
      const deeper = this.indents[following] > indent;
      const sequenceAtMapIndent = !inSequence && this.indents[following] === indent && this.isSeqEntry(this.starts[following] + indent);
      if (deeper || sequenceAtMapIndent) {
        const node = this.blockNode(following, this.indents[following]);
        this.end = node.range![2];
        return node;
      }
    }
    // An empty value; the parser places comments around one in ways not modelled here (also
    // the comments before an empty sequence entry).
    if (at < this.ends[line] || this.hasComment(line + 1, following)) unsupported();
    if (inSequence && this.hasComment(this.previousContent(line) + 1, line)) unsupported();
    this.end = at;
    this.next = line + 1;
    return plainScalar('', at, at, at);
  }

  /** The value of a quoted scalar on one line, without escapes; sets `quoteEnd` after the closing quote. */
  private quoted(offset: number, lineEnd: number): string {
    const text = this.text;
    const quote = text[offset];
    if (quote === '"') {
      const close = text.indexOf('"', offset + 1);
      if (close === -1 || close > lineEnd) unsupported();
      const value = text.slice(offset + 1, close);
      if (value.includes('\\')) unsupported();
      this.quoteEnd = close + 1;
      return value;
    }
    let value = '';
    let from = offset + 1;
    for (;;) {
      const close = text.indexOf("'", from);
      if (close === -1 || close > lineEnd) unsupported();
      value += text.slice(from, close);
      if (text[close + 1] !== "'") {
        this.quoteEnd = close + 1;
        return value;
      }
      value += "'";
      from = close + 2;
    }
  }

  /**
   * A literal block scalar (`|`, `|-`, `|+`) whose header is at `at`. Its lines are indented
   * deeper than the collection; the first that is not blank sets the indentation.
   */
  private literal(line: number, at: number, indent: number): Node {
    const text = this.text;
    let i = at + 1;
    const chomp = text[i] === '-' || text[i] === '+' ? text[i++] : '';
    // An indentation indicator, or anything else in the header but a comment, is left to the full parser.
    this.checkLineTail(i, this.ends[line]);
    const lines = this.lines;
    const blank = (l: number) => this.ends[l] - this.starts[l] === this.indents[l];
    let first = line + 1;
    while (first < lines && blank(first)) first++;
    const contentIndent = first < lines ? this.indents[first] : -1;
    // An empty block scalar, or blank lines deeper than the first line, are not modelled.
    if (contentIndent <= indent) unsupported();
    let last = line;
    let lastText = line;
    for (let l = line + 1; l < lines; l++) {
      const isBlank = blank(l);
      if (!isBlank && this.indents[l] < contentIndent) break;
      if (isBlank && this.ends[l] - this.starts[l] > contentIndent) unsupported();
      last = l;
      if (!isBlank) lastText = l;
    }
    const next = last + 1;
    if (last > line) this.bodies.push(line + 1, last);
    // What follows ends the collection or continues it; content between the collection's indent
    // and the scalar's is an error. (Comment lines after a block scalar are not attached to it.)
    this.checkNotContinued(next, indent);
    let end: number;
    let value: string;
    // Clip keeps the last text line's break; keep also each blank line's after it.
    if (chomp === '+') {
      // A last blank line without a line break is not counted the same way: left to the parser.
      if (last !== lastText && this.ends[last] === text.length) unsupported();
      value = this.blockText(line + 1, last, contentIndent, true);
      end = this.lineEnd(last);
    } else {
      value = this.blockText(line + 1, lastText, contentIndent, chomp === '');
      end = this.lineEnd(lastText);
    }
    this.end = end;
    this.next = next;
    return stringScalar(value, 'BLOCK_LITERAL', at, end, end);
  }

  /**
   * Lines `from` to `to` of a literal block without their indentation, joined by their line
   * breaks, and with the last one's when `withBreak`. The text has only `\n` breaks and no
   * tabs (outsideSubset), text lines are indented at least `indent` deep and blank ones at
   * most (literal checks both), so one native pass strips up to `indent` spaces from each
   * line; it makes the value as one flat string, where a part per line and a join made
   * garbage for every line of a manifest's scripts, most of its bytes.
   */
  private blockText(from: number, to: number, indent: number, withBreak: boolean): string {
    const text = this.text;
    const end = this.ends[to];
    // The last line's break is in the text unless the text ends there.
    const broken = withBreak && end < text.length;
    const value = text.slice(this.starts[from], broken ? end + 1 : end).replace(indentation(indent), '');
    return withBreak && !broken ? `${value}\n` : value;
  }
}

/** `^ {1,n}` in every line, one pattern per depth (blockText). */
const indentations: RegExp[] = [];

function indentation(depth: number): RegExp {
  return (indentations[depth] ??= new RegExp(`^ {1,${depth}}`, 'gm'));
}
