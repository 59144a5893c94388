/**
 * The reference for the envsubst glob: Go's path.Match as envsubst forked it, ported line for
 * line, one name at a time (`*` and `?` also match `/`; `?` and a `[class]` consume one rune,
 * an invalid byte counting as one U+FFFD rune; ErrBadPattern only when the matcher reaches the
 * malformed part). The engine used to run this on every prefix of a value, which is quadratic;
 * it now answers for all prefixes at once (core/envsubst/glob-prefixes.ts), and the tests
 * check that it agrees with this, the simplest faithful reading of the Go code. Reading the
 * pattern (where a chunk ends, one class member) is glob.ts's own; the matching is this file's.
 */
import { type ByteString, decodeRune, runeOf, widthOf } from '../../core/envsubst/bytes';
import { BAD_MEMBER, CARET, LBRACKET, MINUS, QUESTION, RBRACKET, STAR, chunkEndFrom, classMember, lastMemberEnd } from '../../core/envsubst/glob';
import { BACKSLASH } from '../../core/envsubst/scanner';

export type GlobResult = 'match' | 'no-match' | 'bad-pattern';

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
        c = lastMemberEnd();
        let hi = lo;
        if (pattern.charCodeAt(c) === MINUS) {
          hi = classMember(pattern, c + 1, end);
          if (hi === BAD_MEMBER) return BAD_PATTERN;
          c = lastMemberEnd();
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
