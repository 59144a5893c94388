/** Workspace paths: posix, relative to the source root, never leaving it. */

/**
 * Resolves `ref` against directory `dir`. Returns undefined when the result leaves the
 * workspace: such paths are reported and never followed.
 */
export function resolveInside(dir: string, ref: string): string | undefined {
  if (ref.startsWith('/')) return undefined;
  // What posix.normalize(posix.join(dir, ref)) gives, segment by segment and without arrays: a
  // graph walks thousands of references. `dir` is a workspace path, already normal.
  let result = dir;
  for (let from = 0; from <= ref.length; ) {
    let to = ref.indexOf('/', from);
    if (to === -1) to = ref.length;
    const length = to - from;
    if (length === 2 && ref[from] === '.' && ref[from + 1] === '.') {
      if (result === '') return undefined;
      result = result.slice(0, Math.max(0, result.lastIndexOf('/')));
    } else if (length > 0 && !(length === 1 && ref[from] === '.')) {
      const part = ref.slice(from, to);
      result = result === '' ? part : `${result}/${part}`;
    }
    from = to + 1;
  }
  return result;
}

/**
 * spec.path as kustomize-controller resolves it (SecureJoin onto the source root): `..` at
 * the root stays at the root, a leading `/` means the root. `clamped` says `..` was dropped.
 */
export function clampToRoot(ref: string): { path: string; clamped: boolean } {
  const parts: string[] = [];
  let clamped = false;
  for (const part of ref.split('/')) {
    if (part === '' || part === '.') continue;
    if (part !== '..') parts.push(part);
    else if (parts.length > 0) parts.pop();
    else clamped = true;
  }
  return { path: parts.join('/'), clamped };
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

// source-controller leaves these out of every artifact (its default ignore patterns), so
// Flux never sees them, wherever they sit.
const ignoredDirs = new Set(['.git', '.github', '.circleci']);
const ignoredNames = new Set([
  '.gitignore', '.gitmodules', '.gitattributes', '.travis.yml', '.gitlab-ci.yml', 'appveyor.yml', '.drone.yml',
  'cloudbuild.yaml', 'codeship-services.yml', 'codeship-steps.yml', '.goreleaser.yml', '.sops.yaml', '.flux.yaml',
]);

/** Is `path` (a file or directory) left out of the source artifact? `.sourceignore` files are not read. */
export function sourceIgnored(path: string): boolean {
  const segments = path.split('/');
  return ignoredNames.has(segments[segments.length - 1]) || segments.some((s) => ignoredDirs.has(s));
}

/** Flux's generated kustomization takes `.yaml` and `.yml` files, case-sensitively. */
export function isManifestFile(file: string): boolean {
  return /\.ya?ml$/.test(file);
}
