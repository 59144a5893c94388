/**
 * The parts of Go's strconv that go-yaml v3's resolver leans on. The resolver asks "does
 * strconv accept this text?", so what matters here is exactly which texts Go accepts, and
 * the value it returns: integers as bigints (int64 and uint64 both exceed 2^53), floats as
 * IEEE doubles (JS and Go both round decimal text correctly, so `Number` gives Go's value).
 */

const MAX_INT64 = (1n << 63n) - 1n;
const MIN_INT64 = -(1n << 63n);
const MAX_UINT64 = (1n << 64n) - 1n;

/** Go `strconv.ParseUint(s, 0, 64)`: base prefixes 0b/0o/0x, a bare leading 0 means octal. */
export function parseUint64Base0(s: string): bigint | undefined {
  if (s === '') return undefined;
  const original = s;
  let base = 10;
  if (s[0] === '0') {
    const marker = s.length >= 3 ? s[1].toLowerCase() : '';
    if (marker === 'b' || marker === 'o' || marker === 'x') {
      base = marker === 'b' ? 2 : marker === 'o' ? 8 : 16;
      s = s.slice(2);
    } else {
      base = 8;
      s = s.slice(1);
    }
  }
  let value = 0n;
  let underscores = false;
  for (const c of s) {
    if (c === '_') {
      underscores = true;
      continue;
    }
    const digit = digitValue(c);
    if (digit === undefined || digit >= base) return undefined;
    value = value * BigInt(base) + BigInt(digit);
    if (value > MAX_UINT64) return undefined;
  }
  if (underscores && !underscoreOK(original)) return undefined;
  return value;
}

/** Go `strconv.ParseInt(s, 0, 64)`: an optional sign, then ParseUint's syntax, within int64. */
export function parseInt64Base0(s: string): bigint | undefined {
  if (s === '') return undefined;
  let negative = false;
  if (s[0] === '+' || s[0] === '-') {
    negative = s[0] === '-';
    s = s.slice(1);
  }
  const magnitude = parseUint64Base0(s);
  if (magnitude === undefined) return undefined;
  const value = negative ? -magnitude : magnitude;
  return value < MIN_INT64 || value > MAX_INT64 ? undefined : value;
}

/** Go `strconv.ParseUint(s, base, 64)` for an explicit base (no prefixes, no underscores). */
export function parseUint64InBase(s: string, base: number): bigint | undefined {
  if (s === '') return undefined;
  let value = 0n;
  for (const c of s) {
    const digit = digitValue(c);
    if (digit === undefined || digit >= base) return undefined;
    value = value * BigInt(base) + BigInt(digit);
    if (value > MAX_UINT64) return undefined;
  }
  return value;
}

/** Go `strconv.ParseInt(s, base, 64)` for an explicit base. */
export function parseInt64InBase(s: string, base: number): bigint | undefined {
  let negative = false;
  if (s[0] === '+' || s[0] === '-') {
    negative = s[0] === '-';
    s = s.slice(1);
  }
  const magnitude = parseUint64InBase(s, base);
  if (magnitude === undefined) return undefined;
  const value = negative ? -magnitude : magnitude;
  return value < MIN_INT64 || value > MAX_INT64 ? undefined : value;
}

const DECIMAL_FLOAT = /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/;

/**
 * Go `strconv.ParseFloat(s, 64)` restricted to decimal text, which is all the resolver can
 * hand it (its callers only pass text starting with '.' or matching go-yaml's float regex).
 * Go reports overflow to infinity as an error, and go-yaml then keeps the text as a string.
 */
export function parseDecimalFloat(s: string): number | undefined {
  let digits = s;
  if (s.includes('_')) {
    if (!underscoreOK(s)) return undefined;
    digits = s.replace(/_/g, '');
  }
  if (!DECIMAL_FLOAT.test(digits)) return undefined;
  const value = Number(digits);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * Go's rule for digit separators: an underscore must sit between two digits, or between a
 * base prefix and a digit.
 */
function underscoreOK(s: string): boolean {
  let saw = '^';
  let i = 0;
  if (s.length >= 1 && (s[0] === '-' || s[0] === '+')) s = s.slice(1);
  let hex = false;
  if (s.length >= 2 && s[0] === '0' && 'box'.includes(s[1].toLowerCase())) {
    i = 2;
    saw = '0';
    hex = s[1].toLowerCase() === 'x';
  }
  for (; i < s.length; i++) {
    const c = s[i];
    if ((c >= '0' && c <= '9') || (hex && c.toLowerCase() >= 'a' && c.toLowerCase() <= 'f')) {
      saw = '0';
      continue;
    }
    if (c === '_') {
      if (saw !== '0') return false;
      saw = '_';
      continue;
    }
    if (saw === '_') return false;
    saw = '!';
  }
  return saw !== '_';
}

/** Go reads digits byte by byte, so only ASCII letters and digits count. */
function digitValue(c: string): number | undefined {
  const code = c.charCodeAt(0);
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 122) return code - 87;
  if (code >= 65 && code <= 90) return code - 55;
  return undefined;
}
