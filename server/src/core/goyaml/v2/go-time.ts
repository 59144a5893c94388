/**
 * go-yaml's `parseTimestamp`, the same in v2 and v3: the text must start with four digits and
 * `-`, then Go's `time.Parse` must accept it under one of four layouts, tried in order:
 *   2006-1-2T15:4:5.999999999Z07:00, the same with a lower-case `t`,
 *   2006-1-2 15:4:5.999999999 (no zone), and 2006-1-2,
 * with time.Parse's range checks (month 1-12, a real day of that month, hour below 24, minutes
 * and seconds below 60).
 *
 * The two versions use the result differently. go-yaml v2 decodes a timestamp into
 * interface{} as its original text, so only acceptance matters there: for an explicit
 * `!!timestamp` tag, and for the encoder, which quotes such strings. go-yaml v3 makes a
 * time.Time, which json.Marshal writes in RFC 3339, so `date: 2001-12-14` reaches the cluster
 * as "2001-12-14T00:00:00Z".
 */

export interface GoTime {
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

/**
 * Go 1.23 started rejecting zone offsets past 24 hours or 60 minutes (golang/go#67470); earlier
 * releases accept `+99:99`. The v2 callers accept such offsets and the v3 caller rejects them;
 * no conformance vector holds one, so the rule stays a parameter instead of a guess.
 */
export interface OffsetRule {
  rejectOffsetsPast24Hours: boolean;
}

type Separator = 'T' | 't' | ' ';

/** A layout of go-yaml's: the date-time separator (none for a date alone) and whether a zone follows. */
interface Layout {
  separator?: Separator;
  zone: boolean;
}

/** The layouts go-yaml tries, in order. */
const LAYOUTS: readonly Layout[] = [
  { separator: 'T', zone: true },
  { separator: 't', zone: true },
  { separator: ' ', zone: false },
  { zone: false },
];

/** The time go-yaml's parseTimestamp gives `s`, or undefined when it is not a timestamp. */
export function parseGoYamlTimestamp(s: string, rule: OffsetRule): GoTime | undefined {
  // go-yaml's quick check: exactly four digits, then a dash.
  let i = 0;
  while (i < s.length && s[i]! >= '0' && s[i]! <= '9') i++;
  if (i !== 4 || s[i] !== '-') return undefined;
  for (const layout of LAYOUTS) {
    const parsed = parseWithLayout(s, layout, rule);
    if (parsed) return parsed;
  }
  return undefined;
}

/** Whether go-yaml v2's parseTimestamp accepts `s`. */
export function isYamlTimestamp(s: string): boolean {
  return parseGoYamlTimestamp(s, { rejectOffsetsPast24Hours: false }) !== undefined;
}

/**
 * The JSON text Go writes for the time.Time go-yaml v3 decodes from `s`, or undefined when
 * `s` is not a timestamp to go-yaml v3 (then it stays a string or becomes a number).
 */
export function goYamlV3Timestamp(s: string): string | undefined {
  const parsed = parseGoYamlTimestamp(s, { rejectOffsetsPast24Hours: true });
  return parsed && formatRfc3339Nano(parsed);
}

/** A cursor over the value text, as Go's time.Parse consumes it. */
class Cursor {
  constructor(
    readonly text: string,
    public pos = 0,
  ) {}

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

function parseWithLayout(s: string, { separator, zone }: Layout, rule: OffsetRule): GoTime | undefined {
  const cur = new Cursor(s);
  const year = Number(s.slice(0, 4));
  cur.pos = 4;
  if (!cur.literal('-')) return undefined;
  const month = cur.number();
  if (month === undefined || month < 1 || month > 12) return undefined;
  if (!cur.literal('-')) return undefined;
  const day = cur.number();
  if (day === undefined) return undefined;
  const time: GoTime = { year, month, day, hour: 0, minute: 0, second: 0, nanos: 0, offset: 0 };
  if (separator !== undefined) {
    if (!(separator === ' ' ? cur.spaces() : cur.literal(separator))) return undefined;
    const clock = parseClock(cur);
    if (!clock) return undefined;
    Object.assign(time, clock);
    if (zone) {
      const offset = parseZone(cur, rule);
      if (offset === undefined) return undefined;
      time.offset = offset;
    }
  }
  if (cur.pos !== s.length) return undefined; // Go: "extra text".
  if (day < 1 || day > daysIn(month, year)) return undefined; // Go: "day out of range".
  return time;
}

/** 15:4:5 with an optional fraction (.999999999), a comma or a period before the digits. */
function parseClock(cur: Cursor): Pick<GoTime, 'hour' | 'minute' | 'second' | 'nanos'> | undefined {
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
    while (end < cur.text.length && cur.text[end]! >= '0' && cur.text[end]! <= '9') end++;
    // Go keeps the first nine digits (truncating) and scales shorter fractions up.
    const digits = cur.text.slice(cur.pos + 1, end).slice(0, 9);
    nanos = Number(digits.padEnd(9, '0'));
    cur.pos = end;
  }
  return { hour, minute, second, nanos };
}

/** Z07:00: a literal Z, or ±hh:mm with two digits each. */
function parseZone(cur: Cursor, rule: OffsetRule): number | undefined {
  if (cur.literal('Z')) return 0;
  const text = cur.text.slice(cur.pos);
  if (text.length < 6 || text[3] !== ':') return undefined;
  const sign = text[0];
  const hh = text.slice(1, 3);
  const mm = text.slice(4, 6);
  if (!/^[0-9]{2}$/.test(hh) || !/^[0-9]{2}$/.test(mm)) return undefined;
  const hours = Number(hh);
  const minutes = Number(mm);
  if (rule.rejectOffsetsPast24Hours && (hours > 24 || minutes > 60)) return undefined;
  if (sign !== '+' && sign !== '-') return undefined;
  cur.pos += 6;
  const offset = (hours * 60 + minutes) * 60;
  return sign === '-' ? -offset : offset;
}

function daysIn(month: number, year: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * Go's time.RFC3339Nano: trailing zeros of the fraction dropped. time.Parse keeps a numeric
 * offset as a fixed zone, except that an offset equal to the local zone's uses the local zone;
 * the controller runs in UTC, so offset 0 prints as Z and any other as written (±hh:mm).
 */
function formatRfc3339Nano(t: GoTime): string {
  const pad = (n: number, width: number): string => String(n).padStart(width, '0');
  let out = `${pad(t.year, 4)}-${pad(t.month, 2)}-${pad(t.day, 2)}T${pad(t.hour, 2)}:${pad(t.minute, 2)}:${pad(t.second, 2)}`;
  if (t.nanos !== 0) out += '.' + pad(t.nanos, 9).replace(/0+$/, '');
  if (t.offset === 0) return out + 'Z';
  const minutes = Math.abs(t.offset) / 60;
  return `${out}${t.offset < 0 ? '-' : '+'}${pad(Math.floor(minutes / 60), 2)}:${pad(minutes % 60, 2)}`;
}
