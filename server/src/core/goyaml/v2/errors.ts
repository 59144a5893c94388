/**
 * Errors with the exact text go-yaml v2 reports.
 *
 * go-yaml v2 turns every failure into a panic that `Unmarshal` recovers and returns, so one
 * exception type carrying the finished message is enough here too. The text always starts
 * with `yaml: `; syntax errors may add `line N: ` by the rules of `formatSyntaxError`.
 */

import type { Mark } from './tokens';

export class YamlV2Error extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'YamlV2Error';
  }
}

/** Which stage of libyaml raised a syntax error; the stage decides how the line is counted. */
export enum SyntaxStage {
  Reader,
  Scanner,
  Parser,
}

/**
 * Builds the message go-yaml's `parser.fail` prints for a libyaml error.
 *
 * Only the problem text is shown, never the context. The line comes from the problem mark
 * when that is past the first line, and scanner marks are zero-based so one is added; the
 * parser's marks are printed as they are (which is why parser errors look one line early).
 * When the problem is on the first line the context mark is tried instead, unadjusted.
 * Reader errors carry no marks at all and so never show a line.
 */
export function syntaxError(stage: SyntaxStage, problem: string, problemMark: Mark | null, contextMark: Mark | null): YamlV2Error {
  let line = 0;
  if (problemMark !== null && problemMark.line !== 0) {
    line = problemMark.line + (stage === SyntaxStage.Scanner ? 1 : 0);
  } else if (contextMark !== null && contextMark.line !== 0) {
    line = contextMark.line;
  }
  return new YamlV2Error(`yaml: ${line !== 0 ? `line ${line}: ` : ''}${problem}`);
}

/** go-yaml's `failf`: a decoder error without position. */
export function decodeError(message: string): YamlV2Error {
  return new YamlV2Error(`yaml: ${message}`);
}
