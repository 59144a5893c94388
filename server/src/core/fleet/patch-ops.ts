/**
 * The operations a comparePatch may use. Fleet marshals each operation into a JSON patch;
 * json-patch knows `copy` and `move` too, but Fleet's Operation has no `from` field, so only
 * these five can work (rancher/fleet internal/validation/patchop.go).
 */
import { closest } from './suggest';

export const patchOps = ['add', 'ignore', 'remove', 'replace', 'test'] as const;

export const patchOpDocs: Readonly<Record<(typeof patchOps)[number], string>> = {
  add: 'Adds `value` at `path` before comparing.',
  ignore: 'Leaves the whole resource out of the modified check; `path` is not read.',
  remove: 'Removes `path` before comparing: the field can drift without the bundle showing as Modified.',
  replace: 'Replaces the value at `path` with `value` before comparing.',
  test: 'Applies the patch only when the value at `path` equals `value`.',
};

export function isPatchOp(op: string): boolean {
  return (patchOps as readonly string[]).includes(op);
}

/** Fleet's own wording (UnsupportedPatchOpError). */
export function unsupportedPatchOpMessage(op: string): string {
  return `unsupported operation ${JSON.stringify(op)}, valid values are: ${patchOps.join(', ')}`;
}

/** The operation the author most likely meant, or undefined. */
export function suggestPatchOp(op: string): string | undefined {
  const lower = op.trim().toLowerCase();
  if (isPatchOp(lower)) return lower;
  if (lower === 'delete') return 'remove';
  // copy and move are real json-patch ops, just not Fleet's: no near miss to offer.
  if (lower === 'copy' || lower === 'move') return undefined;
  return lower === '' ? undefined : closest(lower, patchOps);
}
