/**
 * Which files a Flux Kustomization renders: its `spec.path` walked as kustomize and Flux
 * walk it. Remote references are recorded, never fetched; cycles and paths that leave the
 * workspace are reported where they are written and cut.
 */
import { Memo } from '../memo';
import type { Range } from '../model';
import type { FileIndex } from '../workspace/file-index';
import { readKustomizeFile, type GeneratorSpec, type KustomizeFile, type Ref } from './kustomize-file';
import { clampToRoot, dirname, isManifestFile, isRemote, kustomizationFileNames, resolveInside, sourceIgnored } from './paths';

export type RenderRole = 'resource' | 'patch' | 'generator-file' | 'generator-env';

export interface RenderedFile {
  file: string;
  role: RenderRole;
  /** The kustomization files from the Flux path down to the one that lists this file. */
  chain: readonly KustomizeFile[];
  /** For generator inputs: the generator that reads the file. */
  generator?: GeneratorSpec;
  /**
   * Where `kustomize.toolkit.fluxcd.io/substitute: disabled` reaches the whole file: a
   * commonLabels/commonAnnotations entry of the chain or, for generator inputs, the generator's
   * options. Labels and annotations written on a document itself are the document's business.
   */
  optOut?: Located;
}

export interface Located {
  file: string;
  range: Range;
}

export interface TreeProblem extends Located {
  kind: 'cycle' | 'outside' | 'missing' | 'remote' | 'hashed-name' | 'no-namespace' | 'patch';
  message: string;
}

export interface RenderTree {
  dir: string;
  /** Each file once, with the first chain that renders it. */
  files: Map<string, RenderedFile>;
  /**
   * Every time a file is rendered: a base listed by two overlays (or a component included by
   * several kustomizations) yields distinct objects, each transformed by its own chain.
   */
  occurrences: RenderedFile[];
  /** Every kustomization file the build reads, inner ones first, with its chain (itself last). */
  kustomizations: Array<{ spec: KustomizeFile; chain: readonly KustomizeFile[] }>;
  /** Flux `spec.components` of a path without a kustomization file (Flux's generated root includes them). */
  rootComponents: KustomizeFile[];
  problems: TreeProblem[];
}

/** What a walk reads of the workspace: the file index, or a recorder in front of it (RenderTreeCache). */
export type TreeSource = Pick<FileIndex, 'exists' | 'isDirectory' | 'children' | 'model'>;

export function findKustomizeFile(index: TreeSource, dir: string): string | undefined {
  for (const name of kustomizationFileNames) {
    const file = dir === '' ? name : `${dir}/${name}`;
    if (index.exists(file)) return file;
  }
  return undefined;
}

/** Bounds the walk of pathological trees (bases shared by many overlays, many times over). */
const maxVisits = 5000;

/**
 * Walks `path` as Flux renders a Kustomization's spec.path (undefined: the source root).
 * `components` are Flux's `spec.components`, relative to the path; `origin` is where the
 * path is written.
 */
export function walkRenderTree(index: TreeSource, path: string | undefined, components: readonly Ref[], origin: Located, reads: string[]): RenderTree {
  const tree: RenderTree = { dir: '', files: new Map(), occurrences: [], kustomizations: [], rootComponents: [], problems: [] };
  const visiting: string[] = [];
  let visits = 0;

  const problem = (p: TreeProblem) => {
    if (!tree.problems.some((q) => q.kind === p.kind && q.file === p.file && q.range.start === p.range.start && q.message === p.message)) tree.problems.push(p);
  };

  const add = (file: string, role: RenderRole, chain: readonly KustomizeFile[], generator?: GeneratorSpec) => {
    const rendered: RenderedFile = { file, role, chain, generator, optOut: optOutOf(chain, generator) };
    tree.occurrences.push(rendered);
    if (!tree.files.has(file)) tree.files.set(file, rendered);
  };

  const resolve = (base: string, ref: Ref, at: string): string | undefined => {
    if (isRemote(ref.value)) {
      problem({ kind: 'remote', file: at, range: ref.range, message: `${ref.value} is remote: it is not fetched, so what it renders is not checked` });
      return undefined;
    }
    const target = resolveInside(base, ref.value);
    if (target === undefined) problem({ kind: 'outside', file: at, range: ref.range, message: `${ref.value} points outside the workspace; kustomize refuses to read it and it is not followed` });
    return target;
  };

  const missing = (what: string, ref: string, at: Located) => {
    // Flux builds on Linux, where `\` is an ordinary character in a file name.
    const hint = ref.includes('\\') ? ` (\`\\\` is not a path separator for Flux; use \`/\`)` : '';
    problem({ kind: 'missing', ...at, message: `${what}${hint}` });
  };

  const visitDir = (path: string, ref: string, chain: readonly KustomizeFile[], listedAt: Located, isFluxRoot: boolean, extraComponents: readonly Ref[]): KustomizeFile | undefined => {
    if (visiting.includes(path)) {
      problem({ kind: 'cycle', ...listedAt, message: `kustomization cycle: ${[...visiting.slice(visiting.indexOf(path)), path].map((d) => d || '.').join(' → ')}` });
      return undefined;
    }
    if (++visits > maxVisits) return undefined;
    visiting.push(path);
    let spec: KustomizeFile | undefined;
    const kustomizeFile = findKustomizeFile(index, path);
    if (kustomizeFile) {
      reads.push(kustomizeFile);
      spec = readKustomizeFile(kustomizeFile, index.model(kustomizeFile)?.roots[0]);
      visitKustomization(path, spec, [...chain, spec], extraComponents);
    } else if (isFluxRoot && index.isDirectory(path)) {
      // Flux generates the kustomization of a plain directory: every manifest, recursively,
      // and each subdirectory that has its own kustomization file as a whole.
      visitPlainDirectory(path, chain);
      for (const ref of extraComponents) {
        const component = visitRef(path, ref, origin.file, chain, 'component');
        if (component) tree.rootComponents.push(component);
      }
    } else if (index.isDirectory(path)) {
      missing(`${path || '.'} has no kustomization.yaml; kustomize cannot build it`, ref, listedAt);
    } else if (isFluxRoot && index.exists(path)) {
      missing(`spec.path ${ref} is a file; Flux builds a directory`, ref, listedAt);
    } else {
      missing(`${ref || '.'} does not exist in the workspace`, ref, listedAt);
    }
    visiting.pop();
    return spec;
  };

  const visitPlainDirectory = (path: string, chain: readonly KustomizeFile[]) => {
    const { files, dirs } = index.children(path);
    for (const file of files) if (isManifestFile(file) && !sourceIgnored(file)) add(file, 'resource', chain);
    for (const sub of dirs) {
      if (sourceIgnored(sub)) continue;
      if (findKustomizeFile(index, sub)) visitDir(sub, sub, chain, origin, false, []);
      else visitPlainDirectory(sub, chain);
    }
  };

  const visitRef = (base: string, ref: Ref, at: string, chain: readonly KustomizeFile[], as: 'resource' | 'component'): KustomizeFile | undefined => {
    const target = resolve(base, ref, at);
    if (target === undefined) return undefined;
    if (as === 'resource' && index.exists(target)) {
      add(target, 'resource', chain);
      return undefined;
    }
    return visitDir(target, ref.value, chain, { file: at, range: ref.range }, false, []);
  };

  const visitKustomization = (path: string, spec: KustomizeFile, chain: readonly KustomizeFile[], extraComponents: readonly Ref[]) => {
    for (const ref of spec.resources) visitRef(path, ref, spec.file, chain, 'resource');
    for (const [ref, at] of [...spec.components.map((c) => [c, spec.file] as const), ...extraComponents.map((c) => [c, origin.file] as const)]) {
      const component = visitRef(path, ref, at, chain, 'component');
      if (component) spec.componentFiles.push(component);
    }
    for (const ref of spec.patchFiles) {
      const target = resolve(path, ref, spec.file);
      if (target !== undefined && index.exists(target)) add(target, 'patch', chain);
      else if (target !== undefined) missing(`patch ${ref.value} does not exist`, ref.value, { file: spec.file, range: ref.range });
    }
    for (const generator of spec.generators) {
      for (const ref of [...generator.files.map((f) => ({ value: f.path, range: f.range })), ...generator.envs]) {
        const target = resolve(path, ref, spec.file);
        const role = generator.envs.includes(ref) ? 'generator-env' : 'generator-file';
        if (target !== undefined && index.exists(target)) add(target, role, chain, generator);
        else if (target !== undefined) missing(`${ref.value} does not exist`, ref.value, { file: spec.file, range: ref.range });
      }
    }
    tree.kustomizations.push({ spec, chain });
  };

  const written = path ?? '';
  const { path: start, clamped } = clampToRoot(written);
  if (clamped) {
    // kustomize-controller joins spec.path to the source root with SecureJoin: `..` cannot
    // climb above the root, so the path quietly means a directory inside it.
    problem({ kind: 'outside', ...origin, message: `spec.path ${written} climbs above the source root; Flux reads it as ./${start}` });
  }
  tree.dir = start;
  visitDir(start, written, [], origin, true, components);
  return tree;
}

/**
 * Render trees kept from one graph build to the next. A tree depends on the kustomization
 * files it read and on which files and directories exist: it is walked again only when one of
 * those files has a new version, or a file appeared or disappeared where the walk looked (a
 * path it asked about, or under a directory it asked about or listed). In a repository of a
 * thousand Kustomizations a new manifest so has only the trees walked again that could render
 * it; a tree of a plain directory at the root (`path: ./`) listed the root, so any new file
 * has it walked again. Trees are never changed after their walk, so graphs can share them.
 */
export class RenderTreeCache {
  /** By owner (the reading of a Flux Kustomization, which fixes components and origin), then path. */
  private readonly trees = new Memo<object, Map<string, CachedTree>>();
  /** Counts builds: a tree checked in this build is not checked again. */
  private build = 0;
  /**
   * The layout changes since each version a tree of this build was current for, worked out
   * once per build and version: a pull that adds a thousand files is then one pass over them,
   * not one per tree.
   */
  private changes = new Map<number, LayoutChange | null>();

  constructor(private readonly index: FileIndex) {}

  /** Starts a build: each tree is checked again the first time the build asks for it. */
  begin(): void {
    this.build++;
    this.changes.clear();
  }

  /**
   * The tree at `path` with Flux `components`, its path written at `origin`. `owner` is what
   * `components` and `origin` come from, and stays the same object while they do.
   */
  tree(owner: object, path: string, components: readonly Ref[], origin: Located): RenderTree {
    const byPath = this.trees.of(owner, () => new Map());
    const cached = byPath.get(path);
    if (cached && (cached.checked === this.build || this.fresh(cached))) {
      cached.checked = this.build;
      return cached.tree;
    }
    const reads: string[] = [];
    const layout = this.index.layoutVersion();
    const index = this.index;
    const files = new Set<string>();
    const dirs = new Set<string>();
    const source: TreeSource = {
      exists: (file) => (files.add(file), index.exists(file)),
      isDirectory: (dir) => (dirs.add(dir), index.isDirectory(dir)),
      children: (dir) => (dirs.add(dir), index.children(dir)),
      // Not a question about the layout: the kustomization files read are checked by version (`reads`).
      model: (file) => index.model(file),
    };
    const tree = walkRenderTree(source, path, components, origin, reads);
    byPath.set(path, { tree, layout, reads: reads.map((file) => [file, this.index.version(file)]), files, dirs, checked: this.build });
    return tree;
  }

  private fresh(cached: CachedTree): boolean {
    if (!cached.reads.every(([file, version]) => this.index.version(file) === version)) return false;
    const layout = this.index.layoutVersion();
    if (cached.layout === layout) return true;
    const change = this.changesSince(cached.layout);
    if (change === undefined || lookedAt(cached, change)) return false;
    // Current as of now: the next build asks only about what changes after this.
    cached.layout = layout;
    return true;
  }

  /** What changed in the layout since `since`, or undefined when the index cannot say. */
  private changesSince(since: number): LayoutChange | undefined {
    let change = this.changes.get(since);
    if (change === undefined) {
      const files = this.index.layoutChangesSince(since);
      this.changes.set(since, (change = files === undefined ? null : layoutChange(files)));
    }
    return change ?? undefined;
  }
}

/** Files that appeared or disappeared, and every directory they lie in, at any depth. */
interface LayoutChange {
  files: ReadonlySet<string>;
  dirs: Set<string>;
}

function layoutChange(files: ReadonlySet<string>): LayoutChange {
  const dirs = new Set<string>();
  for (const file of files) {
    for (let dir = file; dir !== ''; ) {
      dir = dirname(dir);
      // Its ancestors are in already.
      if (dirs.has(dir)) break;
      dirs.add(dir);
    }
  }
  return { files, dirs };
}

/**
 * Whether files appearing or disappearing can change what the walk found: it asked whether one
 * of them exists, or about a directory one of them is in (whether the directory exists and what
 * it holds both change with its first or last file, at any depth).
 */
function lookedAt(cached: CachedTree, change: LayoutChange): boolean {
  for (const file of cached.files) if (change.files.has(file)) return true;
  for (const dir of cached.dirs) if (change.dirs.has(dir)) return true;
  return false;
}

interface CachedTree {
  tree: RenderTree;
  /** The layout version the tree is known to be current for. */
  layout: number;
  /** Each kustomization file the walk read, with its version then. */
  reads: Array<[string, number]>;
  /** The paths the walk asked whether they exist. */
  files: Set<string>;
  /** The directories the walk asked whether they exist, or listed: a change at any depth below one counts. */
  dirs: Set<string>;
  /** The build that last found it current. */
  checked: number;
}

/** The opt-out that covers a whole rendered file, innermost first as kustomize would report it. */
function optOutOf(chain: readonly KustomizeFile[], generator: GeneratorSpec | undefined): Located | undefined {
  const owner = chain[chain.length - 1];
  if (generator?.optOut && owner) return { file: owner.file, range: generator.optOut };
  for (let i = chain.length - 1; i >= 0; i--) {
    const range = chain[i].optOut;
    if (range) return { file: chain[i].file, range };
  }
  return undefined;
}
