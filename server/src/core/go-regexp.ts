/**
 * Go (RE2) regular expressions, compiled with re2js, a port of Go's regexp/syntax and its
 * linear-time matchers. Every pattern a repository supplies (kustomize patch targets, Fleet
 * names) goes through here: JavaScript's RegExp backtracks, so `(a+)+$` against 28
 * characters takes seconds, and it accepts lookbehind, lookahead and backreferences, which
 * Go rejects. kustomize and Fleet are Go programs; RE2 is also their semantics.
 */
import { RE2JS } from 're2js';

export type GoRegexp = RE2JS;

/** Compiles like Go's `regexp.Compile`; throws Go's error text (`error parsing regexp: …`). */
export function compileGoRegexp(pattern: string): GoRegexp {
  return RE2JS.compile(pattern);
}

/** Whether `pattern` holds nothing Go's syntax treats specially, so it matches only itself. */
export function isLiteralPattern(pattern: string): boolean {
  return !/[\\.+*?()|[\]{}^$]/.test(pattern);
}
