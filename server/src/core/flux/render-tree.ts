/**
 * Which files a Flux Kustomization renders: its `spec.path` walked as kustomize and Flux
 * walk it. Remote references are recorded, never fetched; cycles and paths that leave the
 * workspace are reported where they are written and cut.
 */
import type { Range } from '../model';
import type { FileIndex } from '../workspace/file-index';
import { readKustomizeFile, type GeneratorSpec, type KustomizeFile, type Ref } from './kustomize-file';
import { isManifestFile, isRemote, kustomizationFileNames, resolveInside } from './paths';

export type RenderRole = 'resource' | 'patch' | 'generator-file' | 'generator-env';

export interface RenderedFile {
  file: string;
  role: RenderRole;
  /** The kustomization files from the Flux path down to the one that lists this file. */
  chain: readonly KustomizeFile[];
  /** For generator inputs: the generator that reads the file. */
  generator?: GeneratorSpec;
}

export interface Located {
  file: string;
  range: Range;
}

export interface TreeProblem extends Located {
  kind: 'cycle' | 'outside' | 'missing' | 'remote';
  message: string;
}

export interface RenderTree {
  dir: string;
  files: Map<string, RenderedFile>;
  problems: TreeProblem[];
}

export function findKustomizeFile(index: FileIndex, dir: string): string | undefined {
  for (const name of kustomizationFileNames) {
    const file = dir === '' ? name : `${dir}/${name}`;
    if (index.exists(file)) return file;
  }
  return undefined;
}

/**
 * Walks `dir` as Flux renders a Kustomization's path. `components` are Flux's
 * `spec.components`, relative to the path; `origin` is where the path is written.
 */
export function walkRenderTree(index: FileIndex, dir: string, components: readonly Ref[], origin: Located): RenderTree {
  const tree: RenderTree = { dir, files: new Map(), problems: [] };
  const visiting: string[] = [];
  const visited = new Set<string>();

  const add = (file: string, role: RenderRole, chain: readonly KustomizeFile[], generator?: GeneratorSpec) => {
    if (!tree.files.has(file)) tree.files.set(file, { file, role, chain, generator });
  };

  const resolve = (base: string, ref: Ref, at: string): string | undefined => {
    if (isRemote(ref.value)) {
      tree.problems.push({ kind: 'remote', file: at, range: ref.range, message: `${ref.value} is remote: it is not fetched, so what it renders is not checked` });
      return undefined;
    }
    const target = resolveInside(base, ref.value);
    if (target === undefined) tree.problems.push({ kind: 'outside', file: at, range: ref.range, message: `${ref.value} points outside the workspace; it is not followed` });
    return target;
  };

  const visitDir = (path: string, chain: readonly KustomizeFile[], listedAt: Located, isFluxRoot: boolean, extraComponents: readonly Ref[]) => {
    if (visiting.includes(path)) {
      tree.problems.push({ kind: 'cycle', ...listedAt, message: `kustomization cycle: ${[...visiting.slice(visiting.indexOf(path)), path].map((d) => d || '.').join(' → ')}` });
      return;
    }
    if (visited.has(path)) return;
    visited.add(path);
    visiting.push(path);
    const kustomizeFile = findKustomizeFile(index, path);
    if (kustomizeFile) {
      const parsed = index.parsed(kustomizeFile);
      const spec = readKustomizeFile(kustomizeFile, parsed?.documents[0]?.contents);
      visitKustomization(path, spec, [...chain, spec], extraComponents);
    } else if (isFluxRoot) {
      visitPlainDirectory(path, chain);
      for (const component of extraComponents) visitRef(path, component, origin.file, chain, 'component');
    } else if (index.isDirectory(path)) {
      tree.problems.push({ kind: 'missing', ...listedAt, message: `${path || '.'} has no kustomization.yaml; kustomize cannot build it` });
    } else {
      tree.problems.push({ kind: 'missing', ...listedAt, message: `${path || '.'} does not exist in the workspace` });
    }
    visiting.pop();
  };

  // Flux generates a kustomization for a directory without one: every manifest, recursively,
  // and each subdirectory that has its own kustomization file as a whole.
  const visitPlainDirectory = (path: string, chain: readonly KustomizeFile[]) => {
    const { files, dirs } = index.children(path);
    for (const file of files) if (isManifestFile(file)) add(file, 'resource', chain);
    for (const sub of dirs) {
      if (findKustomizeFile(index, sub)) visitDir(sub, chain, { file: origin.file, range: origin.range }, false, []);
      else visitPlainDirectory(sub, chain);
    }
  };

  const visitRef = (base: string, ref: Ref, at: string, chain: readonly KustomizeFile[], as: 'resource' | 'component') => {
    const target = resolve(base, ref, at);
    if (target === undefined) return;
    if (as === 'resource' && index.exists(target)) {
      add(target, 'resource', chain);
      return;
    }
    visitDir(target, chain, { file: at, range: ref.range }, false, []);
  };

  const visitKustomization = (path: string, spec: KustomizeFile, chain: readonly KustomizeFile[], extraComponents: readonly Ref[]) => {
    for (const ref of spec.resources) visitRef(path, ref, spec.file, chain, 'resource');
    for (const ref of spec.components) visitRef(path, ref, spec.file, chain, 'component');
    for (const ref of extraComponents) visitRef(path, ref, origin.file, chain, 'component');
    for (const ref of spec.patchFiles) {
      const target = resolve(path, ref, spec.file);
      if (target !== undefined && index.exists(target)) add(target, 'patch', chain);
      else if (target !== undefined) tree.problems.push({ kind: 'missing', file: spec.file, range: ref.range, message: `patch ${ref.value} does not exist` });
    }
    for (const generator of spec.generators) {
      for (const ref of [...generator.files.map((f) => ({ value: f.path, range: f.range })), ...generator.envs]) {
        const target = resolve(path, ref, spec.file);
        const role = generator.envs.includes(ref) ? 'generator-env' : 'generator-file';
        if (target !== undefined && index.exists(target)) add(target, role, chain, generator);
        else if (target !== undefined) tree.problems.push({ kind: 'missing', file: spec.file, range: ref.range, message: `${ref.value} does not exist` });
      }
    }
  };

  const start = resolveInside('', dir);
  if (start === undefined) {
    tree.problems.push({ kind: 'outside', ...origin, message: `spec.path ${dir} points outside the workspace; it is not followed` });
    return tree;
  }
  visitDir(start, [], origin, true, components);
  return tree;
}

