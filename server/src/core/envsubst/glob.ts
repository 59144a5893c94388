/**
 * The glob of `#`, `##`, `%` and `%%` (flux.md §3.5): Go's path.Match as envsubst forked it,
 * where `*` and `?` also match `/`. Matching is on bytes, except that `?` and a `[class]`
 * consume one rune (an invalid byte counts as one U+FFFD rune).
 *
 * This file reads a pattern the way Go's matcher reads it as it goes: stars split it into
 * chunks, and each chunk is a series of elements. A malformed part (an empty or unclosed
 * class, a trailing backslash) is kept as the point where its chunk stops, because Go only
 * reports ErrBadPattern when the matcher reaches it with text left, and the trims treat that
 * error differently from a mismatch. What follows a malformed part is never reached.
 */
import { BACKSLASH } from './scanner';
import { type ByteString, decodeRune, RUNE_ERROR, runeOf, widthOf } from './bytes';

export type GlobElement =
  /** One byte, as written or after `\`. */
  | { readonly kind: 'byte'; readonly byte: number }
  /** `?`: any one rune. */
  | { readonly kind: 'rune' }
  /** `[…]` or `[^…]`: one rune in (or, negated, not in) the inclusive ranges, stored as lo, hi pairs. */
  | { readonly kind: 'class'; readonly negated: boolean; readonly ranges: readonly number[] };

export interface GlobChunk {
  /** Stars come before the chunk, so it may match anywhere after the previous chunk, not only right after it. */
  readonly star: boolean;
  /** The elements, up to the end of the chunk or to its malformed part. */
  readonly elements: readonly GlobElement[];
  /** The elements are followed by a malformed part: reaching it with text left is ErrBadPattern. */
  readonly malformed: boolean;
}

export interface GlobPattern {
  /** The chunks up to the end of the pattern or the first malformed one. */
  readonly chunks: readonly GlobChunk[];
  /** The pattern ends with stars, which match whatever is left (the fork lets them match `/`). */
  readonly trailingStar: boolean;
}

export const STAR = 0x2a;
export const QUESTION = 0x3f;
export const LBRACKET = 0x5b;
export const RBRACKET = 0x5d;
export const CARET = 0x5e;
export const MINUS = 0x2d;

const ANY_RUNE: GlobElement = Object.freeze({ kind: 'rune' });

export function compileGlob(pattern: ByteString): GlobPattern {
  const chunks: GlobChunk[] = [];
  let p = 0;
  while (p < pattern.length) {
    let star = false;
    while (p < pattern.length && pattern.charCodeAt(p) === STAR) {
      p++;
      star = true;
    }
    if (p === pattern.length) return { chunks, trailingStar: star };
    const end = chunkEndFrom(pattern, p);
    const chunk = compileChunk(pattern, p, end, star);
    chunks.push(chunk);
    if (chunk.malformed) break;
    p = end;
  }
  return { chunks, trailingStar: false };
}

/** Whether the element accepts the rune (for a byte element: the byte). */
export function elementAccepts(element: GlobElement, rune: number): boolean {
  switch (element.kind) {
    case 'byte':
      return element.byte === rune;
    case 'rune':
      return true;
    case 'class': {
      const { ranges } = element;
      let inside = false;
      for (let i = 0; i + 1 < ranges.length && !inside; i += 2) inside = (ranges[i] ?? 0) <= rune && rune <= (ranges[i + 1] ?? 0);
      return inside !== element.negated;
    }
  }
}

/** Where the chunk starting at `from` ends: at the first star outside brackets, or the end. */
export function chunkEndFrom(pattern: ByteString, from: number): number {
  let inClass = false;
  let i = from;
  for (; i < pattern.length; i++) {
    const c = pattern.charCodeAt(i);
    if (c === BACKSLASH) {
      // A trailing backslash is reported by compileChunk.
      if (i + 1 < pattern.length) i++;
    } else if (c === LBRACKET) {
      inClass = true;
    } else if (c === RBRACKET) {
      inClass = false;
    } else if (c === STAR && !inClass) {
      break;
    }
  }
  return i;
}

/** Reads pattern[start, end) into elements, as Go's matchChunk reads it while matching. */
function compileChunk(pattern: ByteString, start: number, end: number, star: boolean): GlobChunk {
  const elements: GlobElement[] = [];
  const malformed = (): GlobChunk => ({ star, elements, malformed: true });
  let c = start;
  while (c < end) {
    const op = pattern.charCodeAt(c);
    if (op === LBRACKET) {
      c++;
      let negated = false;
      if (c < end && pattern.charCodeAt(c) === CARET) {
        negated = true;
        c++;
      }
      const ranges: number[] = [];
      for (;;) {
        if (c < end && pattern.charCodeAt(c) === RBRACKET && ranges.length > 0) {
          c++;
          break;
        }
        const lo = classMember(pattern, c, end);
        if (lo === BAD_MEMBER) return malformed();
        c = memberEnd;
        let hi = lo;
        if (pattern.charCodeAt(c) === MINUS) {
          hi = classMember(pattern, c + 1, end);
          if (hi === BAD_MEMBER) return malformed();
          c = memberEnd;
        }
        ranges.push(lo, hi);
      }
      elements.push({ kind: 'class', negated, ranges });
    } else if (op === QUESTION) {
      elements.push(ANY_RUNE);
      c++;
    } else {
      if (op === BACKSLASH) {
        c++;
        if (c >= end) return malformed();
      }
      elements.push({ kind: 'byte', byte: pattern.charCodeAt(c) });
      c++;
    }
  }
  return { star, elements, malformed: false };
}

export const BAD_MEMBER = -1;
/** Where the member read by the last classMember call ends; a module variable keeps the loop allocation-free. */
let memberEnd = 0;

/** Where the member read by the last classMember call ends. */
export function lastMemberEnd(): number {
  return memberEnd;
}

/**
 * Reads one possibly escaped rune of a class. A member may not start with `-` or `]`, may
 * not be an invalid byte, and must be followed by more of the chunk (the closing `]`).
 */
export function classMember(pattern: ByteString, at: number, end: number): number {
  if (at >= end) return BAD_MEMBER;
  const c = pattern.charCodeAt(at);
  if (c === MINUS || c === RBRACKET) return BAD_MEMBER;
  if (c === BACKSLASH) {
    at++;
    if (at >= end) return BAD_MEMBER;
  }
  const packed = decodeRune(pattern, at);
  const rune = runeOf(packed);
  const width = widthOf(packed);
  // decodeRune may read past the chunk only if the chunk ends mid-rune, which then fails below.
  if ((rune === RUNE_ERROR && width === 1) || at + width >= end) return BAD_MEMBER;
  memberEnd = at + width;
  return rune;
}
