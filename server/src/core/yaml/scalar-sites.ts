/**
 * The scalars of a parsed YAML document as the rules see them: each with the path to it, its
 * style and source range, and its decoded text mapped back to source offsets (built only when
 * a finding needs it).
 */
import { Scalar, isMap, isPair, isScalar, isSeq, type Document, type Node } from 'yaml';
import type { Range } from '../model';
import { decodeScalar, linearRange, sourceRange, type ScalarStyle, type ScalarText } from './scalar-text';
import { hasRange } from './fast-nodes';
import { partSourceOf, type PartSource } from './part-source';

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
export function scalarsOf(doc: Document.Parsed, fileText: string): ScalarSite[] {
  const source = partSourceOf(doc, fileText);
  const sites: ScalarSite[] = [];
  walkScalars(doc, (node, isKey, link) => sites.push(siteOf(node, isKey, link, source)));
  return sites;
}

/**
 * The scalars whose decoded value holds a `$` (the only ones substitution can change), and
 * how many scalars the document has. Most scalars of a manifest have none: they get no site.
 */
export function scalarsWithDollars(doc: Document.Parsed, fileText: string): { sites: ScalarSite[]; total: number } {
  const source = partSourceOf(doc, fileText);
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

/**
 * How many scalars (keys and values) a node holds, counted as scalarsOf and scalarsWithDollars
 * count them (a scalar without a range is not one), without their paths or sites.
 */
export function countScalars(root: Node | null): number {
  let count = 0;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isScalar(node)) {
      if (hasRange(node)) count++;
    } else if (isMap(node)) {
      for (let i = 0; i < node.items.length; i++) {
        const item = node.items[i];
        if (isPair(item)) stack.push(item.key, item.value);
      }
    } else if (isSeq(node)) {
      for (let i = 0; i < node.items.length; i++) stack.push(node.items[i]);
    }
  }
  return count;
}

function siteOf(node: Scalar & { range: NonNullable<Scalar['range']> }, isKey: boolean, link: PathLink | undefined, source: PartSource): ScalarSite {
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
      if (hasRange(node)) visit(node as Scalar & { range: NonNullable<Scalar['range']> }, isKey, link);
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
  // Sized first: a site keeps its path, and one grown by push had room for seventeen keys.
  let depth = 0;
  for (let at = link; at; at = at.up) depth++;
  const path = new Array<string | number>(depth);
  for (let at = link; at; at = at.up) path[--depth] = at.key;
  return path;
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
    /** The document's own source (part-source.ts): holding the file's text would keep every version of it. */
    private readonly source: PartSource,
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
    const { text, offset } = this.source;
    const range = { start: this.range.start - offset, end: this.range.end - offset };
    const linear = linearRange(text, this.style, range, this.value, from, to);
    return linear ? { start: linear.start + offset, end: linear.end + offset } : sourceRange(this.text, from, to);
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

function decodeSite(node: Scalar, source: PartSource, style: ScalarStyle, { start, end }: Range): ScalarText {
  const raw = source.text.slice(start - source.offset, end - source.offset);
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
