/**
 * The parts of Go's strconv that go-yaml v2's resolver leans on, reduced to the one question
 * the encoder asks: would this text parse as a number? Only acceptance matters here, so the
 * functions return booleans and never build the value unless a range check needs it.
 */

const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN_MAGNITUDE = 1n << 63n;
const UINT64_MAX = (1n << 64n) - 1n;

/**
 * Whether `strconv.ParseInt(s, 0, 64)` or `strconv.ParseUint(s, 0, 64)` succeeds.
 * The caller has already removed underscores (the resolver does so before parsing), so an
 * underscore here is simply an invalid digit.
 */
export function goParsesAsInteger(s: string): boolean {
  if (s.length === 0) return false;
  let sign = '';
  let rest = s;
  const first = s.charCodeAt(0);
  if (first === 0x2b || first === 0x2d) {
    sign = s[0];
    rest = s.slice(1);
  }
  const magnitude = parseUnsignedBase0(rest);
  if (magnitude === undefined) return false;
  // ParseUint takes no sign and allows the full uint64 range; ParseInt allows int64 only.
  if (sign === '') return magnitude <= UINT64_MAX;
  return sign === '-' ? magnitude <= INT64_MIN_MAGNITUDE : magnitude <= INT64_MAX;
}

/**
 * Go's base-0 prefix rules: `0x`, `0o`, `0b` need at least one more character, and any other
 * leading `0` means octal (so a bare `0` is octal with no digits, which Go accepts as zero).
 */
function parseUnsignedBase0(s: string): bigint | undefined {
  if (s.length === 0) return undefined;
  let base = 10;
  let digits = s;
  if (s.charCodeAt(0) === 0x30) {
    const prefix = s.length >= 3 ? s[1].toLowerCase() : '';
    if (prefix === 'b') base = 2;
    else if (prefix === 'o') base = 8;
    else if (prefix === 'x') base = 16;
    else base = 8;
    digits = base === 8 && prefix !== 'o' ? s.slice(1) : s.slice(2);
  }
  for (let i = 0; i < digits.length; i++) {
    if (digitValue(digits.charCodeAt(i)) >= base) return undefined;
  }
  if (digits.length === 0) return 0n;
  const radixPrefix = base === 16 ? '0x' : base === 8 ? '0o' : base === 2 ? '0b' : '';
  return BigInt(radixPrefix + digits);
}

/** The digit value Go's ParseUint gives a byte: letters count as 10..35, anything else is invalid. */
function digitValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const lower = c | 0x20;
  if (lower >= 0x61 && lower <= 0x7a) return lower - 0x61 + 10;
  return 99;
}

/**
 * Whether `strconv.ParseFloat(s, 64)` succeeds for a decimal literal: optional sign, digits with
 * an optional point (at least one digit in all), an optional exponent with at least one digit,
 * and underscores only between digits. Values that overflow to infinity are range errors, as
 * in Go; underflow to zero is not an error. Hexadecimal floats and `inf`/`nan` words are not
 * handled because the resolver only calls this for text starting with `.` or text that already
 * matched the YAML float pattern.
 */
export function goParsesAsDecimalFloat(s: string): boolean {
  let i = 0;
  const n = s.length;
  if (i < n && (s[i] === '+' || s[i] === '-')) i++;
  let sawDigits = false;
  let sawDot = false;
  let underscores = false;
  for (; i < n; i++) {
    const c = s[i];
    if (c === '_') {
      underscores = true;
    } else if (c === '.') {
      if (sawDot) break;
      sawDot = true;
    } else if (c >= '0' && c <= '9') {
      sawDigits = true;
    } else {
      break;
    }
  }
  if (!sawDigits) return false;
  if (i < n && (s[i] === 'e' || s[i] === 'E')) {
    i++;
    if (i < n && (s[i] === '+' || s[i] === '-')) i++;
    if (i >= n || s[i] < '0' || s[i] > '9') return false;
    for (; i < n && ((s[i] >= '0' && s[i] <= '9') || s[i] === '_'); i++) {
      if (s[i] === '_') underscores = true;
    }
  }
  if (i !== n) return false;
  if (underscores && !goUnderscoreOk(s)) return false;
  return Number.isFinite(Number(underscores ? s.replace(/_/g, '') : s));
}

/**
 * Go's underscoreOK: underscores may only sit between digits (or after a base prefix), never
 * at the start, the end, or next to a non-digit.
 */
function goUnderscoreOk(s: string): boolean {
  let saw = '^';
  let i = 0;
  if (s.length >= 1 && (s[0] === '-' || s[0] === '+')) s = s.slice(1);
  let hex = false;
  if (s.length >= 2 && s[0] === '0') {
    const p = s[1].toLowerCase();
    if (p === 'b' || p === 'o' || p === 'x') {
      i = 2;
      saw = '0';
      hex = p === 'x';
    }
  }
  for (; i < s.length; i++) {
    const c = s[i];
    const lower = c.toLowerCase();
    if ((c >= '0' && c <= '9') || (hex && lower >= 'a' && lower <= 'f')) {
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
