/**
 * The Kubernetes identity of each document of a big file (apiVersion, kind and metadata's
 * name, namespace, labels and annotations), read from its lines without building a node.
 *
 * The Flux graph needs only these of most objects a cluster renders: the ConfigMaps of a
 * 50,000-line manifest are looked up by name, and their data is read when a `substituteFrom`
 * names one. Reading the whole file into nodes first cost the open of a file beside it most
 * of its graph (issue 33). The scan is exact or gives up: every line it passes over is either
 * inside a block scalar or a line whose quotes and brackets close on it, so no skipped value
 * can reach the keys it reads; anything it does not know (flow or multi-line values where it
 * reads, anchors, tags, merge keys, duplicate keys, directives) makes it return undefined, and
 * the caller reads the file in full. identity-scan.test.ts compares it with the full reading.
 */
import { outsideSubset } from '../yaml/block-yaml';
import type { Identity } from './objects';

const noEntries: ReadonlyMap<string, string> = new Map();

/** Thrown inside the scan when the text is not one it reads exactly; never escapes it. */
class GiveUp extends Error {}

const giveUp = (): never => {
  throw new GiveUp();
};

/** One identity per document (undefined where the document is not a Kubernetes object), or undefined when the text is not one the scan reads exactly. */
export function scanIdentities(text: string): Array<Identity | undefined> | undefined {
  if (outsideSubset.test(text)) return undefined;
  try {
    return new Scan(text).documents();
  } catch (error) {
    if (error instanceof GiveUp) return undefined;
    throw error;
  }
}

/** A plain key as manifests write them. */
const plainKey = /^[A-Za-z0-9_][A-Za-z0-9_.\/-]*(?=:(?: |$))/;

/** Plain scalars that are null: scalarText gives undefined for them, which the scan does not model. */
const nullWord = /^(?:~|null|Null|NULL)$/;

/** A block scalar's header: `|` or `>` with its indicators, and perhaps a comment. */
const blockHeader = /^[|>][0-9+-]*(?: +#.*)?$/;

/** What a document's identity is being read from: the top-level keys, then metadata's. */
interface DocumentState {
  top: Map<string, string | null>;
  metadata: Map<string, string | null> | undefined;
  labels: Map<string, string> | undefined;
  annotations: Map<string, string> | undefined;
}

/** A map under metadata: the indent of its keys, once seen. */
interface Level {
  indent: number | undefined;
}

class Scan {
  private position = 0;
  private readonly found: Array<Identity | undefined> = [];
  private current: DocumentState | undefined;
  /** Under `metadata:`, and under its `labels:` or `annotations:`. */
  private metadata: Level | undefined;
  private entries: (Level & { into: Map<string, string> }) | undefined;
  /** The last key at this indent (column 0, or metadata's) holds no value on its line: its list may start at the key's own indent. */
  private topListMayFollow = false;
  private metadataListMayFollow = false;
  /** Inside a block scalar whose content is indented more than this. */
  private blockParent = -1;
  /**
   * The column of the key (or `- `) whose value on the line before was a scalar, else -1. A
   * deeper line would continue that scalar over lines, or be an error the parser recovers from
   * in ways the scan does not follow.
   */
  private scalarColumn = -1;
  /** The column of the key (or `- `) of a plain scalar the scan skips, which may go on over deeper lines; else -1. */
  private plainColumn = -1;
  /** Inside a quoted scalar the scan skips, opened by a key (or `- `) at `parent`. */
  private openQuote: { quote: string; parent: number } | undefined;

  constructor(private readonly text: string) {}

  documents(): Array<Identity | undefined> {
    while (this.position < this.text.length) {
      let end = this.text.indexOf('\n', this.position);
      if (end === -1) end = this.text.length;
      this.line(this.text.slice(this.position, end));
      this.position = end + 1;
    }
    this.close();
    return this.found;
  }

  private line(line: string): void {
    const content = line.trimStart();
    const indent = line.length - content.length;
    if (this.openQuote) return this.quotedLine(content, indent, this.openQuote);
    if (this.blockParent >= 0) {
      if (content === '' || indent > this.blockParent) return;
      this.blockParent = -1;
    }
    if (content === '') return;
    if (content.startsWith('#')) {
      // A comment ends a plain scalar: a deeper line after it is no longer part of it.
      if (this.plainColumn >= 0) this.scalarColumn = this.plainColumn;
      this.plainColumn = -1;
      return;
    }
    if (this.plainColumn >= 0 && indent > this.plainColumn) {
      if (!continuesPlain(content)) giveUp();
      return;
    }
    this.plainColumn = -1;
    if (this.scalarColumn >= 0 && indent > this.scalarColumn) giveUp();
    this.scalarColumn = -1;
    if (indent === 0) this.topLine(line);
    else this.nestedLine(line, indent);
  }

  private topLine(line: string): void {
    if (this.topListMayFollow && isListItem(line)) return this.skippedLine(line, 0);
    this.topListMayFollow = false;
    this.metadata = undefined;
    this.entries = undefined;
    if (line.startsWith('---') && (line.length === 3 || line[3] === ' ')) {
      if (withoutComment(line.slice(3).trim()) !== '') giveUp();
      this.close();
      this.current = newDocument();
      return;
    }
    const key = plainKey.exec(line)?.[0] ?? giveUp();
    const document = (this.current ??= newDocument());
    if (document.top.has(key)) giveUp();
    const value = line.slice(key.length + 1).trim();
    const read = key === 'apiVersion' || key === 'kind';
    document.top.set(key, read ? readScalar(value) : null);
    if (read) this.scalarColumn = 0;
    else if (key === 'metadata') {
      if (withoutComment(value) !== '') giveUp();
      document.metadata = new Map();
      this.metadata = { indent: undefined };
    } else {
      this.skipValue(value, 0);
      this.topListMayFollow = withoutComment(value) === '';
    }
  }

  private nestedLine(line: string, indent: number): void {
    // A document whose root starts indented is not a map of column-0 keys.
    if (!this.current || this.current.top.size === 0) giveUp();
    const metadata = this.metadata;
    if (!metadata) return this.skippedLine(line, indent);
    metadata.indent ??= indent;
    if (indent < metadata.indent) giveUp();
    if (indent === metadata.indent) {
      if (this.metadataListMayFollow && isListItem(line.slice(indent))) return this.skippedLine(line, indent);
      return this.metadataLine(line.slice(indent), indent);
    }
    const entries = this.entries;
    if (!entries) return this.skippedLine(line, indent);
    entries.indent ??= indent;
    if (indent < entries.indent) giveUp();
    if (indent > entries.indent) return this.skippedLine(line, indent);
    const content = line.slice(indent);
    const key = plainKey.exec(content)?.[0] ?? giveUp();
    if (entries.into.has(key)) giveUp();
    const value = content.slice(key.length + 1).trim();
    // An empty value is null (no entry); a value on the lines below it is not read here.
    if (withoutComment(value) !== '') entries.into.set(key, readScalar(value));
    // Either way a deeper line is not read here: a map or list there is no string entry, a scalar would be one.
    this.scalarColumn = indent;
  }

  private metadataLine(content: string, indent: number): void {
    const metadata = this.current!.metadata!;
    const key = plainKey.exec(content)?.[0] ?? giveUp();
    if (metadata.has(key)) giveUp();
    const value = content.slice(key.length + 1).trim();
    const read = key === 'name' || key === 'namespace';
    metadata.set(key, read ? readScalar(value) : null);
    this.entries = undefined;
    this.metadataListMayFollow = false;
    if (read) this.scalarColumn = indent;
    else if (key === 'labels' || key === 'annotations') {
      const into = new Map<string, string>();
      this.current![key] = into;
      const inline = withoutComment(value);
      if (inline !== '' && inline !== '{}') giveUp();
      this.entries = { indent: undefined, into };
    } else {
      this.skipValue(value, indent);
      this.metadataListMayFollow = withoutComment(value) === '';
    }
  }

  /** A line inside a value the scan does not read: its quotes and brackets must close on it. */
  private skippedLine(line: string, indent: number): void {
    let column = indent;
    let rest = line.slice(indent);
    // Past `- ` items and a `key: `: where the value starts, and the column its block scalar would be indented under.
    let parent = column;
    while (rest.startsWith('- ') || rest === '-') {
      parent = column;
      const after = rest.slice(1).trimStart();
      column += rest.length - after.length;
      rest = after;
    }
    if (rest.startsWith('? ') || rest === '?') giveUp();
    const keyLength = keyOf(rest);
    if (keyLength !== undefined) {
      parent = column;
      rest = rest.slice(keyLength + 1).trimStart();
    }
    this.skipValue(rest, parent);
  }

  /**
   * A value the scan does not read, on the line of its key (or `- `) at `parent`: a block
   * scalar's lines are skipped; a quoted or flow one must close on its line; a plain one must be
   * one (no `: ` in it); after any of those, a deeper line is not followed.
   */
  private skipValue(value: string, parent: number): void {
    let rest = value;
    // Anchors and tags before a value do not change where its lines end.
    while (rest.startsWith('&') || rest.startsWith('!')) rest = rest.replace(/^\S*\s*/, '');
    if (blockHeader.test(rest)) {
      this.blockParent = parent;
      return;
    }
    if (/^["']/.test(rest)) {
      // A quoted value may hold `: ` and `#`: only what follows its closing quote counts.
      const end = quotedEnd(rest);
      if (end === undefined) this.openQuote = { quote: rest[0], parent };
      else {
        endsValue(rest.slice(end));
        this.scalarColumn = parent;
      }
      return;
    }
    if (/^[\[{]/.test(rest)) {
      if (!closesOnLine(rest)) giveUp();
      this.scalarColumn = parent;
      return;
    }
    const plain = withoutComment(rest);
    if (plain.includes(': ') || plain.endsWith(':')) giveUp();
    if (plain === '') return;
    if (plain === rest.trim()) this.plainColumn = parent;
    else this.scalarColumn = parent;
  }

  /** A line inside a quoted scalar the scan skips: indented under its key, until the quote closes. */
  private quotedLine(content: string, indent: number, open: { quote: string; parent: number }): void {
    if (content === '') return;
    if (indent <= open.parent) giveUp();
    const end = quotedEnd(open.quote + content);
    if (end === undefined) return;
    endsValue(content.slice(end - 1));
    this.openQuote = undefined;
    this.scalarColumn = open.parent;
  }

  private close(): void {
    const document = this.current;
    if (!document) return;
    this.found.push(identityOf(document));
    this.current = undefined;
  }
}

/** A line that goes on with a plain scalar: text with nothing that would make it a key, a comment or a list item. */
function continuesPlain(content: string): boolean {
  return !/^(?:[-?:](?: |$)|#)/.test(content) && !content.includes(': ') && !content.endsWith(':') && !content.includes(' #');
}

/** What follows a quoted value on its line: nothing, or a comment. */
function endsValue(after: string): void {
  const rest = after.trim();
  if (rest !== '' && !rest.startsWith('#')) giveUp();
}

function isListItem(content: string): boolean {
  return content.startsWith('- ') || content === '-';
}

function newDocument(): DocumentState {
  return { top: new Map(), metadata: undefined, labels: undefined, annotations: undefined };
}

function identityOf(document: DocumentState): Identity | undefined {
  const apiVersion = document.top.get('apiVersion');
  const kind = document.top.get('kind');
  if (!kind || !apiVersion) return undefined;
  const metadata = document.metadata;
  return {
    apiVersion,
    kind,
    name: metadata?.get('name') ?? '',
    namespace: metadata?.get('namespace') ?? undefined,
    labels: document.labels && document.labels.size > 0 ? document.labels : noEntries,
    annotations: document.annotations && document.annotations.size > 0 ? document.annotations : noEntries,
  };
}

/** The length of a key at the start of `rest` (plain, or quoted and closed) up to its `:`, or undefined when the line holds none. */
function keyOf(rest: string): number | undefined {
  if (rest.startsWith('"') || rest.startsWith("'")) {
    const end = quotedEnd(rest);
    if (end === undefined) return undefined;
    return rest[end] === ':' && (end + 1 === rest.length || rest[end + 1] === ' ') ? end : undefined;
  }
  if (/^[\[{]/.test(rest)) return undefined;
  const colon = /:(?: |$)/.exec(rest)?.index;
  const comment = rest.indexOf(' #');
  return colon === undefined || (comment !== -1 && comment < colon) ? undefined : colon;
}

/** A scalar value the scan reads: plain or quoted without escapes, on one line. */
function readScalar(value: string): string {
  const text = withoutComment(value);
  if (text === '') giveUp();
  if (text.startsWith('"')) {
    if (text.includes('\\') || quotedEnd(text) !== text.length) giveUp();
    return text.slice(1, -1);
  }
  if (text.startsWith("'")) {
    if (quotedEnd(text) !== text.length || text.slice(1, -1).includes("'")) giveUp();
    return text.slice(1, -1);
  }
  if (/^[-?:,\[\]{}#&*!|>%@`]/.test(text) || nullWord.test(text) || text.includes(': ') || text.endsWith(':')) giveUp();
  return text;
}

/** The value without a trailing comment; a `#` inside quotes is kept, and only a space before it starts a comment. */
function withoutComment(value: string): string {
  if (value.startsWith('"') || value.startsWith("'")) {
    const end = quotedEnd(value) ?? giveUp();
    endsValue(value.slice(end));
    return value.slice(0, end);
  }
  if (value.startsWith('#')) return '';
  const hash = value.indexOf(' #');
  return (hash === -1 ? value : value.slice(0, hash)).trim();
}

/** Where a quoted scalar at the start of `text` ends (just past its closing quote), or undefined when it does not close on the line. */
function quotedEnd(text: string): number | undefined {
  const quote = text[0];
  for (let i = 1; i < text.length; i++) {
    const c = text[i];
    if (quote === '"' && c === '\\') i++;
    else if (c === quote) {
      if (quote === "'" && text[i + 1] === "'") i++;
      else return i + 1;
    }
  }
  return undefined;
}

/** Whether a flow value closes on its line (quotes inside it counted). */
function closesOnLine(value: string): boolean {
  let depth = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '"' || c === "'") {
      const end = quotedEnd(value.slice(i));
      if (end === undefined) return false;
      i += end - 1;
    } else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') {
      depth--;
      if (depth === 0) return true;
    } else if (c === '#' && value[i - 1] === ' ') return false;
  }
  return false;
}
