/**
 * go-yaml v3 turns an unquoted timestamp into a Go time.Time, and json.Marshal writes that
 * as an RFC 3339 string. So `date: 2001-12-14` reaches the cluster as "2001-12-14T00:00:00Z".
 * This file reproduces go-yaml v3's parseTimestamp (Go's time.Parse with four layouts, range
 * checks included) and Go's RFC3339Nano formatting of the result.
 *
 * The zone: time.Parse keeps a numeric offset as a fixed zone, except that an offset equal to
 * the local zone's uses the local zone. The controller runs in UTC, so "+00:00" prints as "Z"
 * and any other offset prints as written (normalised to ±hh:mm).
 */

interface ParsedTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  nanos: number;
  /** Seconds east of UTC. */
  offset: number;
}

type Separator = 'T' | 't' | ' ';

/** The layouts go-yaml v3 tries, in order: the date-time separator and whether a zone follows. */
const LAYOUTS: ReadonlyArray<{ separator?: Separator; zone: boolean }> = [
  { separator: 'T', zone: true },
  { separator: 't', zone: true },
  { separator: ' ', zone: false },
  { zone: false },
];

/**
 * The JSON text Go writes for the time.Time go-yaml v3 decodes from `s`, or undefined when
 * `s` is not a timestamp to go-yaml v3 (then it stays a string or becomes a number).
 */
export function goYamlV3Timestamp(s: string): string | undefined {
  // go-yaml's quick check: exactly four digits, then a dash.
  let i = 0;
  while (i < s.length && s[i] >= '0' && s[i] <= '9') i++;
  if (i !== 4 || s[i] !== '-') return undefined;
  for (const layout of LAYOUTS) {
    const parsed = parseWithLayout(s, layout.separator, layout.zone);
    if (parsed) return formatRfc3339Nano(parsed);
  }
  return undefined;
}

/** A cursor over the value text, as Go's time.Parse consumes it. */
class Cursor {
  constructor(
    readonly text: string,
    public pos = 0,
  ) {}

  get rest(): string {
    return this.text.slice(this.pos);
  }

  isDigit(offset = 0): boolean {
    const c = this.text[this.pos + offset];
    return c !== undefined && c >= '0' && c <= '9';
  }

  /** Go's getnum(value, false): one digit, or two when the second is also a digit. */
  number(): number | undefined {
    if (!this.isDigit()) return undefined;
    const width = this.isDigit(1) ? 2 : 1;
    const value = Number(this.text.slice(this.pos, this.pos + width));
    this.pos += width;
    return value;
  }

  literal(expected: string): boolean {
    if (this.text[this.pos] !== expected) return false;
    this.pos++;
    return true;
  }

  /** Go's skip() for a space in the layout: the value needs at least one space, and a run of them matches. */
  spaces(): boolean {
    if (this.pos < this.text.length && this.text[this.pos] !== ' ') return false;
    while (this.text[this.pos] === ' ') this.pos++;
    return true;
  }
}

function parseWithLayout(s: string, separator: Separator | undefined, withZone: boolean): ParsedTime | undefined {
  const cur = new Cursor(s);
  const year = Number(s.slice(0, 4));
  cur.pos = 4;
  if (!cur.literal('-')) return undefined;
  const month = cur.number();
  if (month === undefined || month < 1 || month > 12) return undefined;
  if (!cur.literal('-')) return undefined;
  const day = cur.number();
  if (day === undefined) return undefined;
  const time: ParsedTime = { year, month, day, hour: 0, minute: 0, second: 0, nanos: 0, offset: 0 };
  if (separator !== undefined) {
    if (!(separator === ' ' ? cur.spaces() : cur.literal(separator))) return undefined;
    const clock = parseClock(cur);
    if (!clock) return undefined;
    Object.assign(time, clock);
    if (withZone) {
      const offset = parseZone(cur);
      if (offset === undefined) return undefined;
      time.offset = offset;
    }
  }
  if (cur.pos !== s.length) return undefined; // Go: "extra text".
  if (day < 1 || day > daysIn(month, year)) return undefined; // Go: "day out of range".
  return time;
}

/** 15:4:5 with an optional fraction (.999999999), a comma or a period before the digits. */
function parseClock(cur: Cursor): Pick<ParsedTime, 'hour' | 'minute' | 'second' | 'nanos'> | undefined {
  const hour = cur.number();
  if (hour === undefined || hour >= 24 || !cur.literal(':')) return undefined;
  const minute = cur.number();
  if (minute === undefined || minute >= 60 || !cur.literal(':')) return undefined;
  const second = cur.number();
  if (second === undefined || second >= 60) return undefined;
  let nanos = 0;
  const mark = cur.text[cur.pos];
  if ((mark === '.' || mark === ',') && cur.isDigit(1)) {
    let end = cur.pos + 1;
    while (end < cur.text.length && cur.text[end] >= '0' && cur.text[end] <= '9') end++;
    // Go keeps the first nine digits (truncating) and scales shorter fractions up.
    const digits = cur.text.slice(cur.pos + 1, end).slice(0, 9);
    nanos = Number(digits.padEnd(9, '0'));
    cur.pos = end;
  }
  return { hour, minute, second, nanos };
}

/** Z07:00: a literal Z, or ±hh:mm. Go accepts offsets up to 24 hours and 60 minutes. */
function parseZone(cur: Cursor): number | undefined {
  if (cur.literal('Z')) return 0;
  const text = cur.rest;
  if (text.length < 6 || text[3] !== ':') return undefined;
  const sign = text[0];
  const hh = text.slice(1, 3);
  const mm = text.slice(4, 6);
  if (!/^[0-9]{2}$/.test(hh) || !/^[0-9]{2}$/.test(mm)) return undefined;
  const hours = Number(hh);
  const minutes = Number(mm);
  if (hours > 24 || minutes > 60) return undefined;
  if (sign !== '+' && sign !== '-') return undefined;
  cur.pos += 6;
  const offset = (hours * 60 + minutes) * 60;
  return sign === '-' ? -offset : offset;
}

function daysIn(month: number, year: number): number {
  if (month === 2) return isLeap(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function isLeap(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/** Go's time.RFC3339Nano: trailing zeros of the fraction dropped, offset 0 written as Z. */
function formatRfc3339Nano(t: ParsedTime): string {
  const pad = (n: number, width: number): string => String(n).padStart(width, '0');
  let out = `${pad(t.year, 4)}-${pad(t.month, 2)}-${pad(t.day, 2)}T${pad(t.hour, 2)}:${pad(t.minute, 2)}:${pad(t.second, 2)}`;
  if (t.nanos !== 0) out += '.' + pad(t.nanos, 9).replace(/0+$/, '');
  if (t.offset === 0) return out + 'Z';
  const minutes = Math.abs(t.offset) / 60;
  return `${out}${t.offset < 0 ? '-' : '+'}${pad(Math.floor(minutes / 60), 2)}:${pad(minutes % 60, 2)}`;
}
