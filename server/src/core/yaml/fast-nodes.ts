/**
 * yaml nodes made quickly, for the block-subset reader: the same classes, values and scalar
 * typing (YAML 1.2 core schema) the composer gives, without what makes its constructors slow.
 */
import { Document, Pair, Scalar, YAMLMap, YAMLSeq, type Node } from 'yaml';

interface ScalarTag {
  test?: RegExp;
  format?: string;
  resolve(value: string, onError: (message: string) => void, options: object): unknown;
}

let coreTags: ScalarTag[] | undefined;

/** The core schema's implicit scalar tags, in the order the composer tries them. */
function implicitTags(): ScalarTag[] {
  coreTags ??= (new Document().schema.tags as unknown as Array<ScalarTag & { default?: unknown; collection?: string }>).filter((tag) => tag.default === true && !tag.collection && tag.test);
  return coreTags;
}

/** Could the core schema read this plain scalar as anything but a string (null, bool, number)? */
function mayBeTyped(source: string): boolean {
  if (source === '') return true;
  const c = source.charCodeAt(0);
  // Digits, `+`, `-`, `.`, `~`: numbers, .inf/.nan, null.
  if ((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46 || c === 126) return true;
  // Letters: only null, true and false in their three spellings.
  return source.length <= 5 && typedWords.has(source);
}

const typedWords = new Set(['null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE']);

/**
 * Keys repeat in every manifest (apiVersion, kind, metadata, name): one string for each spelling
 * keeps the index small. Bounded, so a hostile repository cannot grow it without end.
 */
const keyStrings = new Map<string, string>();
const maxKeyStrings = 4096;

export function interned(key: string): string {
  const known = keyStrings.get(key);
  if (known !== undefined) return known;
  if (keyStrings.size < maxKeyStrings && key.length <= 64) keyStrings.set(key, key);
  return key;
}

type Range3 = [number, number, number];

const nodeType = Symbol.for('yaml.node.type');

/**
 * yaml's node constructors tag each node with `Object.defineProperty`, which costs more than
 * reading the rest of a manifest. These classes carry the tag on a prototype that inherits
 * from yaml's own, so `isScalar`, `isMap`, `instanceof` and every method work unchanged.
 */
class FastScalar {
  /** The range array, made when first read: most scalars' ranges never are. */
  private made: Range3 | undefined = undefined;

  constructor(
    public value: unknown,
    private start: number,
    private end: number,
    private nodeEnd: number,
    public source: string,
    public type: Scalar.Type,
  ) {}

  get range(): Range3 {
    this.made ??= [this.start, this.end, this.nodeEnd];
    return this.made;
  }

  set range(range: Range3) {
    this.made = range;
  }

  /** Moves the scalar by `delta` without making its range array. */
  move(delta: number): void {
    if (this.made) {
      this.made[0] += delta;
      this.made[1] += delta;
      this.made[2] += delta;
    } else {
      this.start += delta;
      this.end += delta;
      this.nodeEnd += delta;
    }
  }
}

/**
 * Moves a node's range by `delta` (an edit above it). A fast scalar keeps not having a range
 * array: moving every scalar below an edit used to make one for each.
 */
export function moveNode(node: Node, delta: number): void {
  if (node instanceof FastScalar) return node.move(delta);
  const range = node.range;
  if (!range) return;
  range[0] += delta;
  range[1] += delta;
  range[2] += delta;
}
/** Whether a scalar has a range, without making a fast scalar's range array (most are never read). */
export function hasRange(node: Scalar): boolean {
  return node instanceof FastScalar || node.range != null;
}

class FastMap {
  range: Range3 | undefined = undefined;
  constructor(public items: Pair[]) {}
}
class FastSeq {
  range: Range3 | undefined = undefined;
  constructor(public items: unknown[]) {}
}
class FastPair {
  constructor(
    public key: unknown,
    public value: unknown,
  ) {}
}
for (const [fast, base, tag] of [
  [FastScalar, Scalar, 'yaml.scalar'],
  [FastMap, YAMLMap, 'yaml.map'],
  [FastSeq, YAMLSeq, 'yaml.seq'],
  [FastPair, Pair, 'yaml.pair'],
] as const) {
  Object.setPrototypeOf(fast.prototype, base.prototype);
  Object.defineProperty(fast.prototype, nodeType, { value: Symbol.for(tag) });
}

/** A map of these pairs (the array becomes the map's). */
export function newMap(items: Pair[]): YAMLMap {
  return new FastMap(items) as unknown as YAMLMap;
}

/** A sequence of these items (the array becomes the sequence's). */
export function newSeq(items: unknown[]): YAMLSeq {
  return new FastSeq(items) as unknown as YAMLSeq;
}

export function newPair(key: Scalar, value: Node): Pair {
  return new FastPair(key, value) as unknown as Pair;
}

/** A plain scalar, typed as the composer types it: null, bool, int, float, else a string. */
export function plainScalar(source: string, start: number, end: number, nodeEnd: number): Scalar {
  if (mayBeTyped(source)) {
    for (const tag of implicitTags()) {
      if (!tag.test!.test(source)) continue;
      // The core schema's implicit tags never report an error for a value their test accepted.
      const resolved = tag.resolve(source, () => undefined, { intAsBigInt: false });
      const scalar = resolved instanceof Scalar ? resolved : (new FastScalar(resolved, start, end, nodeEnd, source, 'PLAIN') as unknown as Scalar);
      scalar.range = [start, end, nodeEnd];
      scalar.source = source;
      scalar.type = 'PLAIN';
      if (tag.format) scalar.format = tag.format;
      return scalar;
    }
  }
  return new FastScalar(source, start, end, nodeEnd, source, 'PLAIN') as unknown as Scalar;
}

/** A quoted or block scalar: always a string. */
export function stringScalar(value: string, type: Scalar.Type, start: number, end: number, nodeEnd: number): Scalar {
  return new FastScalar(value, start, end, nodeEnd, value, type) as unknown as Scalar;
}
