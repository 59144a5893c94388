/**
 * The exact error texts of fluxcd/pkg envsubst, and the exceptions that carry them inside
 * this package. They are plain strings with no position, as the controller reports them.
 */

import type { NameRef } from './ast';

export const BAD_SUBSTITUTION = 'bad substitution';
export const MISSING_CLOSING_BRACE = 'missing closing brace';
export const UNABLE_TO_PARSE_VARIABLE_NAME = 'unable to parse variable name';
export const UNABLE_TO_PARSE_FUNCTION_ARGUMENT = 'unable to parse substitution within function';
/** Only reachable if the default operator scan fails, which its callers rule out. */
export const UNABLE_TO_PARSE_DEFAULT_FUNCTION = 'unable to parse default function';

/** A parse error, with the UTF-16 offset where the parser stopped reading and the names read before it. */
export class ParseFailure extends Error {
  refs: NameRef[] = [];

  constructor(
    message: string,
    readonly stop: number,
  ) {
    super(message);
  }
}

/** An evaluation error, such as a strict-mode failure. */
export class EvaluationFailure extends Error {}

/** A Go runtime panic inside envsubst; the message is Go's runtime error text. */
export class GoPanic extends Error {}
