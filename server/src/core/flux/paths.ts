/** Workspace paths: posix, relative to the source root, never leaving it. */
import { posix } from 'path';

/**
 * Resolves `ref` against directory `dir`. Returns undefined when the result leaves the
 * workspace: such paths are reported and never followed.
 */
export function resolveInside(dir: string, ref: string): string | undefined {
  const joined = posix.normalize(posix.join(dir === '' ? '.' : dir, ref));
  if (joined === '..' || joined.startsWith('../') || posix.isAbsolute(joined)) return undefined;
  return joined === '.' ? '' : joined.replace(/\/$/, '');
}

export function dirname(file: string): string {
  const slash = file.lastIndexOf('/');
  return slash === -1 ? '' : file.slice(0, slash);
}

/** URLs, git and OCI references: kustomize would fetch them; we record and never fetch. */
export function isRemote(ref: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(ref) || /^git@/.test(ref) || /^(github\.com|gitlab\.com|bitbucket\.org)\//.test(ref) || /\?ref=|\/\/.+\?|^oci:/.test(ref);
}

export const kustomizationFileNames = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];

export function isManifestFile(file: string): boolean {
  return /\.ya?ml$/i.test(file);
}
