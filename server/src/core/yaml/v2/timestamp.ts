/**
 * go-yaml v2's `parseTimestamp`: the value must start with four digits and `-`, then parse
 * with Go's `time.Parse` under one of four layouts:
 *   2006-1-2T15:4:5.999999999Z07:00, the same with a lower-case `t`,
 *   2006-1-2 15:4:5.999999999 (no zone), and 2006-1-2.
 * Decoding into interface{} keeps the original text either way, so this only matters for an
 * explicit `!!timestamp` tag, where a failure is an error.
 */

function isDigitAt(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 0x30 && c <= 0x39;
}

/** A cursor over the value, mirroring how `time.Parse` consumes it. */
class Cursor {
  pos = 0;
  constructor(readonly s: string) {}

  /** Go's `getnum(value, false)`: one or two digits. */
  number(): number | null {
    const s = this.s;
    if (!isDigitAt(s, this.pos)) return null;
    if (!isDigitAt(s, this.pos + 1)) return s.charCodeAt(this.pos++) - 0x30;
    const value = (s.charCodeAt(this.pos) - 0x30) * 10 + (s.charCodeAt(this.pos + 1) - 0x30);
    this.pos += 2;
    return value;
  }

  literal(ch: string): boolean {
    if (ch === ' ') {
      // A space in the layout matches one or more spaces.
      if (this.pos < this.s.length && this.s[this.pos] !== ' ') return false;
      while (this.s[this.pos] === ' ') this.pos++;
      return true;
    }
    if (this.s[this.pos] !== ch) return false;
    this.pos++;
    return true;
  }

  /** `.999999999`: an optional fraction of any number of digits, after `.` or `,`. */
  fraction(): void {
    const s = this.s;
    if (s.length - this.pos < 2 || (s[this.pos] !== '.' && s[this.pos] !== ',') || !isDigitAt(s, this.pos + 1)) return;
    this.pos++;
    while (isDigitAt(s, this.pos)) this.pos++;
  }

  /** `Z07:00`: `Z`, or a sign with two-digit hours and minutes. */
  zone(): boolean {
    const s = this.s;
    if (s[this.pos] === 'Z') {
      this.pos++;
      return true;
    }
    if (s.length - this.pos < 6 || s[this.pos + 3] !== ':') return false;
    const sign = s[this.pos];
    if (
      !isDigitAt(s, this.pos + 1) ||
      !isDigitAt(s, this.pos + 2) ||
      !isDigitAt(s, this.pos + 4) ||
      !isDigitAt(s, this.pos + 5)
    ) {
      return false;
    }
    if (sign !== '+' && sign !== '-') return false;
    this.pos += 6;
    return true;
  }
}

function daysIn(month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) ? 29 : 28;
  return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

type Layout = 'T' | 't' | ' ' | 'date';

function parseWith(s: string, layout: Layout): boolean {
  const c = new Cursor(s);
  const year = Number(s.slice(0, 4));
  c.pos = 4;
  if (!c.literal('-')) return false;
  const month = c.number();
  if (month === null || month < 1 || month > 12) return false;
  if (!c.literal('-')) return false;
  const day = c.number();
  if (day === null) return false;
  if (layout !== 'date') {
    if (!c.literal(layout)) return false;
    const hour = c.number();
    if (hour === null || hour >= 24 || !c.literal(':')) return false;
    const minute = c.number();
    if (minute === null || minute >= 60 || !c.literal(':')) return false;
    const second = c.number();
    if (second === null || second >= 60) return false;
    c.fraction();
    if (layout !== ' ' && !c.zone()) return false;
  }
  if (c.pos !== s.length) return false;
  return day >= 1 && day <= daysIn(month, year);
}

export function isYamlTimestamp(s: string): boolean {
  let i = 0;
  while (i < s.length && isDigitAt(s, i)) i++;
  if (i !== 4 || i === s.length || s[i] !== '-') return false;
  return parseWith(s, 'T') || parseWith(s, 't') || parseWith(s, ' ') || parseWith(s, 'date');
}
