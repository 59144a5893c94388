/**
 * YAML files parsed once with positions: block-style YAML by the block-subset reader, the
 * rest by the `yaml` package; the documents, their comments and their syntax problems. The
 * scalars of each document are scalar-sites.ts's.
 */
import { Composer, Document, LineCounter, Parser, type CST } from 'yaml';
import { maxNestingDepth, notCheckedReason } from '../limits';
import type { Range } from '../model';
import { readBlockFile, type BlockFile } from './block-yaml';
import { detachedSlice, setPartSource } from './part-source';
import { goYamlScalarCount } from '../goyaml/v2/parser';

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
 * Most manifests are plain block YAML, which the block-subset reader reads about fifteen times
 * faster than the full parser, into the same nodes (block-yaml.test.ts and yaml-fast-path.test.ts
 * hold it to that); it declines everything else. Its documents carry no syntax tree: nothing
 * past the parse reads one, and the incremental re-parse shifts what is there.
 */
export function parseBlockStyle(text: string): ParsedFile | undefined {
  if (notCheckedReason(text) !== undefined) return undefined;
  const file = readBlockFile(text);
  return file && blockParsedFile(text, file);
}

/**
 * The parse of `text` from what the block-subset reader read of it (readBlockFile), sharing
 * its nodes: the compact model of a file keeps that reading, so checking a file the Flux graph
 * already read does not read it again.
 */
export function blockParsedFile(text: string, file: BlockFile): ParsedFile {
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
  const skipped = notCheckedReason(text);
  if (skipped !== undefined) return notChecked(text, lineCounter, skipped);
  // go-yaml breaks lines at a lone CR too; the yaml package does not. One character for one
  // keeps every offset, so the parse of the rewritten text maps onto the original.
  const source = lonelyCrAsLf(text);
  // One pass of the parser gives both the documents and the comments (from the syntax tree).
  const tokens = [...new Parser(lineCounter.addNewLine).parse(source)];
  const { comments, depth } = scanTokens(tokens);
  // The composer recurses once per level: a hostile nesting would overflow the stack.
  if (depth > maxNestingDepth) return notChecked(text, lineCounter, `Not checked: collections nest ${depth} levels deep, over Render Lens's limit of ${maxNestingDepth}.`, comments);
  const composer = new Composer(composerOptions);
  const documents = [...composer.compose(tokens, true, text.length)] as Document.Parsed[];
  return { text, documents, lineCounter, problems: problemsOf(documents, source), comments };
}

/**
 * The syntax errors of the documents, as problems (also for the incremental re-parse): one per
 * document, the first, since what follows a syntax error is mostly its echo. The controllers
 * read YAML with go-yaml, which accepts a little the yaml package rejects (an alias as a key,
 * `*app: x`; a quoted scalar continued at its key's indentation): a document go-yaml reads is
 * not broken, whatever the yaml package says.
 */
export function problemsOf(documents: readonly Document.Parsed[], text: string): YamlProblem[] {
  const problems: YamlProblem[] = [];
  if (!documents.some((d) => d.errors.length > 0) || goYamlScalarCount(text) !== undefined) return problems;
  for (let i = 0; i < documents.length; i++) {
    const e = documents[i].errors[0];
    // After an error the yaml package may end the document early: go-yaml reads on to the next.
    if (e === undefined || goYamlScalarCount(text.slice(documents[i].range[0], documents[i + 1]?.range[0] ?? text.length)) !== undefined) continue;
    // The parser can point one past the end (an unterminated flow collection at EOF).
    const start = Math.min(e.pos[0], text.length);
    problems.push({ message: e.message, range: { start, end: Math.min(Math.max(e.pos[1], start), text.length) }, severity: 'error' });
  }
  return problems;
}

/** `text` with each CR that is not part of CRLF made a LF: the same length, so offsets hold. */
function lonelyCrAsLf(text: string): string {
  return text.includes('\r') ? text.replace(/\r(?!\n)/g, '\n') : text;
}

/** A file past a limit: no documents, one problem at its start. */
function notChecked(text: string, lineCounter: LineCounter, message: string, comments: YamlComment[] = []): ParsedFile {
  return { text, documents: [], lineCounter, problems: [{ message, range: { start: 0, end: 0 }, severity: 'information' }], comments };
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
  const whole = start === 0 && end === text.length;
  const source = lonelyCrAsLf(whole ? text : detachedSlice(text, start, end));
  const tokens = [...parser.parse(source)];
  const { comments, depth } = scanTokens(tokens);
  if (depth > maxNestingDepth) return undefined;
  // Without forceDoc: a part without documents is not one the re-parse can splice in.
  const composer = new Composer(composerOptions);
  const documents = [...composer.compose(tokens)] as Document.Parsed[];
  if (!whole) for (const document of documents) setPartSource(document, source, start);
  return { tokens, documents, comments };
}
