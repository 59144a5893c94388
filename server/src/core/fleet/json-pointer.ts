/**
 * JSON pointers in comparePatches, as Fleet checks them (internal/validation/comparepatches.go):
 * a pointer must start with `/`. That is deliberately all: json-patch rewrites `~0` and `~1`
 * and leaves any other `~` sequence alone, so `/spec/a~2b` addresses a key named `a~2b`.
 */

export function isJsonPointer(value: string): boolean {
  return value.startsWith('/');
}

/**
 * The pointer a Kubernetes-style dotted path stands for (`spec.replicas` → `/spec/replicas`),
 * or undefined when turning dots into slashes could be wrong: a `/` or `~` means a dot may
 * belong to a key (`…deployment.kubernetes.io/revision`), and a leading, trailing or doubled
 * dot would make an empty segment.
 */
export function dottedPathHint(value: string): string | undefined {
  if (/[/~]/.test(value) || value.startsWith('.') || value.endsWith('.') || value.includes('..')) return undefined;
  return '/' + value.replace(/\./g, '/');
}

/** Fleet's message for a rejected pointer (InvalidJSONPointerError). */
export function invalidPointerMessage(value: string): string {
  if (value === '') return 'invalid JSON pointer "": must not be empty, e.g. "/spec/replicas"';
  return `invalid JSON pointer ${JSON.stringify(value)}: must start with "/", e.g. ${JSON.stringify(dottedPathHint(value) ?? '/spec/replicas')}`;
}

/**
 * The corrected pointer to offer as a fix: the dotted path converted, or a slash-separated
 * path given its missing leading slash. Undefined when the intent is unclear.
 */
export function pointerFix(value: string): string | undefined {
  if (value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (trimmed !== value && isJsonPointer(trimmed)) return trimmed;
  const dotted = dottedPathHint(value);
  if (dotted !== undefined) return dotted;
  // `metadata/kind`: slash-separated already. If the first segment holds a dot, dots and
  // slashes are mixed (`metadata.annotations.example.com/x`) and the intent is unclear.
  const first = value.split('/')[0];
  if (value.includes('/') && first !== '' && !first.includes('.') && !/\s/.test(value)) return '/' + value;
  return undefined;
}

/**
 * Why a pointer without its slash is worse than a dead one: json-patch splits on `/` and
 * walks all but the first and last segments, so `a/b` walks nothing and addresses the key
 * `b` at the document root.
 */
export function rootTrap(value: string): string | undefined {
  const segments = value.split('/');
  if (segments.length !== 2 || segments[0] === '' || segments[1] === '') return undefined;
  return segments[1].replace(/~1/g, '/').replace(/~0/g, '~');
}
