/**
 * The variable map as `varSubstitution` in fluxcd/pkg/kustomize sees it: every key must be a
 * valid name (all keys, used or not), and every value loses its "\n" characters.
 */

/** Go RE2 `^[_[:alpha:]][_[:alpha:][:digit:]]*$`; the POSIX classes are ASCII-only in RE2. */
const VALID_NAME = /^[_A-Za-z][_A-Za-z0-9]*$/;

export const VAR_NAME_PATTERN = '^[_[:alpha:]][_[:alpha:][:digit:]]*$';

/**
 * The controller's error for the first invalid name, or undefined when all are valid.
 * Go walks the map in random order, so with several invalid names it reports any one of them;
 * we report the smallest by code point, so the same input always gives the same message.
 */
export function invalidVarNameError(names: readonly string[]): string | undefined {
  const invalid = names.filter((name) => !VALID_NAME.test(name)).sort(compareCodePoints);
  if (invalid.length === 0) return undefined;
  return `'${invalid[0]}' var name is invalid, must match '${VAR_NAME_PATTERN}'`;
}

/** The values envsubst sees: the controller removes every "\n" (and keeps "\r"). */
export function stripNewlines(vars: Readonly<Record<string, string>>): Map<string, string> {
  const result = new Map<string, string>();
  for (const [name, value] of Object.entries(vars)) result.set(name, value.replace(/\n/g, ''));
  return result;
}

/** Byte order of the UTF-8 forms, which is code point order (unlike JS's UTF-16 sort). */
function compareCodePoints(a: string, b: string): number {
  const ap = Array.from(a, (ch) => ch.codePointAt(0) ?? 0);
  const bp = Array.from(b, (ch) => ch.codePointAt(0) ?? 0);
  for (let i = 0; i < ap.length && i < bp.length; i++) if (ap[i] !== bp[i]) return ap[i] - bp[i];
  return ap.length - bp.length;
}
