/**
 * The part of Go's fmt that chart templates use: `%v %s %d %q %t %%` with Go's complaints for
 * a wrong type (`%!d(float64=8080)`), a missing operand (`%!s(MISSING)`) and extra operands
 * (`%!(EXTRA string=x)`). Flags, widths and precisions are not evaluated.
 */
import { goQuote } from '../goyaml/v2/go-text';
import { GoFloat, GoInt } from '../goyaml/v2/value';
import { formatV, goType, Unknown, type TValue } from './values';

type Known = Exclude<TValue, Unknown>;

function bad(verb: string, value: Known): string {
  return value === null ? `%!${verb}(<nil>)` : `%!${verb}(${goType(value)}=${formatV(value)})`;
}

function formatOne(verb: string, value: Known): string {
  switch (verb) {
    case 'v':
      return formatV(value);
    case 's':
      if (typeof value === 'string') return value;
      if (Array.isArray(value) || value === null || typeof value === 'boolean' || value instanceof GoInt || value instanceof GoFloat) return bad(verb, value);
      return formatV(value);
    case 'd':
      return value instanceof GoInt ? value.value.toString() : bad(verb, value);
    case 't':
      return typeof value === 'boolean' ? String(value) : bad(verb, value);
    case 'q':
      return typeof value === 'string' ? goQuote(value) : bad(verb, value);
  }
  throw new UnsupportedVerb();
}

class UnsupportedVerb extends Error {}

/** `fmt.Sprintf(format, args...)`, or Unknown when an operand or a verb is beyond this subset. */
export function sprintf(format: string, args: readonly TValue[]): TValue {
  const unknown = args.find((a) => a instanceof Unknown) as Unknown | undefined;
  if (unknown) return new Unknown(unknown.reason, unknown.oneLine && !format.includes('\n'));
  let out = '';
  let next = 0;
  for (let i = 0; i < format.length; i++) {
    const c = format[i];
    if (c !== '%') {
      out += c;
      continue;
    }
    const verb = format[i + 1];
    i++;
    if (verb === '%') {
      out += '%';
      continue;
    }
    if (verb === undefined) {
      out += '%!(NOVERB)';
      break;
    }
    if (!/[vsdtq]/.test(verb)) return new Unknown(`printf verb %${verb} is not evaluated here`);
    if (next >= args.length) {
      out += `%!${verb}(MISSING)`;
      continue;
    }
    try {
      out += formatOne(verb, args[next++] as Known);
    } catch (error) {
      if (error instanceof UnsupportedVerb) return new Unknown(`printf verb %${verb} is not evaluated here`);
      throw error;
    }
  }
  if (next < args.length) out += `%!(EXTRA ${args.slice(next).map((a) => (a === null ? '<nil>' : `${goType(a as Known)}=${formatV(a as Known)}`)).join(', ')})`;
  return out;
}

/** `fmt.Sprint`: operands joined, with a space between two operands when neither is a string. */
export function sprint(args: readonly TValue[]): TValue {
  const unknown = args.find((a) => a instanceof Unknown) as Unknown | undefined;
  if (unknown) return unknown;
  let out = '';
  args.forEach((arg, i) => {
    if (i > 0 && typeof arg !== 'string' && typeof args[i - 1] !== 'string') out += ' ';
    out += formatV(arg as Known);
  });
  return out;
}
