/**
 * Go (RE2) regular expressions, compiled with re2js, a port of Go's regexp/syntax parser.
 * JavaScript's RegExp accepts lookbehind, lookahead and backreferences, which Go rejects, so
 * it must never stand in for Go here.
 */
import type { RE2JS } from 're2js';

/**
 * re2js is loaded on first use: it is a quarter of each bundle, and loading it took 15–20 ms
 * of every start of the server and the CLI, which need it only for a Fleet `comparePatches`
 * name regex. The bundles load it from their own file (esbuild.mjs).
 */
let re2js: typeof RE2JS | undefined;

/** Go's `regexp.Compile` error text (`error parsing regexp: …`), or undefined when it compiles. */
export function goRegexpError(pattern: string): { message: string; fragment: string | undefined } | undefined {
  // Loaded outside the `try`: failing to load it is not the pattern's error.
  re2js ??= (require('re2js') as typeof import('re2js')).RE2JS;
  try {
    re2js.compile(pattern);
    return undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const fragment = (error as { getPattern?: () => string | null }).getPattern?.() ?? undefined;
    return { message, fragment: fragment ?? undefined };
  }
}

/** What Go's syntax lacks that the pattern tried to use, in words; undefined for plain mistakes. */
export function goRegexpHint(pattern: string): string | undefined {
  if (/\(\?<[=!]/.test(pattern)) return 'Go regular expressions (RE2) have no lookbehind';
  if (/\(\?[=!]/.test(pattern)) return 'Go regular expressions (RE2) have no lookahead';
  if (/\\[1-9]|\\k</.test(pattern)) return 'Go regular expressions (RE2) have no backreferences';
  if (/\(\?>/.test(pattern)) return 'Go regular expressions (RE2) have no atomic groups';
  if (/[*+?}][+]/.test(pattern)) return 'Go regular expressions (RE2) have no possessive quantifiers';
  return undefined;
}

