/**
 * How a secret value is identified without being shown. A short hash lets a reader tell two
 * values apart, or see that a value changed, but anyone can hash a guess and compare: a
 * plain SHA-256 of `true` or a four-digit PIN is recovered at once, from any repository. So
 * a value shorter than minHashedLength gets no hash at all, and a repository can set a salt
 * (`.render-lens.yaml`, `redaction.salt`) so that hashes prepared elsewhere, or the same
 * value's hash in another repository, match nothing. A salt kept in the repository does not
 * stop someone who reads the repository from testing guesses; the length floor is what
 * protects short values.
 */
import { sha256Hex } from '../sha256';

/** Values shorter than this (UTF-16 units) are never hashed: short values are guessable. */
export const minHashedLength = 16;

/** `sha256:1a2b3c4d5e6f`, `salted sha256:…`, or undefined when the value is too short to hash. */
export function secretDigest(value: string, salt: string | undefined): string | undefined {
  if (value.length < minHashedLength) return undefined;
  // The salt ends at a NUL, which a YAML string cannot hold unescaped: no salt and value pair reads as another.
  return salt === undefined ? `sha256:${sha256Hex(value).slice(0, 12)}` : `salted sha256:${sha256Hex(`${salt}\u0000${value}`).slice(0, 12)}`;
}

/** What hovers and `explain` show for a secret value. */
export function describeSecret(value: string, salt: string | undefined): string {
  const digest = secretDigest(value, salt);
  return digest === undefined ? `secret (under ${minHashedLength} characters: no hash shown)` : `secret, ${digest}`;
}

/** What previews and `render` put in place of a Secret's data value. */
export function redactedPlaceholder(value: string, salt: string | undefined): string {
  const digest = secretDigest(value, salt);
  return digest === undefined ? '<redacted>' : `<redacted ${digest}>`;
}
