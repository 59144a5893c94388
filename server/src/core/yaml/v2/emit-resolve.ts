import { goParsesAsDecimalFloat, goParsesAsInteger } from './emit-go-strconv';
import { isGoYamlTimestamp } from './emit-go-time';

/**
 * The encoder's own copy of go-yaml v2's YAML 1.1 plain-scalar resolver, reduced to "does this
 * text stay a string?". go-yaml v2 only writes a string plain when it would read back as a
 * string, so every answer here decides between plain and double-quoted output.
 * TODO(lead): fold into resolve.ts (`resolvePlainV2`) once that exists; this mirrors the same
 * rules and exists only so the encoder does not wait on it.
 */

/** Plain scalars go-yaml v2 looks up in its table (bools, nulls, infinities, NaN). */
const RESOLVE_TABLE = new Set([
  'y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON',
  'n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF',
  '', '~', 'null', 'Null', 'NULL',
  '.nan', '.NaN', '.NAN',
  '.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF', '-.inf', '-.Inf', '-.INF',
]);

/** First characters whose hint sends go-yaml v2 to the table only. */
const TABLE_LETTERS = new Set(Array.from('yYnNtTfFoO~', (ch) => ch.charCodeAt(0)));

/** go-yaml v2's float pattern, applied after underscores are removed. */
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;

/** YAML 1.1 sexagesimal floats (`1:30`), which the v2 encoder quotes although it decodes them as strings. */
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;

/**
 * Whether go-yaml v2's `resolve("", text)` yields `!!str`. The first character picks the path,
 * as in go-yaml's hint table: signs and digits try timestamp, integer and float; `.` tries
 * Go's ParseFloat on the raw text; a few letters and `~` only consult the table; everything else
 * is a string outright. Note `<<` is a string here: its first character has no hint.
 */
export function v2ResolvesToString(text: string): boolean {
  if (text.length === 0) return false;
  const c = text.charCodeAt(0);
  const isSign = c === 0x2b || c === 0x2d;
  const isDigit = c >= 0x30 && c <= 0x39;
  const isDot = c === 0x2e;
  if (!isSign && !isDigit && !isDot && !TABLE_LETTERS.has(c)) return true;
  if (RESOLVE_TABLE.has(text)) return false;
  if (isDot) return !goParsesAsDecimalFloat(text);
  if (!isSign && !isDigit) return true;
  if (isGoYamlTimestamp(text)) return false;
  const plain = text.includes('_') ? text.replace(/_/g, '') : text;
  if (goParsesAsInteger(plain)) return false;
  if (YAML_STYLE_FLOAT.test(plain) && goParsesAsDecimalFloat(plain)) return false;
  // go-yaml's extra 0b/-0b branches only repeat what base-0 ParseInt already accepts.
  return true;
}

/** go-yaml v2's isBase60Float: the encoder quotes these to stay readable by YAML 1.1 parsers. */
export function isBase60Float(text: string): boolean {
  if (text.length === 0) return false;
  const c = text.charCodeAt(0);
  if (!(c === 0x2b || c === 0x2d || (c >= 0x30 && c <= 0x39)) || !text.includes(':')) return false;
  return BASE60_FLOAT.test(text);
}
