/**
 * Go (RE2) regular expressions, compiled with re2js, a port of Go's regexp/syntax and its
 * linear-time matchers. Every pattern a repository supplies (kustomize patch targets, Fleet
 * names) goes through here: JavaScript's RegExp backtracks, so `(a+)+$` against 28
 * characters takes seconds, and it accepts lookbehind, lookahead and backreferences, which
 * Go rejects. kustomize and Fleet are Go programs; RE2 is also their semantics.
 */
import type { RE2JS } from 're2js';

/**
 * re2js is loaded on first use: it is a quarter of each bundle, and loading it took 15–20 ms
 * of every start of the server and the CLI, which need it only when a repository holds a
 * pattern that is not a plain name. The bundles load it from their own file (esbuild.mjs).
 */
let re2js: typeof RE2JS | undefined;

export type GoRegexp = RE2JS;

/** The engine, loaded on first use; a failure to load it throws here, not as a pattern's error. */
export function loadGoRegexp(): typeof RE2JS {
  re2js ??= (require('re2js') as typeof import('re2js')).RE2JS;
  return re2js;
}

/** Compiles like Go's `regexp.Compile`; throws Go's error text (`error parsing regexp: …`). */
export function compileGoRegexp(pattern: string): GoRegexp {
  return loadGoRegexp().compile(pattern);
}

/** Whether `pattern` holds nothing Go's syntax treats specially, so it matches only itself. */
export function isLiteralPattern(pattern: string): boolean {
  return !/[\\.+*?()|[\]{}^$]/.test(pattern);
}
