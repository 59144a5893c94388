/**
 * Positions and tokens of the libyaml scanner as go-yaml v2 ports it.
 */

/**
 * A position as libyaml counts it: `index` in characters (code points, not bytes or UTF-16
 * units), `line` and `column` zero-based. Error lines and the 1024-character limit on
 * simple keys are computed from these, so they must count exactly as libyaml does.
 */
export class Mark {
  constructor(
    readonly index: number,
    readonly line: number,
    readonly column: number,
  ) {}
}

export enum TokenKind {
  StreamStart,
  StreamEnd,
  VersionDirective,
  TagDirective,
  DocumentStart,
  DocumentEnd,
  BlockSequenceStart,
  BlockMappingStart,
  BlockEnd,
  FlowSequenceStart,
  FlowSequenceEnd,
  FlowMappingStart,
  FlowMappingEnd,
  BlockEntry,
  FlowEntry,
  Key,
  Value,
  Alias,
  Anchor,
  Tag,
  Scalar,
}

export enum ScalarStyle {
  Plain,
  SingleQuoted,
  DoubleQuoted,
  Literal,
  Folded,
}

/**
 * One token. The string fields are reused by kind: `value` is the scalar text, the anchor
 * or alias name, the tag handle or the %TAG handle; `suffix` is the tag suffix or the %TAG
 * prefix. `major`/`minor` belong to %YAML.
 */
export class Token {
  constructor(
    readonly kind: TokenKind,
    readonly start: Mark,
    readonly end: Mark,
    readonly value = '',
    readonly suffix = '',
    readonly style = ScalarStyle.Plain,
    readonly major = 0,
    readonly minor = 0,
  ) {}
}
