/**
 * Incremental re-parse of a multi-document YAML file: after an edit, only the documents the
 * edit touched are parsed again; the others keep their syntax trees, shifted in place by the
 * edit's change in length. A one-character edit in a 10,000-line manifest then costs the parse
 * of one document (about a millisecond) instead of the whole file (the `yaml` package parses
 * with positions at a few MB/s).
 *
 * Why this is exact: a `---` at the start of a line, followed by a space, a line break or the
 * end, starts a document wherever it appears (the lexer ends any scalar, block or flow
 * collection there), and a document's syntax tree depends on nothing before its `---`. So
 * the text between two such markers parses the same on its own as inside the whole file, as
 * long as its syntax is closed at its end: an open flow collection ends differently at a
 * `---` than at the end of the text, and an unclosed quote searches the rest of the file for
 * its closing quote, so a part whose last document has a syntax error takes in the next one
 * (for a quote, the rest of the file). Directives (`%YAML`), document end markers (`...`) and
 * byte-order marks carry state between documents: files with them are parsed whole.
 * The bench (incremental.bench.ts) checks the result against a full parse after random edits.
 */
import { isMap, isPair, isSeq, type CST, type Document, type Node } from 'yaml';
import { notCheckedReason } from '../limits';
import { changedSpan, type ChangedSpan } from './text-change';
import { detachedSlice, movePartSource, setPartSource } from '../yaml/part-source';
import { moveNode } from '../yaml/fast-nodes';
import type { BlockFile } from '../yaml/block-yaml';
import { blockParsedFile, parseBlockStyle, parseYamlFile, parseYamlPart, parsedFile, problemsOf, type ParsedFile, type ParsedPart, type YamlComment } from '../yaml/document';

/** Parses that may be re-parsed incrementally; a parse is consumed (shifted) by its re-parse. */
const reusable = new WeakSet<ParsedFile>();
/** Parses known to have no directive, document end marker or inner byte-order mark. */
const plain = new WeakSet<ParsedFile>();

/** A full parse that a later `reparseYamlFile` may build on. */
export function parseIncremental(text: string, block?: BlockFile): ParsedFile {
  const parsed = block ? blockParsedFile(text, block) : parseYamlFile(text);
  reusable.add(parsed);
  return parsed;
}

/**
 * The parse of `text`, reusing the documents of `previous` (the parse of an earlier version)
 * that the edit did not touch. `previous` must not be used afterwards: its untouched
 * documents now belong to the new parse, with offsets into the new text.
 */
export function reparseYamlFile(previous: ParsedFile, text: string, edit?: ChangedSpan): ParsedFile {
  if (!reusable.has(previous)) return parseIncremental(text);
  if (previous.text === text) return previous;
  reusable.delete(previous);
  const result = spliced(previous, text, edit);
  if (!result) return parseIncremental(text);
  reusable.add(result);
  plain.add(result);
  return result;
}

function spliced(previous: ParsedFile, text: string, edit: ChangedSpan | undefined): ParsedFile | undefined {
  const old = previous.text;
  const documents = previous.documents;
  if (documents.length === 0 || notCheckedReason(text) !== undefined || !isPlain(previous)) return undefined;
  // The change: old[prefix, changeEnd) became text[prefix, changeEnd + delta).
  const { start: prefix, oldEnd: changeEnd } = edit ?? changedSpan(old, text);
  const delta = text.length - old.length;

  // Where each document's part starts: 0 for the first (comments before it belong to it),
  // then its `---`. A part ends where the next starts.
  const starts = documents.map((d, i) => (i === 0 ? 0 : d.range[0]));
  for (let i = 1; i < starts.length; i++) if (!old.startsWith('---', starts[i]) || old[starts[i] - 1] !== '\n') return undefined;
  const endOf = (i: number) => (i + 1 < starts.length ? starts[i + 1] : old.length);
  // The first part to parse again: the one holding the change, or the one before when the
  // change touches its `---` or the character after it (it may stop being a marker).
  let first = lastAtOrBefore(starts, prefix);
  while (first > 0 && prefix < starts[first] + 4) first--;
  // The last: the one holding the end of the change, or the next when the change reaches the
  // line break before the next `---` (the marker may stop being at a line start).
  let last = first;
  while (last + 1 < starts.length && changeEnd > endOf(last) - 1) last++;
  for (let i = 0; i < documents.length; i++) {
    // Something between two documents (a stray `]` ends a document early; comments after it
    // go to the next one): the parts are not independent.
    if (documents[i].range[2] !== endOf(i)) return undefined;
    // Indexed, like the shifting below: once per document per keystroke.
    const errors = documents[i].errors;
    for (let j = 0; j < errors.length; j++) {
      const e = errors[j];
      // An unclosed quote before the change looks ahead into it (for its closing quote).
      if (i < first && unclosedQuote(e)) return undefined;
      // An error the parser met between documents is the previous document's: parts are not independent.
      if (e.pos[0] < starts[i] || e.pos[0] > endOf(i)) return undefined;
    }
  }

  const start = starts[first];
  let end = last + 1 < starts.length ? endOf(last) + delta : text.length;
  let part: ParsedPart | undefined = blockPart(text, start, end) ?? parseYamlPart(text, start, end);
  // A document that ends with a syntax error may have left a flow collection open, which a
  // `---` closes differently than the end of the text: the part then takes in the next
  // document too, so that its end is a real `---`. An unclosed quote searches the rest of the
  // file for its closing quote: the part then runs to the end of the file.
  while (part && end < text.length && part.documents.length > 0 && part.documents[part.documents.length - 1].errors.length > 0) {
    last = part.documents.some((d) => d.errors.some(unclosedQuote)) ? starts.length - 1 : last + 1;
    end = last + 1 < starts.length ? endOf(last) + delta : text.length;
    part = parseYamlPart(text, start, end);
  }
  if (!part || part.documents.length === 0 || (part.tokens && !onlyDocuments(part.tokens, start))) return undefined;

  const kept = documents.slice(last + 1);
  for (const document of kept) shiftDocument(document, delta);
  const oldEnd = endOf(last);
  const comments: YamlComment[] = previous.comments.filter((c) => c.start < start);
  comments.push(...part.comments);
  for (const c of previous.comments) if (c.start >= oldEnd) comments.push({ start: c.start + delta, end: c.end + delta, text: c.text });
  const merged = [...documents.slice(0, first), ...part.documents, ...kept];
  return parsedFile(text, merged, problemsOf(merged, text), comments);
}

/**
 * A part in block style, read by the block-subset reader (as parseYamlFile reads a whole file)
 * and moved to its place in `text`. It has no syntax tokens: the reader takes a part only when
 * it is documents alone, and only a part without syntax errors.
 */
function blockPart(text: string, start: number, end: number): ParsedPart | undefined {
  const whole = start === 0 && end === text.length;
  const source = whole ? text : detachedSlice(text, start, end);
  const parsed = parseBlockStyle(source);
  if (!parsed) return undefined;
  for (const document of parsed.documents) {
    if (!whole) setPartSource(document, source, 0);
    shiftDocument(document, start);
  }
  return { documents: parsed.documents, comments: start === 0 ? parsed.comments : parsed.comments.map((c) => ({ start: c.start + start, end: c.end + start, text: c.text })) };
}

/** The only syntax that looks past a line, and so past a `---`: a quote without its closing quote. */
function unclosedQuote(error: { code: string; message: string }): boolean {
  return error.code === 'MISSING_CHAR' && error.message.startsWith('Missing closing');
}

/** No `%` directive, no `...` document end and no byte-order mark past the start: parts are independent. */
function isPlain(parsed: ParsedFile): boolean {
  if (plain.has(parsed)) return true;
  const text = parsed.text;
  const independent = !text.startsWith('%') && !text.startsWith('...') && !text.includes('\n%') && !text.includes('\n...') && text.indexOf('\uFEFF', 1) === -1;
  if (independent) plain.add(parsed);
  return independent;
}

/** The top level of a part is its documents, and (for the file's first part) comments before them. */
function onlyDocuments(tokens: readonly CST.Token[], start: number): boolean {
  let seenDocument = false;
  for (const token of tokens) {
    if (token.type === 'document') {
      if (!seenDocument && start > 0 && token.offset !== start) return false;
      seenDocument = true;
    } else if (seenDocument || start > 0 || !(token.type === 'comment' || token.type === 'newline' || token.type === 'space' || (token.type === 'byte-order-mark' && token.offset === 0))) {
      return false;
    }
  }
  return seenDocument;
}

/**
 * Moves a document's offsets by `delta`: its range, every node's, every source token's, its
 * errors'. In place: the parser gives every node its own range array (parse.bench.ts would
 * see a range moved twice).
 */
function shiftDocument(document: Document.Parsed, delta: number): void {
  if (delta === 0) return;
  shiftRange(document.range, delta);
  movePartSource(document, delta);
  const contents = document.contents as Node | null;
  shiftNodes(contents, delta);
  // The root's source token holds every other node's: the whole syntax tree moves at once.
  if (contents?.srcToken) shiftTokens(contents.srcToken, delta);
  shiftPositions(document.errors, delta);
  shiftPositions(document.warnings, delta);
}

/** Moves each problem's position. Indexed: every document below the edit, on every keystroke (almost always none). */
function shiftPositions(problems: ReadonlyArray<{ pos: [number, number] }>, delta: number): void {
  for (let i = 0; i < problems.length; i++) problems[i].pos = [problems[i].pos[0] + delta, problems[i].pos[1] + delta];
}

function shiftRange(range: number[] | undefined | null, delta: number): void {
  if (!range) return;
  range[0] += delta;
  range[1] += delta;
  range[2] += delta;
}

function shiftNodes(root: Node | null | undefined, delta: number): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Node | null | undefined;
    if (!node) continue;
    moveNode(node, delta);
    if (isMap(node) || isSeq(node)) {
      for (const item of node.items as unknown[]) {
        if (isPair(item)) stack.push(item.key, item.value);
        else stack.push(item);
      }
    }
  }
}

/** Moves every offset of a syntax token and of the tokens inside it (by the shapes of yaml's CST). */
function shiftTokens(root: CST.Token, delta: number): void {
  const stack: CST.Token[] = [root];
  const pushAll = (tokens: readonly CST.Token[] | undefined) => {
    if (tokens) for (let i = 0; i < tokens.length; i++) stack.push(tokens[i]);
  };
  while (stack.length > 0) {
    const token = stack.pop()!;
    token.offset += delta;
    switch (token.type) {
      case 'document':
        pushAll(token.start);
        if (token.value) stack.push(token.value);
        pushAll(token.end);
        break;
      case 'block-map':
      case 'block-seq':
      case 'flow-collection':
        if (token.type === 'flow-collection') {
          stack.push(token.start);
          pushAll(token.end);
        }
        for (const item of token.items) {
          pushAll(item.start);
          if (item.key) stack.push(item.key);
          pushAll(item.sep);
          if (item.value) stack.push(item.value);
        }
        break;
      case 'block-scalar':
        pushAll(token.props);
        break;
      case 'alias':
      case 'scalar':
      case 'single-quoted-scalar':
      case 'double-quoted-scalar':
        pushAll(token.end);
        break;
      default:
      // A source token or an error token: nothing inside.
    }
  }
}

/** The last index whose value is ≤ `offset` (values ascending; 0 when none is). */
function lastAtOrBefore(values: readonly number[], offset: number): number {
  let low = 0;
  let high = values.length - 1;
  let found = 0;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (values[mid] <= offset) {
      found = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return found;
}
