import { analyzeScalar, type ScalarAnalysis } from './emit-analyze';
import { encodeBinaryText } from './emit-binary';
import { canBePlainV2 } from './emit-resolve';
import { hasLoneSurrogate, utf8Length } from './go-utf8';

/**
 * How go-yaml v2 (yaml.Marshal, as used by sigs.k8s.io/yaml.JSONToYAML) writes a scalar. The
 * style matters beyond looks: text substituted into a plain scalar is re-typed when the YAML is
 * read back, text inside quotes is not.
 */
export type V2ScalarStyle = 'plain' | 'single' | 'double' | 'literal';

/** One scalar as the encoder hands it to the emitter, with the emitter's analysis of its text. */
export interface ScalarEvent {
  readonly text: string;
  /** The string was not valid UTF-8: `text` is base64 and the scalar is tagged `!!binary`. */
  readonly binary: boolean;
  /** The style the encoder asks for; the emitter may still downgrade it. */
  readonly requested: 'plain' | 'double' | 'literal';
  readonly analysis: ScalarAnalysis;
}

/** `!!` plus `binary`: the tag length check_simple_key adds to the text length. */
const BINARY_TAG_LENGTH = 8;

/** Keys longer than this many bytes are written in the explicit `? key` form. */
const MAX_SIMPLE_KEY_LENGTH = 128;

/**
 * The encoder's choice for a Go string (go-yaml v2 `stringv`): a string with a newline asks
 * for a literal block; a string that would read back as something else under YAML 1.1 (a
 * bool, null, number, timestamp or sexagesimal number) asks for double quotes; anything else
 * asks for plain.
 */
export function stringEvent(s: string): ScalarEvent {
  if (hasLoneSurrogate(s)) {
    const text = encodeBinaryText(s);
    return { text, binary: true, requested: text.includes('\n') ? 'literal' : 'plain', analysis: analyzeScalar(text) };
  }
  let requested: ScalarEvent['requested'];
  if (s.includes('\n')) requested = 'literal';
  else if (canBePlainV2(s)) requested = 'plain';
  else requested = 'double';
  return { text: s, binary: false, requested, analysis: analyzeScalar(s) };
}

/** Numbers, bools and null: written plain, as their text always allows. */
export function plainEvent(text: string): ScalarEvent {
  return { text, binary: false, requested: 'plain', analysis: analyzeScalar(text) };
}

/** check_simple_key for a scalar: single-line and at most 128 bytes including the tag. */
export function isSimpleKeyScalar(event: ScalarEvent): boolean {
  if (event.analysis.multiline) return false;
  return utf8Length(event.text) + (event.binary ? BINARY_TAG_LENGTH : 0) <= MAX_SIMPLE_KEY_LENGTH;
}

/**
 * The emitter's select_scalar_style, for block context (go-yaml v2 never writes a scalar inside
 * a flow collection, since it only uses flow style for empty ones). A simple key cannot span
 * lines, so a multi-line key in that position would need double quotes; in practice such keys
 * are written in the `? key` form, where the key is not a simple key.
 */
export function selectScalarStyle(event: ScalarEvent, simpleKey: boolean): V2ScalarStyle {
  const { analysis } = event;
  let style: V2ScalarStyle = event.requested;
  if (simpleKey && analysis.multiline) style = 'double';
  if (style === 'plain') {
    if (!analysis.blockPlainAllowed) style = 'single';
    if (event.text.length === 0 && simpleKey) style = 'single';
  }
  if (style === 'single' && !analysis.singleQuotedAllowed) style = 'double';
  if (style === 'literal' && (!analysis.blockAllowed || simpleKey)) style = 'double';
  return style;
}

/**
 * The style go-yaml v2 gives a string, as a map value (or sequence item) or as a map key. The
 * depth of nesting does not matter; a key matters only while it is short enough and on one line
 * to be written as a simple `key: value` key.
 */
export function v2StringStyle(s: string, context: { isKey: boolean }): V2ScalarStyle {
  const event = stringEvent(s);
  return selectScalarStyle(event, context.isKey && isSimpleKeyScalar(event));
}
