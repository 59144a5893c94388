/**
 * Which prefixes of a value a glob matches, all at once.
 *
 * `#` and `##` (and `%`, `%%`, which trim the reversed value) ask Go's matcher about the
 * prefixes of the value one at a time, and one answer can cost the length of the prefix times
 * the pattern: quadratic in the value in all. This gives every answer Go's matcher gives
 * (match, no match or ErrBadPattern, for each prefix length) in time proportional to the
 * value length times the pattern length.
 *
 * How. Go's matcher takes the chunks of a pattern in order. The first chunk is tried where the
 * name starts; a chunk after stars is tried at each position from where the previous chunk
 * ended and kept at the first position where it matches (the last chunk: where it matches up
 * to the end of the name). Trying a chunk at a position walks its elements forward, and that
 * walk is the same in a prefix as in the whole value as long as it stays inside the prefix.
 * So each chunk is walked once from every position of the whole value, and then every prefix
 * looks up, in those walks, where its chunks match.
 *
 * The one walk that differs: a prefix that ends inside a multi-byte character has that
 * character's bytes read as single invalid runes, so a rune element (`?`, a class) there
 * takes one byte instead of the whole character. Only the last three elements of a chunk can
 * still complete in the three bytes at most that are left, so walks note where such an
 * element meets such a character, and those prefixes finish the noted walks on their own.
 */
import { type ByteString, decodeRune, isAscii, RUNE_ERROR, runeOf, widthOf } from './bytes';
import { elementAccepts, type GlobChunk, type GlobPattern } from './glob';

export const NO_MATCH = 0;
export const MATCH = 1;
export const BAD_PATTERN = 2;

/** Marks a prefix whose outcome is known, in place of a position in the value. */
const DECIDED = -1;

/**
 * For each prefix length from 1 to the value's length, what Go's path.Match (as envsubst forked
 * it) returns for the pattern and that prefix: NO_MATCH, MATCH or BAD_PATTERN. Index 0 is unused.
 */
export function matchPrefixes(pattern: GlobPattern, value: ByteString): Uint8Array {
  const size = value.length;
  const outcomes = new Uint8Array(size + 1);
  // Where each prefix has got to: the end of the last chunk it matched, or DECIDED.
  const cursors = new Int32Array(size + 1);
  const cuts = isAscii(value) ? undefined : multiByteCuts(value);
  const { chunks } = pattern;
  for (let index = 0; index < chunks.length; index++) {
    const chunk = chunks[index];
    if (chunk === undefined) break;
    const role: ChunkRole = chunk.malformed ? 'malformed' : index === chunks.length - 1 && !pattern.trailingStar ? 'last' : 'inner';
    const walks = new ChunkWalks(chunk, role, value, cuts, lowestCursor(cursors));
    for (let length = 1; length <= size; length++) {
      const from = cursors[length] ?? DECIDED;
      if (from === DECIDED) continue;
      if (role === 'inner') {
        const end = walks.firstEnd(from, length);
        cursors[length] = end;
        if (end === DECIDED) outcomes[length] = NO_MATCH;
        continue;
      }
      if (role === 'last') outcomes[length] = walks.endsAt(from, length) ? MATCH : NO_MATCH;
      else outcomes[length] = walks.reachesMalformed(from, length) ? BAD_PATTERN : NO_MATCH;
      cursors[length] = DECIDED;
    }
  }
  // The prefixes that matched every chunk: trailing stars match whatever is left, and an
  // empty pattern matches only the empty name, which is never asked about.
  for (let length = 1; length <= size; length++) if (cursors[length] !== DECIDED) outcomes[length] = pattern.trailingStar ? MATCH : NO_MATCH;
  return outcomes;
}

/**
 * What a chunk decides: an inner chunk moves the prefix on to where it matched; the last one
 * (with no trailing star) must match up to the end of the prefix; a malformed one can only
 * fail, with ErrBadPattern when it is reached with some of the prefix left.
 */
type ChunkRole = 'inner' | 'last' | 'malformed';

function lowestCursor(cursors: Int32Array): number {
  let lowest = cursors.length;
  for (let i = 1; i < cursors.length; i++) {
    const cursor = cursors[i] ?? DECIDED;
    if (cursor !== DECIDED && cursor < lowest) lowest = cursor;
  }
  return lowest;
}

/**
 * For each prefix length, the start of the multi-byte character it ends inside, or -1.
 * Valid UTF-8 characters never overlap, so there is at most one.
 */
function multiByteCuts(value: ByteString): Int32Array {
  const cuts = new Int32Array(value.length + 1).fill(-1);
  for (let at = 0; at < value.length; ) {
    const width = widthOf(decodeRune(value, at));
    for (let length = at + 1; length < at + width; length++) cuts[length] = at;
    at += width;
  }
  return cuts;
}

/** Every walk of one chunk over the whole value, indexed for the questions its role asks. */
class ChunkWalks {
  private readonly elements: GlobChunk['elements'];
  /** For each start, where the walk gets past the last element, or -1 when it fails first. */
  private readonly reach: Int32Array;
  /**
   * inner: the first start at or after each position whose walk gets through (the value's
   * length when none); last: the greatest start whose walk ends at each position (or -1);
   * malformed: the least `reach` of the starts at or after each position.
   */
  private readonly index: Int32Array;
  /** Walks that met a multi-byte character with one of their last three elements, by that character's start. */
  private readonly cutNotes: CutNotes | undefined;

  constructor(
    chunk: GlobChunk,
    role: ChunkRole,
    private readonly value: ByteString,
    private readonly cuts: Int32Array | undefined,
    firstStart: number,
  ) {
    const size = value.length;
    this.elements = chunk.elements;
    this.reach = new Int32Array(size + 1).fill(-1);
    this.cutNotes = cuts === undefined ? undefined : new CutNotes(size);
    // Without stars the chunk is the first one and is only tried where the name starts.
    const lastStart = chunk.star ? size - 1 : Math.min(0, size - 1);
    for (let start = firstStart; start <= lastStart; start++) this.reach[start] = this.walk(start);
    this.index = role === 'inner' ? this.nextReaching() : role === 'last' ? this.latestStartByEnd() : this.leastReachFrom();
  }

  /**
   * Where the first start at or after `from` whose walk gets through within the prefix ends,
   * or DECIDED when there is none.
   */
  firstEnd(from: number, length: number): number {
    const { reach, index } = this;
    const size = this.value.length;
    const count = this.elements.length;
    let found = size;
    // An element takes at least one byte, so a walk from past `length - count` cannot end in
    // the prefix. The walks skipped here end past the prefix, which puts their starts within 3
    // bytes per element of the first one (an element takes at most 4): the loop is short.
    for (let start = index[from] ?? size; start + count <= length; start = index[start + 1] ?? size) {
      if ((reach[start] ?? size + 1) <= length) {
        found = start;
        break;
      }
    }
    const cut = this.cutIn(length);
    const notes = this.cutNotes;
    if (cut >= 0 && notes !== undefined) {
      for (let note = notes.first(cut); note >= 0 && notes.start(note) < found; note = notes.next(note)) {
        if (notes.start(note) < from) continue;
        const reached = this.finishAtCut(cut, notes.element(note), length);
        if (reached >= 0) return reached;
      }
    }
    return found < size ? (reach[found] ?? DECIDED) : DECIDED;
  }

  /** Whether some start at or after `from` has a walk that ends exactly at the end of the prefix. */
  endsAt(from: number, length: number): boolean {
    if ((this.index[length] ?? -1) >= from) return true;
    return this.someCutWalk(from, length, (reached) => reached === length);
  }

  /** Whether some start at or after `from` has a walk that reaches the malformed part before the end of the prefix. */
  reachesMalformed(from: number, length: number): boolean {
    if ((this.index[from] ?? length) < length) return true;
    return this.someCutWalk(from, length, (reached) => reached >= 0 && reached < length);
  }

  /** Walks the elements from `start` over the whole value: where it gets past the last one, or -1. */
  private walk(start: number): number {
    const { value, elements, cutNotes } = this;
    const count = elements.length;
    let at = start;
    for (let i = 0; i < count; i++) {
      if (at >= value.length) return -1;
      const element = elements[i];
      if (element === undefined) return -1;
      if (element.kind === 'byte') {
        if (value.charCodeAt(at) !== element.byte) return -1;
        at++;
        continue;
      }
      const packed = decodeRune(value, at);
      const width = widthOf(packed);
      // Noted before the test: the prefix reads a lone invalid rune here, which may match where the character does not.
      if (cutNotes !== undefined && width > 1 && i >= count - 3) cutNotes.add(at, start, i);
      if (!elementAccepts(element, runeOf(packed))) return -1;
      at += width;
    }
    return at;
  }

  /**
   * Finishes, in a prefix that ends inside the character at `cut`, a walk that met that character
   * with rune element `element`: there each byte is one invalid rune. Returns where the walk
   * gets past the last element, or -1.
   */
  private finishAtCut(cut: number, element: number, length: number): number {
    const { elements, value } = this;
    let at = cut;
    for (let i = element; i < elements.length; i++) {
      const current = elements[i];
      if (at >= length || current === undefined) return -1;
      if (!elementAccepts(current, current.kind === 'byte' ? value.charCodeAt(at) : RUNE_ERROR)) return -1;
      at++;
    }
    return at;
  }

  private someCutWalk(from: number, length: number, accepts: (reached: number) => boolean): boolean {
    const cut = this.cutIn(length);
    const notes = this.cutNotes;
    if (cut < 0 || notes === undefined) return false;
    for (let note = notes.first(cut); note >= 0; note = notes.next(note)) {
      if (notes.start(note) >= from && accepts(this.finishAtCut(cut, notes.element(note), length))) return true;
    }
    return false;
  }

  private cutIn(length: number): number {
    return this.cuts?.[length] ?? -1;
  }

  private nextReaching(): Int32Array {
    const { reach } = this;
    const size = this.value.length;
    const next = new Int32Array(size + 1);
    next[size] = size;
    for (let start = size - 1; start >= 0; start--) next[start] = (reach[start] ?? -1) >= 0 ? start : (next[start + 1] ?? size);
    return next;
  }

  private latestStartByEnd(): Int32Array {
    const { reach } = this;
    const latest = new Int32Array(this.value.length + 1).fill(-1);
    for (let start = 0; start < reach.length; start++) {
      const reached = reach[start] ?? -1;
      if (reached >= 0) latest[reached] = start;
    }
    return latest;
  }

  private leastReachFrom(): Int32Array {
    const { reach } = this;
    const size = this.value.length;
    const least = new Int32Array(size + 1);
    // No walk starts at the end; size + 1 stands for none, as no prefix is that long.
    least[size] = size + 1;
    for (let start = size - 1; start >= 0; start--) {
      const reached = reach[start] ?? -1;
      const after = least[start + 1] ?? size + 1;
      least[start] = reached >= 0 && reached < after ? reached : after;
    }
    return least;
  }
}

/** For each position, the walks noted there (their start and element), as linked lists in flat arrays. */
class CutNotes {
  private readonly firstAt: Int32Array;
  private readonly lastAt: Int32Array;
  private count = 0;
  /** For each note: its start, its element and the next note at the same position (or -1), in triples. */
  private notes = new Int32Array(3 * 64);

  constructor(size: number) {
    this.firstAt = new Int32Array(size).fill(-1);
    this.lastAt = new Int32Array(size).fill(-1);
  }

  /** Walks run in order of their start, so each list is sorted by start. */
  add(position: number, start: number, element: number): void {
    const note = this.count++;
    if (3 * this.count > this.notes.length) {
      const grown = new Int32Array(this.notes.length * 2);
      grown.set(this.notes);
      this.notes = grown;
    }
    this.notes[3 * note] = start;
    this.notes[3 * note + 1] = element;
    this.notes[3 * note + 2] = -1;
    const last = this.lastAt[position] ?? -1;
    if (last < 0) this.firstAt[position] = note;
    else this.notes[3 * last + 2] = note;
    this.lastAt[position] = note;
  }

  /** The first note at `position`, or -1. */
  first(position: number): number {
    return this.firstAt[position] ?? -1;
  }

  /** The note after `note` at the same position, or -1. */
  next(note: number): number {
    return this.notes[3 * note + 2] ?? -1;
  }

  start(note: number): number {
    return this.notes[3 * note] ?? 0;
  }

  element(note: number): number {
    return this.notes[3 * note + 1] ?? 0;
  }
}
