import { implicitTagV2, TAG_STR } from './resolve';

/**
 * go-yaml v2's `stringv` writes a string plain only when the decoder's resolver would read it
 * back as a string, and, on top of that, when it does not look like a YAML 1.1 sexagesimal
 * number: the v2 decoder has no base-60 rule (`1:30` stays a string), but the encoder quotes
 * such text so that other YAML 1.1 parsers do not read it as a number.
 */
export function canBePlainV2(s: string): boolean {
  return implicitTagV2(s) === TAG_STR && !isBase60Float(s);
}

/** YAML 1.1 sexagesimal floats, as go-yaml v2's encoder matches them. */
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;

/** go-yaml v2's isBase60Float: a sign or digit first and a `:` somewhere, then the full pattern. */
function isBase60Float(text: string): boolean {
  if (text.length === 0) return false;
  const c = text.charCodeAt(0);
  if (!(c === 0x2b || c === 0x2d || (c >= 0x30 && c <= 0x39)) || !text.includes(':')) return false;
  return BASE60_FLOAT.test(text);
}
