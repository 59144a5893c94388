/**
 * The reference for the envsubst glob: Go's path.Match as envsubst forked it, ported line for
 * line, one name at a time (`*` and `?` also match `/`; `?` and a `[class]` consume one rune,
 * an invalid byte counting as one U+FFFD rune; ErrBadPattern only when the matcher reaches the
 * malformed part). The engine used to run this on every prefix of a value, which is quadratic;
 * it now answers for all prefixes at once (core/envsubst/glob-prefixes.ts), and the tests
 * check that it agrees with this, the simplest faithful reading of the Go code.
 */
import { type ByteString, decodeRune, runeOf, widthOf } from '../../core/envsubst/bytes';

export type GlobResult = 'match' | 'no-match' | 'bad-pattern';

const STAR = 0x2a;
const QUESTION = 0x3f;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const BACKSLASH = 0x5c;
const CARET = 0x5e;
const MINUS = 0x2d;

/** Results of matching one chunk: the name offset after the match, or one of these. */
const NO_MATCH = -1;
const BAD_PATTERN = -2;

/** Whether the whole of `name` matches `pattern`. */
export function globMatch(pattern: ByteString, name: ByteString): GlobResult {
  let p = 0;
  let n = 0;
  outer: while (p < pattern.length) {
    // A chunk is a run without unbracketed stars, possibly preceded by stars.
    let star = false;
    while (p < pattern.length && pattern.charCodeAt(p) === STAR) {
      p++;
      star = true;
    }
    const chunkStart = p;
    const chunkEnd = chunkEndFrom(pattern, p);
    p = chunkEnd;
    // The fork lets a trailing star match everything, slashes included.
    if (star && chunkStart === chunkEnd) return 'match';
    const after = matchChunk(pattern, chunkStart, chunkEnd, name, n);
    // The last chunk must use up the name; an earlier one may leave the rest to later chunks.
    if (after >= 0 && (after === name.length || p < pattern.length)) {
      n = after;
      continue;
    }
    if (after === BAD_PATTERN) return 'bad-pattern';
    if (star) {
      // Let the star swallow one more byte at a time and retry the chunk there.
      for (let skip = n; skip < name.length; skip++) {
        const retry = matchChunk(pattern, chunkStart, chunkEnd, name, skip + 1);
        if (retry >= 0) {
          if (p === pattern.length && retry < name.length) continue;
          n = retry;
          continue outer;
        }
        if (retry === BAD_PATTERN) return 'bad-pattern';
      }
    }
    return 'no-match';
  }
  return n === name.length ? 'match' : 'no-match';
}

/** Where the chunk starting at `from` ends: at the first star outside brackets, or the end. */
function chunkEndFrom(pattern: ByteString, from: number): number {
  let inClass = false;
  let i = from;
  for (; i < pattern.length; i++) {
    const c = pattern.charCodeAt(i);
    if (c === BACKSLASH) {
      // A trailing backslash is reported by matchChunk.
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

/**
 * Matches pattern[start, end) (literals, `?`, classes, escapes) against the beginning of
 * name[from…]. Running out of name is a mismatch before any check of the rest of the chunk.
 */
function matchChunk(pattern: ByteString, start: number, end: number, name: ByteString, from: number): number {
  let c = start;
  let n = from;
  while (c < end) {
    if (n >= name.length) return NO_MATCH;
    const op = pattern.charCodeAt(c);
    if (op === LBRACKET) {
      const packed = decodeRune(name, n);
      const rune = runeOf(packed);
      n += widthOf(packed);
      c++;
      let negated = false;
      if (c < end && pattern.charCodeAt(c) === CARET) {
        negated = true;
        c++;
      }
      let matched = false;
      let ranges = 0;
      for (;;) {
        if (c < end && pattern.charCodeAt(c) === RBRACKET && ranges > 0) {
          c++;
          break;
        }
        const lo = classMember(pattern, c, end);
        if (lo === BAD_MEMBER) return BAD_PATTERN;
        c = memberEnd;
        let hi = lo;
        if (pattern.charCodeAt(c) === MINUS) {
          hi = classMember(pattern, c + 1, end);
          if (hi === BAD_MEMBER) return BAD_PATTERN;
          c = memberEnd;
        }
        if (lo <= rune && rune <= hi) matched = true;
        ranges++;
      }
      if (matched === negated) return NO_MATCH;
    } else if (op === QUESTION) {
      n += widthOf(decodeRune(name, n));
      c++;
    } else {
      if (op === BACKSLASH) {
        c++;
        if (c >= end) return BAD_PATTERN;
      }
      if (pattern.charCodeAt(c) !== name.charCodeAt(n)) return NO_MATCH;
      c++;
      n++;
    }
  }
  return n;
}

const BAD_MEMBER = -1;
/** Where the member read by the last classMember call ends; a module variable keeps the loop allocation-free. */
let memberEnd = 0;

/**
 * Reads one possibly escaped rune of a class. A member may not start with `-` or `]`, may
 * not be an invalid byte, and must be followed by more of the chunk (the closing `]`).
 */
function classMember(pattern: ByteString, at: number, end: number): number {
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
  if ((rune === 0xfffd && width === 1) || at + width >= end) return BAD_MEMBER;
  memberEnd = at + width;
  return rune;
}
