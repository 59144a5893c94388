/**
 * The parsed form of one `${…}` expression. Positions are UTF-16 offsets into the text that
 * was scanned, so the editor can point at any part of an expression without converting.
 */

/**
 * The operator of an expansion, spelled as in the source. `value` is a bare `${v}` and `length`
 * is `${#v}`; the mixed case forms `^,` and `,^` parse but return the value unchanged.
 */
export type Operator =
  | 'value'
  | 'length'
  | ':-'
  | ':='
  | '='
  | ':?'
  | ':+'
  | ':'
  | '^'
  | '^^'
  | ','
  | ',,'
  | '^,'
  | ',^'
  | '#'
  | '##'
  | '%'
  | '%%'
  | '/'
  | '//'
  | '/#'
  | '/%';

/** Literal argument text, with the escapes of replace arguments already removed. */
export interface TextNode {
  readonly kind: 'text';
  readonly value: string;
  readonly start: number;
  readonly end: number;
}

/** One `${…}`, from its `$` to just after its `}`. */
export interface ExpansionNode {
  readonly kind: 'expansion';
  readonly operator: Operator;
  readonly name: string;
  readonly nameStart: number;
  readonly nameEnd: number;
  /**
   * The arguments in source order. A default word is a list of text runs and nested
   * expansions; every other operator has one node per argument (substring: offset and length,
   * trims: the pattern, replace: the pattern and, unless empty, the replacement).
   */
  readonly args: readonly ArgumentNode[];
  readonly start: number;
  readonly end: number;
}

export type ArgumentNode = TextNode | ExpansionNode;

/** A variable name as written, with its range. */
export interface NameRef {
  readonly name: string;
  readonly start: number;
  readonly end: number;
}

/**
 * The operators strict mode lets through when the variable is not defined: envsubst's
 * isDefaultOp set, of which only these five can be parsed.
 */
export function isDefaultOperator(operator: Operator): boolean {
  return operator === ':-' || operator === ':=' || operator === '=' || operator === ':?' || operator === ':+';
}
