/**
 * YAML files parsed once with positions, and the scalars of each document with their
 * decoded text mapped back to source offsets.
 */
import { Composer, Document, LineCounter, Parser, Scalar, isMap, isPair, isScalar, isSeq, type CST, type Node } from 'yaml';
import { formatSize, maxFileSize, maxNestingDepth } from '../limits';
import type { Range } from '../model';
import { readBlockFile } from './block-yaml';
import { decodeScalar, linearRange, sourceRange, type ScalarStyle, type ScalarText } from './scalar-text';

export interface YamlProblem {
  message: string;
  range: Range;
  /** Information: the file was not checked (a limit of core/limits.ts). */
  severity: 'error' | 'warning' | 'information';
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
  return parseBlockStyle(text) ?? parseFully(text);
}

/**
 * Most manifests are plain block YAML, which the block-subset reader reads about twenty times
 * faster than the full parser, into the same nodes (block-yaml.test.ts and yaml-fast-path.test.ts
 * hold it to that); it declines everything else. Its documents carry no syntax tree: nothing
 * past the parse reads one, and the incremental re-parse shifts what is there.
 */
export function parseBlockStyle(text: string): ParsedFile | undefined {
  if (text.length > maxFileSize) return undefined;
  const file = readBlockFile(text);
  if (!file) return undefined;
  const documents = file.documents.map(({ contents, range }) => {
    const document = new Document(undefined, blockDocumentOptions()) as Document.Parsed;
    document.contents = contents as Document.Parsed['contents'];
    document.range = range;
    // The composer marks a document that starts with `---`.
    if (text.startsWith('---', range[0])) document.directives.docStart = true;
    return document;
  });
  return parsedFile(text, documents, [], file.comments.map(({ start, end }) => ({ start, end, text: text.slice(start + 1, end) })));
}

/** A ParsedFile whose line counter is built when first asked for (most analyses never do). */
export function parsedFile(text: string, documents: Document.Parsed[], problems: YamlProblem[], comments: YamlComment[]): ParsedFile {
  let lineCounter: LineCounter | undefined;
  return {
    text,
    documents,
    problems,
    comments,
    get lineCounter(): LineCounter {
      if (!lineCounter) {
        lineCounter = new LineCounter();
        lineCounter.addNewLine(0);
        for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineCounter.addNewLine(i + 1);
      }
      return lineCounter;
    },
  };
}

const composerOptions = { keepSourceTokens: true, prettyErrors: false, uniqueKeys: false } as const;

let sharedSchema: Document['schema'] | undefined;

/** The composer's options, with one core schema for every document: building one per document was a tenth of reading a repository. */
function blockDocumentOptions() {
  sharedSchema ??= new Document(undefined, composerOptions).schema;
  return { ...composerOptions, schema: sharedSchema };
}

/** The full parser: every YAML, with syntax errors. */
export function parseFully(text: string): ParsedFile {
  const lineCounter = new LineCounter();
  if (text.length > maxFileSize) {
    return notChecked(text, lineCounter, `Not checked: this file is ${formatSize(text.length)}, over Render Lens's limit of ${formatSize(maxFileSize)} per file.`);
  }
  // One pass of the parser gives both the documents and the comments (from the syntax tree).
  const tokens = [...new Parser(lineCounter.addNewLine).parse(text)];
  const { comments, depth } = scanTokens(tokens);
  // The composer recurses once per level: a hostile nesting would overflow the stack.
  if (depth > maxNestingDepth) return notChecked(text, lineCounter, `Not checked: collections nest ${depth} levels deep, over Render Lens's limit of ${maxNestingDepth}.`, comments);
  const composer = new Composer(composerOptions);
  const documents = [...composer.compose(tokens, true, text.length)] as Document.Parsed[];
  return { text, documents, lineCounter, problems: problemsOf(documents, text), comments };
}

/** The syntax errors of the documents, as problems (also for the incremental re-parse). */
export function problemsOf(documents: readonly Document.Parsed[], text: string): YamlProblem[] {
  const problems: YamlProblem[] = [];
  for (const doc of documents) {
    for (const e of doc.errors) {
      // The parser can point one past the end (an unterminated flow collection at EOF).
      const start = Math.min(e.pos[0], text.length);
      problems.push({ message: e.message, range: { start, end: Math.min(Math.max(e.pos[1], start), text.length) }, severity: 'error' });
    }
  }
  return problems;
}

/** A file past a limit: no documents, one problem at its start. */
function notChecked(text: string, lineCounter: LineCounter, message: string, comments: YamlComment[] = []): ParsedFile {
  return { text, documents: [], lineCounter, problems: [{ message, range: { start: 0, end: 0 }, severity: 'information' }], comments };
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
  /** The decoded value as a string, with source offsets per unit (built on first use). */
  readonly text: ScalarText;
  /** `text.value`, cheaper: most values need no offset map. */
  readonly value: string;
  /** The source range of value units [from, to): sourceRange(text, from, to), without the offset map where it is linear. */
  rangeOf(from: number, to: number): Range;
}

/** Every scalar (keys and values) of a document, in source order. */
export function scalarsOf(doc: Document.Parsed, source: string): ScalarSite[] {
  const sites: ScalarSite[] = [];
  walkScalars(doc, (node, isKey, link) => sites.push(siteOf(node, isKey, link, source)));
  return sites;
}

/**
 * The scalars whose decoded value holds a `$` (the only ones substitution can change), and
 * how many scalars the document has. Most scalars of a manifest have none: they get no site.
 */
export function scalarsWithDollars(doc: Document.Parsed, source: string): { sites: ScalarSite[]; total: number } {
  const sites: ScalarSite[] = [];
  let total = 0;
  walkScalars(doc, (node, isKey, link) => {
    total++;
    // A string's value is the decoded text; anything else (a number, a bool) is read from its site.
    if (typeof node.value === 'string' && !node.value.includes('$')) return;
    const site = siteOf(node, isKey, link, source);
    if (site.value.includes('$')) sites.push(site);
  });
  return { sites, total };
}

function siteOf(node: Scalar & { range: NonNullable<Scalar['range']> }, isKey: boolean, link: PathLink | undefined, source: string): ScalarSite {
  return new LazySite(node, isKey, link, (node.type ?? 'PLAIN') as ScalarStyle, { start: node.range[0], end: node.range[1] }, source);
}

/** Calls `visit` for every scalar with a range, in source order, with the path to it as links. */
function walkScalars(doc: Document.Parsed, visit: (node: Scalar & { range: NonNullable<Scalar['range']> }, isKey: boolean, link: PathLink | undefined) => void): void {
  // An explicit stack, children pushed in reverse: a manifest has thousands of scalars, and
  // nested generators cost a result object per level per scalar.
  const nodes: Array<Node | null | undefined> = [doc.contents as Node | null];
  const links: Array<PathLink | undefined> = [undefined];
  const keys: boolean[] = [false];
  while (nodes.length > 0) {
    const node = nodes.pop();
    const link = links.pop();
    const isKey = keys.pop()!;
    if (!node) continue;
    if (isScalar(node)) {
      if (node.range) visit(node as Scalar & { range: NonNullable<Scalar['range']> }, isKey, link);
    } else if (isMap(node)) {
      for (let i = node.items.length - 1; i >= 0; i--) {
        const item = node.items[i];
        if (!isPair(item)) continue;
        const key = item.key as Node | null;
        const entry: PathLink = { up: link, key: isScalar(key) ? String(key.value) : '' };
        nodes.push(item.value as Node | null, key);
        links.push(entry, entry);
        keys.push(false, true);
      }
    } else if (isSeq(node)) {
      for (let i = node.items.length - 1; i >= 0; i--) {
        nodes.push(node.items[i] as Node);
        links.push({ up: link, key: i });
        keys.push(false);
      }
    }
  }
}

/** Findings a site places without its offset map (see LazySite.rangeOf). */
const linearAnswersPerSite = 4;

/** A path kept as links to the parent's: most scalars' paths are never read. */
interface PathLink {
  readonly up: PathLink | undefined;
  readonly key: string | number;
}

function pathOf(link: PathLink | undefined): NodePath {
  const path: Array<string | number> = [];
  for (let at = link; at; at = at.up) path.push(at.key);
  return path.reverse();
}

/**
 * Most scalars are never looked at closely (nothing in them is substituted): the offset map
 * of `text` costs two arrays per scalar, so it is built the first time a rule asks for it.
 * `value` alone is usually the parser's own string.
 */
class LazySite implements ScalarSite {
  private decoded: ScalarText | undefined;
  private madePath: NodePath | undefined;
  private linearAnswers = 0;

  constructor(
    readonly node: Scalar,
    readonly isKey: boolean,
    private readonly link: PathLink | undefined,
    readonly style: ScalarStyle,
    readonly range: Range,
    private readonly source: string,
  ) {}

  get path(): NodePath {
    this.madePath ??= pathOf(this.link);
    return this.madePath;
  }

  get text(): ScalarText {
    this.decoded ??= decodeSite(this.node, this.source, this.style, this.range);
    return this.decoded;
  }

  rangeOf(from: number, to: number): Range {
    // Each linear answer reads the value up to `from`: past a few findings in one scalar the
    // offset map, built once, is cheaper (a script of ten thousand `$$` lines stays linear).
    if (this.decoded || ++this.linearAnswers > linearAnswersPerSite) return sourceRange(this.text, from, to);
    return linearRange(this.source, this.style, this.range, this.value, from, to) ?? sourceRange(this.text, from, to);
  }

  /** The decoded value; the same string as `text.value`, without building the offset map when it can. */
  get value(): string {
    if (this.decoded) return this.decoded.value;
    // decodeSite always ends with the parser's string when there is one.
    return typeof this.node.value === 'string' ? this.node.value : this.text.value;
  }
}

/**
 * A site moved by `delta` (an edit above it shifted its document). The per-unit offsets are
 * moved when first read: rules read them only to place a finding, and a document moves on
 * every edit above it.
 */
export function movedSite(site: ScalarSite, delta: number): ScalarSite {
  let text: ScalarText | undefined;
  return {
    node: site.node,
    isKey: site.isKey,
    get path(): NodePath {
      return site.path;
    },
    style: site.style,
    range: { start: site.range.start + delta, end: site.range.end + delta },
    value: site.value,
    get text(): ScalarText {
      text ??= { value: site.value, starts: shifted(site.text.starts, delta), ends: shifted(site.text.ends, delta) };
      return text;
    },
    rangeOf(from: number, to: number): Range {
      const { start, end } = site.rangeOf(from, to);
      return { start: start + delta, end: end + delta };
    },
  };
}

/** A copy of `offsets` moved by `delta` (a plain loop: a typed array's map calls back per unit). */
function shifted(offsets: Int32Array, delta: number): Int32Array {
  const out = new Int32Array(offsets.length);
  for (let i = 0; i < offsets.length; i++) out[i] = offsets[i] + delta;
  return out;
}

function decodeSite(node: Scalar, source: string, style: ScalarStyle, { start, end }: Range): ScalarText {
  const raw = source.slice(start, end);
  const token = node.srcToken as { indent?: number } | undefined;
  const text = decodeScalar(raw, style, start, token?.indent ?? 0);
  if (typeof node.value === 'string' && node.value === `${text.value}\n` && (style === 'BLOCK_LITERAL' || style === 'BLOCK_FOLDED')) {
    // A block scalar that ends the input without a line break still ends in the one its
    // chomping keeps; the decoder stops short of it. Map that break to the scalar's end and
    // keep every other unit exact (a fix computed from a whole-scalar range lands elsewhere).
    return { value: node.value, starts: Int32Array.from([...text.starts, end]), ends: Int32Array.from([...text.ends, end]) };
  }
  if (typeof node.value === 'string' && text.value !== node.value) {
    // Our decoder and the parser disagree (an edge case of folding or escapes): trust the
    // parser's value and point every unit at the whole scalar rather than at a wrong column.
    return wholeRange(node.value, start, end);
  }
  return text;
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

/**
 * Collects comment tokens anywhere in the parser's syntax tree, and measures how deeply its
 * collections nest. Iterative: the tree of a hostile file is as deep as its nesting. It walks
 * the token shapes of yaml's CST (every place a token holds tokens) rather than every key of
 * every object: about 3× faster, the same answer (checked on the fixtures and fuzzed edits).
 */
function scanTokens(tokens: readonly CST.Token[]): { comments: YamlComment[]; depth: number } {
  const comments: YamlComment[] = [];
  let deepest = 0;
  // Two stacks rather than one of pairs: no allocation per token.
  const stack: CST.Token[] = [];
  const depths: number[] = [];
  const push = (token: CST.Token | null | undefined, depth: number) => {
    if (!token) return;
    stack.push(token);
    depths.push(depth);
  };
  const pushAll = (list: readonly CST.Token[] | undefined, depth: number) => {
    if (list) for (let i = 0; i < list.length; i++) push(list[i], depth);
  };
  pushAll(tokens, 0);
  while (stack.length > 0) {
    const token = stack.pop()!;
    const depth = depths.pop()!;
    switch (token.type) {
      case 'comment':
        comments.push({ start: token.offset, end: token.offset + token.source.length, text: token.source.slice(1) });
        break;
      case 'document':
        pushAll(token.start, depth);
        push(token.value, depth);
        pushAll(token.end, depth);
        break;
      case 'doc-end':
        pushAll(token.end, depth);
        break;
      case 'block-map':
      case 'block-seq':
      case 'flow-collection': {
        const level = depth + 1;
        if (level > deepest) deepest = level;
        if (token.type === 'flow-collection') {
          push(token.start, level);
          pushAll(token.end, level);
        }
        for (const item of token.items as CST.CollectionItem[]) {
          pushAll(item.start, level);
          push(item.key, level);
          pushAll(item.sep, level);
          push(item.value, level);
        }
        break;
      }
      case 'block-scalar':
        pushAll(token.props, depth);
        break;
      case 'alias':
      case 'scalar':
      case 'single-quoted-scalar':
      case 'double-quoted-scalar':
        pushAll(token.end, depth);
        break;
      default:
      // A source token, an error or a directive: nothing inside.
    }
  }
  return { comments: comments.sort((a, b) => a.start - b.start), depth: deepest };
}

/** One part of a file parsed on its own, with the offsets, comments and problems of the whole file. */
export interface ParsedPart {
  /** The top-level syntax tokens (documents, and what precedes the first one); none when read in block style. */
  tokens?: CST.Token[];
  documents: Document.Parsed[];
  comments: YamlComment[];
}

/**
 * Parses `text.slice(start, end)` as the part of `text` it is: the parser starts counting at
 * `start`, so every offset (nodes, source tokens, errors, comments) is one into `text`. The
 * incremental re-parse (workspace/reparse.ts) uses it for the documents an edit touched.
 * Undefined when the part nests past the limit (a full parse then reports it).
 */
export function parseYamlPart(text: string, start: number, end: number): ParsedPart | undefined {
  const parser = new Parser();
  parser.offset = start;
  const tokens = [...parser.parse(start === 0 && end === text.length ? text : text.slice(start, end))];
  const { comments, depth } = scanTokens(tokens);
  if (depth > maxNestingDepth) return undefined;
  // Without forceDoc: a part without documents is not one the re-parse can splice in.
  const composer = new Composer(composerOptions);
  return { tokens, documents: [...composer.compose(tokens)] as Document.Parsed[], comments };
}
