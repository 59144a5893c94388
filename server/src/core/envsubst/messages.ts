/**
 * The exact error texts of fluxcd/pkg envsubst, and the exceptions that carry them inside
 * this package. They are plain strings with no position, as the controller reports them.
 */

import type { NameRef } from './ast';
import type { NamesRead } from './failure-memo';

export const BAD_SUBSTITUTION = 'bad substitution';
export const MISSING_CLOSING_BRACE = 'missing closing brace';
export const UNABLE_TO_PARSE_VARIABLE_NAME = 'unable to parse variable name';
export const UNABLE_TO_PARSE_FUNCTION_ARGUMENT = 'unable to parse substitution within function';
/** Only reachable if the default operator scan fails, which its callers rule out. */
export const UNABLE_TO_PARSE_DEFAULT_FUNCTION = 'unable to parse default function';

/**
 * What this package throws for an outcome the controller reports: control flow, not a bug,
 * so no stack trace is captured (an Error's costs more than the evaluation: a file with many
 * strict-mode failures spent most of its check building traces nobody reads).
 */
abstract class Failure {
  constructor(readonly message: string) {}
}

/** A parse error, with the UTF-16 offset where the parser stopped reading and the names read before it. */
export class ParseFailure extends Failure {
  /** The names read before the error; NameRef objects are only made when asked for. */
  names: NamesRead | undefined = undefined;
  private cachedRefs: NameRef[] | undefined = undefined;

  constructor(
    message: string,
    readonly stop: number,
  ) {
    super(message);
  }

  get refs(): NameRef[] {
    return (this.cachedRefs ??= this.names?.toRefs() ?? []);
  }
}

/** An evaluation error, such as a strict-mode failure. */
export class EvaluationFailure extends Failure {}

/** A Go runtime panic inside envsubst; the message is Go's runtime error text. */
export class GoPanic extends Failure {}
