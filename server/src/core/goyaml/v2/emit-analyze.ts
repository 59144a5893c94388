/**
 * go-yaml v2's scalar analysis (libyaml's yaml_emitter_analyze_scalar): one pass over the text
 * that decides which styles could represent it faithfully. The emitter later downgrades the
 * style the encoder asked for (plain → single-quoted → double-quoted, literal → double-quoted)
 * according to these flags.
 */

export interface ScalarAnalysis {
  /** The text has a line break (\n, \r, NEL, LS or PS). */
  readonly multiline: boolean;
  readonly blockPlainAllowed: boolean;
  readonly singleQuotedAllowed: boolean;
  readonly blockAllowed: boolean;
}

const EMPTY: ScalarAnalysis = { multiline: false, blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: false };

/**
 * go-yaml's is_printable, with the emitter's unicode flag on. It is narrower than YAML's own
 * definition: tab, NEL and every character outside the Basic Multilingual Plane (emoji) count
 * as unprintable, which forces double quotes with escapes.
 */
export function isPrintable(cp: number): boolean {
  return (
    cp === 0x0a ||
    (cp >= 0x20 && cp <= 0x7e) ||
    (cp >= 0xa0 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff)
  );
}

/** go-yaml's is_break: the YAML 1.1 line breaks. All of them are single UTF-16 units. */
export function isBreak(cp: number): boolean {
  return cp === 0x0a || cp === 0x0d || cp === 0x85 || cp === 0x2028 || cp === 0x2029;
}

/** Characters that cannot start a plain scalar at all. */
const ALWAYS_INDICATOR_FIRST = new Set(Array.from('#,[]{}&*!|>\'"%@`', (ch) => ch.charCodeAt(0)));

/**
 * Only the block-context flags are computed: go-yaml v2 writes non-empty collections in block
 * style only, so the flow-context flags of libyaml (flow indicators, flow-plain allowed) never
 * decide anything for its output.
 */
export function analyzeScalar(s: string): ScalarAnalysis {
  const n = s.length;
  if (n === 0) return EMPTY;

  let blockIndicators = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let previousSpace = false;
  let previousBreak = false;
  let lineBreaks = false;
  let specialCharacters = false;

  // A document marker at the start would end the document when read back.
  if (s.startsWith('---') || s.startsWith('...')) {
    blockIndicators = true;
  }

  let precededByWhitespace = true;
  for (let i = 0; i < n; ) {
    // A lone surrogate stands for itself, as String.codePointAt returns it.
    const cp = s.codePointAt(i)!;
    const w = cp > 0xffff ? 2 : 1;
    const next = i + w < n ? s.charCodeAt(i + w) : -1;
    // go-yaml checks is_blank (space or tab) here, not the full blank-or-break class of libyaml.
    const followedByWhitespace = next === -1 || next === 0x20 || next === 0x09;

    if (i === 0) {
      if (ALWAYS_INDICATOR_FIRST.has(cp)) blockIndicators = true;
      else if ((cp === 0x3f || cp === 0x3a || cp === 0x2d) && followedByWhitespace) blockIndicators = true; // ? : -
    } else if (cp === 0x3a && followedByWhitespace) {
      blockIndicators = true; // ": " starts a mapping value
    } else if (cp === 0x23 && precededByWhitespace) {
      blockIndicators = true; // " #" starts a comment
    }

    if (!isPrintable(cp)) specialCharacters = true;
    if (cp === 0x20) {
      if (i === 0) leadingSpace = true;
      if (i + w === n) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreak(cp)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (i + w === n) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }

    precededByWhitespace = cp === 0x20 || cp === 0x09 || cp === 0 || isBreak(cp);
    i += w;
  }

  let blockPlainAllowed = true;
  let singleQuotedAllowed = true;
  let blockAllowed = true;
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) blockPlainAllowed = false;
  if (trailingSpace) blockAllowed = false;
  if (breakSpace) {
    blockPlainAllowed = false;
    singleQuotedAllowed = false;
  }
  if (spaceBreak || specialCharacters) {
    blockPlainAllowed = false;
    singleQuotedAllowed = false;
    blockAllowed = false;
  }
  if (lineBreaks) blockPlainAllowed = false;
  if (blockIndicators) blockPlainAllowed = false;

  return { multiline: lineBreaks, blockPlainAllowed, singleQuotedAllowed, blockAllowed };
}
