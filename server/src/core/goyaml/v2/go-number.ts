/**
 * Go's `strconv` number parsing and float formatting, as far as go-yaml (v2 and v3 resolve
 * numbers alike) and sigs.k8s.io/yaml depend on them. Integers come back as bigints, since
 * int64 and uint64 both exceed 2^53; floats as doubles, since JS and Go both round decimal
 * text correctly.
 */

const MAX_INT64 = (1n << 63n) - 1n;
const MAX_UINT64 = (1n << 64n) - 1n;

const SMALL_DECIMAL = /^(?:0|[1-9][0-9]{0,14})$/;

/** The digit value Go's ParseUint gives a byte: letters count as 10..35, anything else is invalid. */
function digitValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const lower = c | 0x20;
  if (lower >= 0x61 && lower <= 0x7a) return lower - 0x61 + 10;
  return 99;
}

/**
 * `strconv.ParseUint(s, base, 64)`: returns null on any syntax or range error. Base 0 reads
 * the prefixes `0x`, `0o`, `0b` (each needs one more character) and takes any other leading
 * `0` as octal; it also allows `_` between digits. An explicit base allows neither.
 */
export function parseGoUint64(s: string, base = 0): bigint | null {
  if (s.length === 0) return null;
  const base0 = base === 0;
  const original = s;
  if (base0) {
    if (SMALL_DECIMAL.test(s)) return BigInt(s);
    base = 10;
    if (s.charCodeAt(0) === 0x30) {
      const p = s.length >= 3 ? s.charCodeAt(1) | 0x20 : 0;
      base = p === 0x62 /* b */ ? 2 : p === 0x78 /* x */ ? 16 : 8;
      s = s.slice(p === 0x62 || p === 0x6f /* o */ || p === 0x78 ? 2 : 1);
    }
  }
  const big = BigInt(base);
  let value = 0n;
  let underscores = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x5f /* _ */ && base0) {
      underscores = true;
      continue;
    }
    const d = digitValue(c);
    if (d >= base) return null;
    value = value * big + BigInt(d);
    if (value > MAX_UINT64) return null;
  }
  if (underscores && !underscoreOK(original)) return null;
  return value;
}

/** `strconv.ParseInt(s, base, 64)`: an optional sign, then `ParseUint`, within int64 range. */
export function parseGoInt64(s: string, base = 0): bigint | null {
  if (s.length === 0) return null;
  let negative = false;
  const c = s.charCodeAt(0);
  if (c === 0x2b /* + */) s = s.slice(1);
  else if (c === 0x2d /* - */) {
    negative = true;
    s = s.slice(1);
  }
  const magnitude = parseGoUint64(s, base);
  if (magnitude === null) return null;
  if (negative) return magnitude > MAX_INT64 + 1n ? null : -magnitude;
  return magnitude > MAX_INT64 ? null : magnitude;
}

/**
 * strconv's `underscoreOK`: underscores may only separate digits (or follow a base prefix),
 * never stand at the start or the end or next to anything else.
 */
function underscoreOK(s: string): boolean {
  let saw = '^';
  let i = 0;
  if (s.length >= 1 && (s[0] === '-' || s[0] === '+')) s = s.slice(1);
  let hex = false;
  if (s.length >= 2 && s[0] === '0' && 'box'.includes(s[1]!.toLowerCase())) {
    i = 2;
    saw = '0';
    hex = s[1]!.toLowerCase() === 'x';
  }
  for (; i < s.length; i++) {
    const ch = s[i]!;
    if ((ch >= '0' && ch <= '9') || (hex && /[a-fA-F]/.test(ch))) {
      saw = '0';
      continue;
    }
    if (ch === '_') {
      if (saw !== '0') return false;
      saw = '_';
      continue;
    }
    if (saw === '_') return false;
    saw = '!';
  }
  return saw !== '_';
}

/**
 * `strconv.ParseFloat(s, 64)` for decimal text: returns null on a syntax error or when the
 * value overflows to infinity (Go's range error). Underflow gives 0, as in Go. Hexadecimal
 * floats and the `inf`/`nan` words are not handled: go-yaml only hands ParseFloat text that
 * starts with `.` or already matched its float pattern.
 */
export function parseGoDecimalFloat(s: string): number | null {
  const n = s.length;
  let i = 0;
  let underscores = false;
  if (i < n && (s[i] === '+' || s[i] === '-')) i++;
  let sawDot = false;
  let sawDigits = false;
  for (; i < n; i++) {
    const ch = s[i]!;
    if (ch === '_') underscores = true;
    else if (ch === '.') {
      if (sawDot) break;
      sawDot = true;
    } else if (ch >= '0' && ch <= '9') sawDigits = true;
    else break;
  }
  if (!sawDigits) return null;
  if (i < n && (s[i] === 'e' || s[i] === 'E')) {
    i++;
    if (i < n && (s[i] === '+' || s[i] === '-')) i++;
    if (i >= n || s[i]! < '0' || s[i]! > '9') return null;
    for (; i < n && ((s[i]! >= '0' && s[i]! <= '9') || s[i] === '_'); i++) {
      if (s[i] === '_') underscores = true;
    }
  }
  if (i !== n) return null;
  if (underscores && !underscoreOK(s)) return null;
  const value = Number(underscores ? s.replace(/_/g, '') : s);
  return Number.isFinite(value) ? value : null;
}

/** Shortest decimal digits and decimal-point position of a finite, nonzero |value|. */
interface Digits {
  digits: string;
  /** Position of the decimal point relative to the digits (value = 0.digits × 10^point). */
  point: number;
}

function shortestDigits64(value: number): Digits {
  // toExponential() without an argument gives the shortest digits that round-trip.
  const [mantissa, exponent] = Math.abs(value).toExponential().split('e') as [string, string];
  return { digits: mantissa.replace('.', ''), point: Number(exponent) + 1 };
}

function shortestDigits32(value: number): Digits {
  const f32 = Math.fround(Math.abs(value));
  for (let precision = 1; precision <= 9; precision++) {
    const text = f32.toPrecision(precision);
    if (Math.fround(Number(text)) === f32) {
      const [mantissa, exponent] = Number(text).toExponential(precision - 1).split('e') as [string, string];
      return { digits: mantissa.replace('.', '').replace(/0+$/, '') || '0', point: Number(exponent) + 1 };
    }
  }
  return shortestDigits64(f32);
}

/** strconv's `%g` layout with shortest precision (exponent form when exp < -4 or exp >= 6). */
function formatG(negative: boolean, d: Digits): string {
  const sign = negative ? '-' : '';
  const exp = d.point - 1;
  if (exp < -4 || exp >= 6) {
    const rest = d.digits.slice(1);
    const e = Math.abs(exp);
    return `${sign}${d.digits[0]}${rest ? '.' + rest : ''}e${exp < 0 ? '-' : '+'}${e < 10 ? '0' : ''}${e}`;
  }
  if (d.point <= 0) return `${sign}0.${'0'.repeat(-d.point)}${d.digits}`;
  if (d.point >= d.digits.length) return `${sign}${d.digits}${'0'.repeat(d.point - d.digits.length)}`;
  return `${sign}${d.digits.slice(0, d.point)}.${d.digits.slice(d.point)}`;
}

function formatSpecial(value: number): string | null {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return null;
}

/** `strconv.FormatFloat(v, 'g', -1, 64)`, which is also what `%v` prints for a float64. */
export function formatFloat64G(value: number): string {
  const special = formatSpecial(value);
  if (special !== null) return special;
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  return formatG(value < 0, shortestDigits64(value));
}

/** `strconv.FormatFloat(v, 'g', -1, 32)`: the value rounded to float32 first. */
export function formatFloat32G(value: number): string {
  const special = formatSpecial(value);
  if (special !== null) return special;
  const f32 = Math.fround(value);
  if (f32 === Infinity) return '+Inf';
  if (f32 === -Infinity) return '-Inf';
  if (f32 === 0) return Object.is(f32, -0) ? '-0' : '0';
  return formatG(f32 < 0, shortestDigits32(f32));
}
