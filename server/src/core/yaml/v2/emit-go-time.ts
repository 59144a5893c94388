/**
 * go-yaml v2 treats a plain scalar as a timestamp when Go's time.Parse accepts it with one of
 * four layouts. The encoder then quotes such strings, so we need the same acceptance test:
 * which texts parse, including Go's range checks (month 1-12, a real day of that month, hour
 * below 24, minutes and seconds below 60). The layouts, in the order go-yaml tries them:
 *   2006-1-2T15:4:5.999999999Z07:00
 *   2006-1-2t15:4:5.999999999Z07:00
 *   2006-1-2 15:4:5.999999999
 *   2006-1-2
 */

type Step = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'fraction' | 'zone' | { literal: string };

const LAYOUTS: readonly (readonly Step[])[] = [
  ['year', { literal: '-' }, 'month', { literal: '-' }, 'day', { literal: 'T' }, 'hour', { literal: ':' }, 'minute', { literal: ':' }, 'second', 'fraction', 'zone'],
  ['year', { literal: '-' }, 'month', { literal: '-' }, 'day', { literal: 't' }, 'hour', { literal: ':' }, 'minute', { literal: ':' }, 'second', 'fraction', 'zone'],
  ['year', { literal: '-' }, 'month', { literal: '-' }, 'day', { literal: ' ' }, 'hour', { literal: ':' }, 'minute', { literal: ':' }, 'second', 'fraction'],
  ['year', { literal: '-' }, 'month', { literal: '-' }, 'day'],
];

/** Whether go-yaml v2's parseTimestamp accepts `s`. */
export function isGoYamlTimestamp(s: string): boolean {
  // go-yaml's quick check: exactly four digits, then a dash.
  for (let i = 0; i < 4; i++) if (!isDigit(s, i)) return false;
  if (s[4] !== '-') return false;
  return LAYOUTS.some((layout) => parsesWith(s, layout));
}

function parsesWith(s: string, layout: readonly Step[]): boolean {
  let p = 0;
  let year = 0;
  let month = 0;
  let day = 0;
  for (const step of layout) {
    if (typeof step === 'object') {
      const next = skipLiteral(s, p, step.literal);
      if (next < 0) return false;
      p = next;
      continue;
    }
    switch (step) {
      case 'year':
        year = Number(s.slice(p, p + 4));
        p += 4;
        break;
      case 'month':
      case 'day':
      case 'hour':
      case 'minute':
      case 'second': {
        // Go's getnum without the fixed flag: one digit, or two when the second is a digit.
        if (!isDigit(s, p)) return false;
        const width = isDigit(s, p + 1) ? 2 : 1;
        const value = Number(s.slice(p, p + width));
        p += width;
        if (step === 'month') {
          if (value < 1 || value > 12) return false;
          month = value;
        } else if (step === 'day') {
          day = value;
        } else if (step === 'hour') {
          if (value > 23) return false;
        } else if (value > 59) {
          return false;
        }
        break;
      }
      case 'fraction':
        // Optional: a period or comma followed by at least one digit, then any further digits.
        if ((s[p] === '.' || s[p] === ',') && isDigit(s, p + 1)) {
          p += 2;
          while (isDigit(s, p)) p++;
        }
        break;
      case 'zone':
        if (s[p] === 'Z') {
          p += 1;
          break;
        }
        if (s.length - p < 6 || s[p + 3] !== ':') return false;
        if (s[p] !== '+' && s[p] !== '-') return false;
        if (!isDigit(s, p + 1) || !isDigit(s, p + 2) || !isDigit(s, p + 4) || !isDigit(s, p + 5)) return false;
        p += 6;
        break;
    }
  }
  if (p !== s.length) return false;
  return day >= 1 && day <= daysIn(month, year);
}

/**
 * Go's skip: layout text must match exactly, except that a space in the layout matches one or
 * more spaces in the value (and nothing at the very end of the value).
 */
function skipLiteral(s: string, p: number, literal: string): number {
  if (literal === ' ') {
    if (p < s.length && s[p] !== ' ') return -1;
    while (s[p] === ' ') p++;
    return p;
  }
  return s.startsWith(literal, p) ? p + literal.length : -1;
}

function daysIn(month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function isDigit(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 0x30 && c <= 0x39;
}
