/**
 * The Flux graph: every Flux Kustomization, what it renders, in which cluster, with which
 * variables. For any file it answers "in which render contexts does this appear?".
 *
 * A graph is built whole, and never changed after. What it is built from is kept while the
 * files it came from are unchanged — file models (workspace/file-model.ts), readings of Flux
 * Kustomizations, kustomization files and ConfigMaps, render trees — so the graph built after
 * an edit redoes little more than joining them up (graph-incremental.test.ts checks it equals
 * one built from scratch).
 */
import { Memo } from '../memo';
import { envsubst } from '../envsubst';
import type { FileIndex } from '../workspace/file-index';
import type { Range } from '../model';
import { strictFromInstaller, strictModeOf, type FluxDefaults, type StrictMode } from './cluster-settings';
import { nameClusters } from './cluster-names';
import { isFluxKustomization, readFluxKustomization, type FluxKustomization, type PostBuild, type SubstituteFrom } from './flux-kustomization';
import { classifySources, type ClusterStart, type DeclaredModel, type SourceVerdict } from './roots';
import { readSourceObject, syncDeclarations, type SourceObject, type SyncDeclaration } from './sources';
import { ClusterObjects } from './cluster-objects';
import { generatedData, inlinePatchSource, levelPatchSources, mergeGenerated, nameAffixes, objectData, placedData, placedFileObject, type FluxOverlay, type ObjectData } from './object-data';
import { mapGet, scalarText } from '../yaml/nodes';
import { clampToRoot, dirname } from './paths';
import { artifactRoots, underRoot, type ArtifactRoot } from './artifact-roots';
import { patchedPostBuild } from './postbuild-patches';
import { RenderTreeCache, type RenderTree, type RenderedFile, type TreeProblem } from './render-tree';
import { gatherVariables, unseenSourcesDefine, type Variable, type VariableSet } from './variables';

export interface Cluster {
  name: string;
  /** The first root; see `roots`. */
  root: FluxKustomization;
  /**
   * The Kustomizations the cluster grows from: usually flux-system alone, or the top-level
   * Kustomizations of one directory when a repository has no bootstrap (applied together).
   */
  roots: FluxKustomization[];
  instances: KustomizationInstance[];
  strictMode: StrictMode;
  /** From the bootstrap header of flux-system/gotk-components.yaml, when there is one. */
  fluxVersion: string | undefined;
  /** ConfigMaps and Secrets the cluster receives, by kind, namespace and name. */
  objects: ClusterObjects;
  /** How the cluster's start was found, and where it is written. */
  origin: ClusterOrigin;
  /** ConfigMaps and Secrets in the cluster's bootstrap folders that no tree renders: applied by hand, looked up last. */
  bootstrapObjects: ObjectData[];
  /** Kustomizations the cluster applies that render another source's files. */
  external: ExternalKustomization[];
  /** Variables `.render-lens.yaml` says reach this cluster from outside the repository. */
  declaredVariables: Variable[];
  /** A webhook that injects `postBuild` into every Kustomization on admission (where it is installed). */
  injector: string | undefined;
}

export interface ClusterOrigin {
  how: 'flux bootstrap' | 'self-applied Kustomization' | SyncDeclaration['how'] | 'declared in .render-lens.yaml' | 'Kustomizations nothing applies';
  file: string;
  range: Range;
  /** The same start declared again (a helmfile and a HelmRelease for one FluxInstance). */
  also: Array<{ file: string; range: Range }>;
  /** The name `.render-lens.yaml` gives a cluster it declares. */
  name?: string;
}

/** A Flux Kustomization on a source other than this repository: what it renders is not here. */
export interface ExternalKustomization {
  kustomization: FluxKustomization;
  /** `Kind/namespace/name` of its source. */
  source: string;
  why: string;
}

/** One Flux Kustomization as applied in one cluster (the same file can serve several). */
export interface KustomizationInstance {
  kustomization: FluxKustomization;
  cluster: Cluster;
  parent: KustomizationInstance | undefined;
  /** The postBuild in force: its own, changed by the parent's patches. */
  postBuild: PostBuild | undefined;
  /** The rendered directory, after the parent's substitution of `${VAR}` in spec.path. */
  dir: string | undefined;
  tree: RenderTree;
  variables: VariableSet;
  strict: boolean;
  /** Does post-build substitution run at all? (postBuild, and variables or strategy Always) */
  substitutes: boolean;
  /**
   * Where the Kustomization object lives, which is where its substituteFrom objects are looked
   * up: the parent's targetNamespace or a kustomize `namespace:` override what it says itself.
   */
  namespace: string;
}

export interface RenderContext {
  cluster: Cluster;
  instance: KustomizationInstance;
  rendered: RenderedFile;
}

export interface GraphProblem extends TreeProblem {
  kustomization: string;
}

const fluxMarker = 'kustomize.toolkit.fluxcd.io';
/** Charts of admission webhooks that add `postBuild.substituteFrom` to every Flux Kustomization. */
const injectorCharts = ['kustomize-mutating-webhook'];
const variableSourceKind = /kind:\s*(ConfigMap|Secret|ExternalSecret|ClusterExternalSecret)\b/;

/** Whether a file may hold a variable source (`kind: ConfigMap`, Secret, ExternalSecret), once per version. */
export function mayHoldVariableSources(index: FileIndex, file: string): boolean {
  return index.derived(file, 'holds-sources', (text) => variableSourceKind.test(text)) ?? false;
}

/** Render trees outlive a graph: the next graph of the same index reuses those still current. */
const treeCaches = new Memo<FileIndex, RenderTreeCache>();

export interface GraphOptions extends FluxDefaults {
  /** Files taken out of the model (`exclude` in `.render-lens.yaml` and the settings). */
  excluded?: (file: string) => boolean;
  /** The checkout's git remotes: a GitRepository with one of these urls is this repository. */
  repositoryUrls?: readonly string[];
  /** Clusters, sources and variables `.render-lens.yaml` declares. */
  declared?: DeclaredModel;
}

export class FluxGraph {
  readonly clusters: Cluster[] = [];
  readonly kustomizations: FluxKustomization[] = [];
  readonly problems: GraphProblem[] = [];
  /** Source objects the repository defines. */
  readonly sources: SourceObject[] = [];
  /** FluxInstance syncs (as objects or flux-instance chart values) found in the repository. */
  readonly syncs: SyncDeclaration[] = [];
  /** Every Kustomization on another source (never walked here). */
  readonly external: ExternalKustomization[] = [];
  /** Kustomizations on this repository that no cluster applies. */
  readonly unapplied: FluxKustomization[] = [];
  /** Files holding a Flux Kustomization in a folder whose kustomization.yaml does not list them. */
  readonly unlisted: string[] = [];
  private verdicts = new Map<FluxKustomization, SourceVerdict>();
  private pushed: readonly ArtifactRoot[] | undefined;
  private problemsByFile: Map<string, GraphProblem[]> | undefined;
  private patchContexts: Map<string, RenderContext[]> | undefined;
  private readonly contextsByFile = new Map<string, RenderContext[]>();
  private readonly trees: RenderTreeCache;
  /** The Flux Kustomizations of each file, in document order. */
  private readonly byFile = new Map<string, FluxKustomization[]>();

  private constructor(
    private readonly index: FileIndex,
    private readonly defaults: GraphOptions,
  ) {
    this.trees = treeCaches.of(index, () => new RenderTreeCache(index));
  }

  static build(index: FileIndex, defaults: GraphOptions = { strict: true, assumed: true }): FluxGraph {
    const graph = new FluxGraph(index, defaults);
    graph.trees.begin();
    graph.discover();
    graph.assemble();
    return graph;
  }

  contextsOf(file: string): readonly RenderContext[] {
    return this.contextsByFile.get(file) ?? [];
  }

  /**
   * The render contexts of a kustomization file's own patch bodies (`patches[].patch` and the
   * like): what they patch is rendered, and substituted, in each Kustomization whose tree
   * reads the file. The file itself is not a resource, so contextsOf does not list it.
   */
  patchContextsOf(file: string): readonly RenderContext[] {
    if (!this.patchContexts) {
      this.patchContexts = new Map();
      for (const cluster of this.clusters) {
        for (const instance of cluster.instances) {
          for (const { spec, chain } of instance.tree.kustomizations) {
            const list = this.patchContexts.get(spec.file) ?? [];
            if (!list.some((c) => c.instance === instance)) list.push({ cluster, instance, rendered: { file: spec.file, role: 'patch', chain } });
            this.patchContexts.set(spec.file, list);
          }
        }
      }
    }
    return this.patchContexts.get(file) ?? [];
  }

  /** The build problems (a missing path, a cycle) written in `file`: KUSTOMIZE-BUILD reports them there. */
  problemsIn(file: string): readonly GraphProblem[] {
    if (!this.problemsByFile) {
      this.problemsByFile = new Map();
      for (const p of this.problems) {
        const list = this.problemsByFile.get(p.file);
        if (list) list.push(p);
        else this.problemsByFile.set(p.file, [p]);
      }
    }
    return this.problemsByFile.get(file) ?? [];
  }

  /** Whether `k` renders this repository's files, and why (or which source it renders instead). */
  /** Folders CI pushes as OCI artifacts (artifact-roots.ts); read once per graph. */
  get artifactRoots(): readonly ArtifactRoot[] {
    return (this.pushed ??= artifactRoots(this.index));
  }

  sourceOf(k: FluxKustomization): SourceVerdict {
    return this.verdicts.get(k) ?? { kind: 'this', why: 'assumed' };
  }

  /** Only files that mention Flux's API group are parsed to find Kustomizations. */
  private discover(): void {
    const excluded = this.defaults.excluded ?? (() => false);
    for (const file of this.index.files()) {
      if (!/\.ya?ml$/i.test(file) || excluded(file)) continue;
      if (this.mayDeclareSources(file)) this.discoverSources(file);
      if (!this.mentionsFlux(file)) continue;
      for (const object of this.index.model(file)?.objects ?? []) {
        if (!isFluxKustomization(object)) continue;
        const k = readFluxKustomization(object);
        this.kustomizations.push(k);
        const inFile = this.byFile.get(file);
        if (inFile) inFile.push(k);
        else this.byFile.set(file, [k]);
      }
    }
  }

  private discoverSources(file: string): void {
    const model = this.index.model(file);
    if (!model) return;
    model.roots.forEach((root, index) => {
      const object = model.objects.find((o) => o.index === index);
      const source = object && readSourceObject(object);
      if (source) this.sources.push(source);
      this.syncs.push(...syncDeclarations(file, root, object));
    });
  }

  /** Source objects, FluxInstances and flux-instance values: cheap text tests first. */
  private mayDeclareSources(file: string): boolean {
    return this.index.derived(file, 'may-declare-sources', (text) => text.includes('source.toolkit.fluxcd.io') || text.includes('sync:')) ?? false;
  }

  private assemble(): void {
    // What each Kustomization would render here, were its source this repository. A `${VAR}`
    // in spec.path matches any directory there, so the children of such a parent are not
    // mistaken for roots.
    const renders = new Map<FluxKustomization, Set<string>>();
    const walkedDirs = new Set<string>();
    for (const k of this.kustomizations) {
      const files = new Set<string>();
      for (const dir of this.candidateDirs(k.path?.value)) {
        const tree = this.walk(k, dir);
        for (const file of tree.files.keys()) files.add(file);
        for (const { spec } of tree.kustomizations) walkedDirs.add(dirname(spec.file));
      }
      renders.set(k, files);
    }
    const classified = classifySources({
      index: this.index,
      kustomizations: this.kustomizations,
      sources: this.sources,
      syncs: this.syncs,
      renders,
      repositoryUrls: this.defaults.repositoryUrls ?? [],
      declared: this.defaults.declared,
      artifactRoots: this.artifactRoots,
    });
    this.verdicts = classified.verdicts;
    const onThisRepo = (k: FluxKustomization) => this.sourceOf(k).kind === 'this';
    for (const k of this.kustomizations) {
      const verdict = this.sourceOf(k);
      if (verdict.kind === 'external') this.external.push({ kustomization: k, source: verdict.source, why: verdict.why });
    }
    // A Kustomization in a folder whose kustomization.yaml does not list it is not applied.
    const renderedByAny = new Set<string>();
    for (const k of this.kustomizations) if (onThisRepo(k)) for (const file of renders.get(k)!) renderedByAny.add(file);
    const isUnlisted = (k: FluxKustomization) => !renderedByAny.has(k.object.file) && walkedDirs.has(dirname(k.object.file));

    const placed = new Set<string>();
    if (classified.roots.length > 0) {
      for (const root of classified.roots) this.growCluster([root.kustomization], placed, root.origin, root.fluxVersion);
    } else {
      this.growUnappliedRoots(renders, onThisRepo, isUnlisted, placed);
    }
    // Every file some cluster renders (in any role).
    const inClusters = new Set<string>();
    for (const cluster of this.clusters) for (const instance of cluster.instances) for (const file of instance.tree.files.keys()) inClusters.add(file);
    // A Kustomization a cluster renders as a patch (it patches another) is applied, in a way.
    for (const k of this.kustomizations) {
      if (placed.has(k.id) || !onThisRepo(k) || inClusters.has(k.object.file)) continue;
      this.unapplied.push(k);
      if (isUnlisted(k) && !this.unlisted.includes(k.object.file)) this.unlisted.push(k.object.file);
    }
    nameClusters(this.clusters);
    this.assignBootstrapObjects(inClusters);
    for (const cluster of this.clusters) {
      cluster.injector = this.injectorOf(cluster);
      cluster.declaredVariables = this.defaults.declared?.clusters.find((c) => c.name === cluster.name)?.variables ?? [];
      // Instances are in breadth-first order: a parent's variables are ready before its children's.
      for (const instance of cluster.instances) this.resolveVariables(instance);
      for (const instance of cluster.instances) {
        for (const rendered of instance.tree.files.values()) {
          const list = this.contextsByFile.get(rendered.file) ?? [];
          list.push({ cluster, instance, rendered });
          this.contextsByFile.set(rendered.file, list);
        }
      }
    }
  }

  /**
   * No bootstrap in the repository: the Kustomizations on this repository that no other one
   * applies are the roots, and those in one directory (naming no `clusters/<name>`) are
   * applied together, as one cluster.
   */
  private growUnappliedRoots(renders: ReadonlyMap<FluxKustomization, ReadonlySet<string>>, onThisRepo: (k: FluxKustomization) => boolean, isUnlisted: (k: FluxKustomization) => boolean, placed: Set<string>): void {
    const renderedBy = new Map<string, string>();
    const renderedByOthers = new Set<string>();
    const renderers = new Map<string, string[]>();
    for (const k of this.kustomizations) {
      if (!onThisRepo(k)) continue;
      for (const file of renders.get(k)!) {
        const first = renderedBy.get(file);
        if (first === undefined) renderedBy.set(file, k.id);
        else if (first !== k.id) renderedByOthers.add(file);
        const list = renderers.get(file);
        if (list) list.push(k.id);
        else renderers.set(file, [k.id]);
      }
    }
    const isRoot = (k: FluxKustomization) => {
      const first = renderedBy.get(k.object.file);
      return first === undefined ? !isUnlisted(k) : first === k.id && !renderedByOthers.has(k.object.file);
    };
    const groups = new Map<string, FluxKustomization[]>();
    for (const root of this.kustomizations.filter((k) => onThisRepo(k) && isRoot(k))) {
      const named = /(?:^|\/)clusters\/([^/]+)\//.exec(`${clampToRoot(root.path?.value ?? '').path}/`)?.[1] ?? /(?:^|\/)clusters\/([^/]+)\//.exec(root.object.file)?.[1];
      const key = named ? `clusters/${named}` : `dir:${dirname(root.object.file)}`;
      groups.set(key, [...(groups.get(key) ?? []), root]);
    }
    for (const roots of groups.values()) {
      this.growCluster(roots, placed, { how: 'Kustomizations nothing applies', file: roots[0].object.file, range: roots[0].nameRange, also: [] });
    }
    // Kustomizations only reachable through a cycle (or an unresolved path) still get a cluster;
    // one that a placed Kustomization renders as a patch (a Kustomization patching another) does not.
    const renderedByPlaced = (k: FluxKustomization) => (renderers.get(k.object.file) ?? []).some((id) => placed.has(id));
    for (const k of this.kustomizations) {
      if (!placed.has(k.id) && onThisRepo(k) && !isUnlisted(k) && !renderedByPlaced(k)) this.growCluster([k], placed, { how: 'Kustomizations nothing applies', file: k.object.file, range: k.nameRange, also: [] });
    }
  }

  /** A HelmRelease of a known postBuild injector among what the cluster applies: `kind name (file)`. */
  private injectorOf(cluster: Cluster): string | undefined {
    for (const instance of cluster.instances) {
      for (const rendered of instance.tree.files.values()) {
        if (rendered.role !== 'resource' || !this.index.derived(rendered.file, 'mentions-injector', (text) => injectorCharts.some((chart) => text.includes(chart)))) continue;
        for (const object of this.index.model(rendered.file)?.objects ?? []) {
          if (object.kind !== 'HelmRelease') continue;
          const spec = mapGet(object.document.contents, 'spec');
          const chart = scalarText(mapGet(spec, 'chart', 'spec', 'chart')) ?? scalarText(mapGet(spec, 'chartRef', 'name'));
          if (chart !== undefined && injectorCharts.includes(chart)) return `HelmRelease ${object.name} (${object.file})`;
        }
      }
    }
    return undefined;
  }

  /** Unrendered ConfigMaps and Secrets of a cluster's bootstrap folders (applied by hand). */
  private assignBootstrapObjects(rendered: ReadonlySet<string>): void {
    const excluded = this.defaults.excluded ?? (() => false);
    for (const file of this.index.files()) {
      if (rendered.has(file) || !/\.ya?ml$/i.test(file) || excluded(file) || !this.mayHoldSources(file)) continue;
      const owners = this.clusters.filter((c) => bootstrapsOf(c, file, this.clusters.length));
      if (owners.length === 0) continue;
      for (const object of this.index.model(file)?.objects ?? []) {
        const data = objectData(object);
        if (data) for (const cluster of owners) cluster.bootstrapObjects.push(data);
      }
    }
  }

  /** Only files that mention Flux's API group can hold Flux Kustomizations. */
  private mentionsFlux(file: string): boolean {
    return this.index.derived(file, 'mentions-flux', (text) => text.includes(fluxMarker)) ?? false;
  }

  /** Only files that say `kind: ConfigMap` (Secret, ExternalSecret) can hold variable sources. */
  private mayHoldSources(file: string): boolean {
    return mayHoldVariableSources(this.index, file);
  }

  /** The folder of this repository a root's spec.path names (inside a pushed artifact's folder, when on one). */
  private dirOf(k: FluxKustomization): string {
    const verdict = this.verdicts.get(k);
    return underRoot(verdict?.kind === 'this' ? (verdict.root ?? '') : '', k.path?.value ?? '');
  }

  /** The directories a spec.path can name; each `${…}` segment stands for any directory. */
  private candidateDirs(path: string | undefined): string[] {
    if (!path?.includes('${')) return [path ?? ''];
    let dirs = [''];
    for (const segment of clampToRoot(path).path.split('/')) {
      dirs = segment.includes('${')
        ? dirs.flatMap((d) => this.index.children(d).dirs as string[])
        : dirs.map((d) => (d === '' ? segment : `${d}/${segment}`)).filter((d) => this.index.isDirectory(d));
    }
    return dirs;
  }

  private growCluster(roots: FluxKustomization[], placed: Set<string>, origin: ClusterOrigin, askedVersion?: ClusterStart['fluxVersion']): void {
    const strictMode = strictModeOf(this.index, [...new Set(roots.flatMap((r) => [this.dirOf(r), dirname(dirname(r.object.file)), dirname(r.object.file)]))], this.defaults, askedVersion);
    const cluster: Cluster = {
      name: '',
      root: roots[0],
      roots,
      instances: [],
      strictMode,
      fluxVersion: strictMode.fluxVersion,
      objects: new ClusterObjects(),
      origin,
      bootstrapObjects: [],
      external: [],
      declaredVariables: [],
      injector: undefined,
    };
    this.clusters.push(cluster);
    const inCluster = new Set(roots.map((r) => r.id));
    for (const root of roots) placed.add(root.id);
    const queue = roots.map((root) => this.instantiate(root, undefined, undefined, cluster));
    const deferred: Array<{ child: FluxKustomization; parent: KustomizationInstance; rendered: RenderedFile }> = [];
    for (let next = 0; ; ) {
      while (next < queue.length) {
        const instance = queue[next++];
        cluster.instances.push(instance);
        this.addObjects(cluster, instance);
        for (const rendered of instance.tree.files.values()) {
          if (rendered.role !== 'resource' || !this.mentionsFlux(rendered.file)) continue;
          for (const child of this.byFile.get(rendered.file) ?? []) {
            if (inCluster.has(child.id)) continue;
            inCluster.add(child.id);
            placed.add(child.id);
            const verdict = this.sourceOf(child);
            if (verdict.kind === 'external') {
              cluster.external.push({ kustomization: child, source: verdict.source, why: verdict.why });
              continue;
            }
            if (child.path?.value.includes('${')) deferred.push({ child, parent: instance, rendered });
            else queue.push(this.instantiate(child, instance, rendered, cluster));
          }
        }
      }
      if (deferred.length === 0) break;
      // A `${VAR}` path is resolved with the parent's variables, which come from objects anywhere
      // in the cluster: wait until every statically known Kustomization has added its objects.
      for (const { child, parent, rendered } of deferred.splice(0)) queue.push(this.instantiate(child, parent, rendered, cluster));
    }
    this.strictFromInstaller(cluster);
  }

  /**
   * A cluster whose strict mode nothing in its Flux files decided may install Flux itself from
   * Flux's releases at a tag (a Kustomization on a fluxcd/flux2 GitRepository or a
   * flux-manifests OCIRepository): that tag decides. Variables are resolved after this.
   */
  private strictFromInstaller(cluster: Cluster): void {
    if (!cluster.strictMode.assumed) return;
    for (const { source } of cluster.external) {
      const [kind, namespace, name] = source.split('/');
      // Alike sources in several clusters: the one this cluster applies.
      const alike = this.sources.filter((s) => s.kind === kind && s.namespace === namespace && s.name === name);
      const object = alike.find((s) => cluster.instances.some((i) => i.tree.files.has(s.file))) ?? alike[0];
      const decided = object && strictFromInstaller(object);
      if (!decided) continue;
      cluster.strictMode = decided;
      cluster.fluxVersion = decided.fluxVersion;
      for (const instance of cluster.instances) instance.strict = decided.strict;
      return;
    }
  }

  private instantiate(kustomization: FluxKustomization, parent: KustomizationInstance | undefined, rendered: RenderedFile | undefined, cluster: Cluster): KustomizationInstance {
    let postBuild = kustomization.postBuild;
    let namespace = kustomization.namespace;
    if (parent && rendered) {
      const kustomizeNamespace = rendered.chain.find((k) => !k.isComponent && k.namespace !== undefined)?.namespace;
      namespace = parent.kustomization.targetNamespace ?? kustomizeNamespace ?? kustomization.namespace;
      const patched = this.patchedBy(kustomization, parent.kustomization, parent.tree, rendered, namespace);
      postBuild = patched.postBuild;
    }
    const path = this.resolvePath(kustomization, parent);
    const tree = path === undefined ? emptyTree() : this.walk(kustomization, path);
    this.report(tree.problems, kustomization.id);
    // A root that applies itself (flux-system) is applied as its own tree patches it: a
    // kustomization.yaml beside gotk-sync.yaml that gives every Flux Kustomization its
    // postBuild gives flux-system one too.
    const self = parent ? undefined : tree.files.get(kustomization.object.file);
    if (self?.role === 'resource') postBuild = this.patchedBy(kustomization, kustomization, tree, self, namespace).postBuild;
    return {
      kustomization,
      cluster,
      parent,
      postBuild,
      dir: path === undefined ? undefined : tree.dir,
      tree,
      variables: { vars: new Map(), sources: [], opaque: false, openBecause: [] },
      strict: cluster.strictMode.strict,
      substitutes: false,
      namespace,
    };
  }

  /** spec.path, with `${VAR}` substituted by the parent (which substitutes the child's manifest); undefined when that fails. */
  private resolvePath(kustomization: FluxKustomization, parent: KustomizationInstance | undefined): string | undefined {
    // No spec.path means the root of the source.
    const path = kustomization.path?.value ?? '';
    if (!path.includes('${')) return path;
    const unresolved = (why: string) => {
      const at = { file: kustomization.object.file, range: kustomization.path!.range };
      this.report([{ kind: 'missing', ...at, message: `spec.path ${path} is not resolved: ${why}` }], kustomization.id);
      return undefined;
    };
    if (!parent) return unresolved('no parent Kustomization substitutes it');
    // The parent's inline values may come from its own parent: resolve from the top down.
    const ancestors: KustomizationInstance[] = [];
    for (let p: KustomizationInstance | undefined = parent; p; p = p.parent) ancestors.unshift(p);
    for (const p of ancestors) this.resolveVariables(p);
    if (!parent.substitutes) return unresolved(`its parent ${parent.kustomization.name} does not substitute variables`);
    let unknown: string | undefined;
    const result = envsubst(
      path,
      (name) => {
        const variable = parent.variables.vars.get(name);
        if (variable && variable.value === undefined) unknown ??= name;
        return variable ? (variable.value ?? '') : undefined;
      },
      { strict: parent.strict },
    );
    if (result.kind !== 'output') return unresolved(`${parent.kustomization.name} fails to substitute it (${result.message})`);
    if (unknown !== undefined) return unresolved(`the value of ${unknown} is not in the repository`);
    return result.text;
  }

  private walk(kustomization: FluxKustomization, path: string): RenderTree {
    const origin = { file: kustomization.object.file, range: kustomization.path?.range ?? kustomization.nameRange };
    // On a pushed artifact, paths are read inside the folder CI pushes.
    const root = this.verdicts.get(kustomization);
    const inRoot = root?.kind === 'this' && root.root ? underRoot(root.root, path) : path;
    return this.trees.tree(kustomization, inRoot, kustomization.components, origin);
  }

  /** `child` as `by` applies it: kustomize patches in `by`'s tree, then Flux components and spec.patches of `by`. */
  private patchedBy(child: FluxKustomization, by: FluxKustomization, tree: RenderTree, rendered: RenderedFile, namespace: string): { postBuild: PostBuild | undefined } {
    const levels = [...rendered.chain].reverse().filter((k) => !k.isComponent);
    const patches = [...levels, ...tree.rootComponents].flatMap((k) => levelPatchSources(k, this.index)).concat(by.patches.map((patch) => inlinePatchSource(by.object.file, patch, this.index)));
    const patched = patchedPostBuild(child, patches, namespace);
    this.report(patched.problems, by.id);
    return patched;
  }

  private report(problems: readonly TreeProblem[], kustomization: string): void {
    for (const p of problems) {
      if (this.problems.some((q) => q.kind === p.kind && q.file === p.file && q.range.start === p.range.start && q.range.end === p.range.end && q.message === p.message)) continue;
      this.problems.push({ ...p, kustomization });
    }
  }

  /** The ConfigMaps and Secrets an instance applies, as the cluster receives them. */
  private addObjects(cluster: Cluster, instance: KustomizationInstance): void {
    const k = instance.kustomization;
    const flux: FluxOverlay = { file: k.object.file, patches: k.patches, components: instance.tree.rootComponents, targetNamespace: k.targetNamespace };
    for (const rendered of instance.tree.occurrences) {
      if (rendered.role !== 'resource' || !this.mayHoldSources(rendered.file)) continue;
      const place = () =>
        (this.index.model(rendered.file)?.objects ?? []).flatMap((object) => {
          const placed = placedFileObject(object, rendered.chain, flux, this.index);
          if (placed) return [placed];
          const data = objectData(object);
          return data ? [placedData(data, rendered.chain, flux, this.index)] : [];
        });
      const holds = (part: string) => this.index.derived(rendered.file, `holds ${part}`, (text) => text.includes(part)) ?? false;
      cluster.objects.putLater(holds, nameAffixes(rendered.chain), place);
    }
    // Generators, inner kustomizations first: a `behavior: merge` overlay finds its base's object.
    const generated = new Map<string, ObjectData>();
    for (const { spec, chain } of instance.tree.kustomizations) {
      for (const generator of spec.generators) {
        let data = generatedData(generator, spec, this.index);
        const key = `${generator.kind}/${generator.name}`;
        const base = generated.get(key);
        if (generator.behavior !== 'create' && base) data = mergeGenerated(base, data, generator.behavior);
        generated.set(key, data);
        cluster.objects.put(placedData(data, chain, flux, this.index));
      }
    }
  }

  private resolveVariables(instance: KustomizationInstance): void {
    const { cluster, kustomization, namespace } = instance;
    const find = (ref: SubstituteFrom): { object: ObjectData | undefined; note?: string } => {
      const object =
        cluster.objects.get(ref.kind, namespace, ref.name) ??
        cluster.objects.get(ref.kind, '*', ref.name) ??
        cluster.bootstrapObjects.find((o) => o.kind === ref.kind && o.name === ref.name && (o.namespace ?? namespace) === namespace);
      if (object) return { object };
      const note = this.nearMiss(cluster, ref, namespace);
      if (note) this.report([{ kind: note.kind, file: ref.file, range: ref.range, message: note.message }], kustomization.id);
      return { object: undefined, note: note?.message };
    };
    const postBuild = instance.postBuild && this.substitutedByParent(instance, instance.postBuild);
    instance.variables = gatherVariables(kustomization, postBuild, find, cluster.name, instance.postBuild ? cluster.declaredVariables : []);
    if (cluster.injector) {
      // The webhook gives every Kustomization variables on admission, postBuild or not.
      instance.variables.opaque = true;
      instance.variables.openBecause.push(`the variables the ${cluster.injector} injects on admission`);
    }
    const unseen = unseenSourcesDefine(instance.variables);
    instance.substitutes = cluster.injector !== undefined || (instance.postBuild !== undefined && (instance.variables.vars.size > 0 || unseen || instance.postBuild.strategy === 'Always'));
  }

  /** Why a substituteFrom object that looks present is not found by Flux. */
  private nearMiss(cluster: Cluster, ref: SubstituteFrom, namespace: string): { kind: 'hashed-name' | 'no-namespace'; message: string } | undefined {
    const hashed = cluster.objects.get(ref.kind, namespace, ref.name, true);
    if (hashed) {
      return {
        kind: 'hashed-name',
        message: `${ref.kind} ${ref.name} is generated with a content-hash suffix (${hashed.file}); Flux looks up the exact name, so set disableNameSuffixHash: true`,
      };
    }
    const bare = cluster.objects.get(ref.kind, '', ref.name);
    if (bare) return { kind: 'no-namespace', message: `${ref.kind} ${ref.name} (${bare.file}) has no namespace, so Flux cannot apply it ("namespace not specified"); it should be in ${namespace}` };
    return undefined;
  }

  /**
   * The parent substitutes the child's manifest, so `${VAR}` in the child's inline
   * `substitute` values arrives already replaced by the parent's variables.
   */
  private substitutedByParent(instance: KustomizationInstance, postBuild: PostBuild): PostBuild {
    const parent = instance.parent;
    if (!parent?.substitutes || !postBuild.substitute.some((v) => v.value.includes('$'))) return postBuild;
    const lookup = (name: string) => {
      const variable = parent.variables.vars.get(name);
      return variable ? (variable.value ?? '') : undefined;
    };
    const substitute = postBuild.substitute.map((entry) => {
      const result = envsubst(entry.value, lookup, { strict: parent.strict });
      return result.kind === 'output' ? { ...entry, value: result.text } : entry;
    });
    return { ...postBuild, substitute };
  }

}

/**
 * Whether `file` (not rendered by any tree) lies in one of the cluster's bootstrap folders:
 * beside its start (a bootstrap folder applied by hand, a FluxInstance's values), or in a
 * `bootstrap/` folder that names the cluster (any, in a repository of one cluster).
 */
function bootstrapsOf(cluster: Cluster, file: string, clusters: number): boolean {
  const dirs = [cluster.origin, ...cluster.origin.also].map((at) => dirname(at.file));
  if (cluster.origin.how === 'Kustomizations nothing applies') dirs.push(...cluster.roots.map((r) => dirname(r.object.file)));
  if (dirs.some((dir) => (dir === '' ? !file.includes('/') : file.startsWith(`${dir}/`)))) return true;
  const segments = file.split('/');
  return segments.includes('bootstrap') && (clusters === 1 || segments.includes(cluster.name));
}

function emptyTree(): RenderTree {
  return { dir: '', files: new Map(), occurrences: [], kustomizations: [], rootComponents: [], problems: [] };
}
