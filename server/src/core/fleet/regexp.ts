/**
 * Go's verdict on a Fleet name regex, and what Go's syntax lacks when a pattern written for
 * JavaScript or PCRE fails (see ../go-regexp.ts for why JavaScript's RegExp never stands in).
 */
import { compileGoRegexp } from '../go-regexp';

/** Go's `regexp.Compile` error text (`error parsing regexp: …`), or undefined when it compiles. */
export function goRegexpError(pattern: string): { message: string; fragment: string | undefined } | undefined {
  try {
    compileGoRegexp(pattern);
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

