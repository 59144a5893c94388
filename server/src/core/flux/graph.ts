/**
 * The Flux graph: every Flux Kustomization, what it renders, in which cluster, with which
 * variables. For any file it answers "in which render contexts does this appear?".
 */
import { envsubst } from '../envsubst';
import type { FileIndex } from '../workspace/file-index';
import { clusterName, strictModeOf, type FluxDefaults, type StrictMode } from './cluster-settings';
import { isFluxKustomization, readFluxKustomization, type FluxKustomization, type PostBuild, type SubstituteFrom } from './flux-kustomization';
import { generatedData, objectData, patchedData, type ObjectData } from './object-data';
import { dirname, resolveInside } from './paths';
import { patchedPostBuild } from './postbuild-patches';
import { walkRenderTree, type RenderTree, type RenderedFile, type TreeProblem } from './render-tree';
import { gatherVariables, type VariableSet } from './variables';

export interface Cluster {
  name: string;
  root: FluxKustomization;
  instances: KustomizationInstance[];
  strictMode: StrictMode;
  /** ConfigMaps and Secrets the cluster receives, by `Kind/namespace/name`. */
  objects: Map<string, ObjectData>;
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

export class FluxGraph {
  readonly clusters: Cluster[] = [];
  readonly kustomizations: FluxKustomization[] = [];
  readonly problems: GraphProblem[] = [];
  private readonly contextsByFile = new Map<string, RenderContext[]>();
  private readonly unownedObjects: ObjectData[] = [];

  private constructor(
    private readonly index: FileIndex,
    private readonly defaults: FluxDefaults,
  ) {}

  static build(index: FileIndex, defaults: FluxDefaults = { strict: true }): FluxGraph {
    const graph = new FluxGraph(index, defaults);
    graph.discover();
    graph.assemble();
    return graph;
  }

  contextsOf(file: string): readonly RenderContext[] {
    return this.contextsByFile.get(file) ?? [];
  }

  /** Only files that mention Flux's API group are parsed to find Kustomizations. */
  private discover(): void {
    for (const file of this.index.files()) {
      if (!/\.ya?ml$/i.test(file)) continue;
      if (!this.index.text(file)?.includes(fluxMarker)) continue;
      for (const object of this.index.objects(file)) if (isFluxKustomization(object)) this.kustomizations.push(readFluxKustomization(object));
    }
  }

  private assemble(): void {
    const staticTrees = new Map(this.kustomizations.map((k) => [k.id, this.walk(k, k.path?.value)]));
    const renderedBy = new Map<string, Set<string>>();
    for (const [id, tree] of staticTrees) for (const file of tree.files.keys()) (renderedBy.get(file) ?? renderedBy.set(file, new Set()).get(file)!).add(id);
    const isRoot = (k: FluxKustomization) => [...(renderedBy.get(k.object.file) ?? [])].every((id) => id === k.id);

    const placed = new Set<string>();
    const roots = this.kustomizations.filter(isRoot);
    for (const root of roots) this.growCluster(root, placed);
    // Kustomizations only reachable through a cycle still get a cluster of their own.
    for (const k of this.kustomizations) if (!placed.has(k.id)) this.growCluster(k, placed);

    this.collectUnownedObjects(renderedBy);
    for (const cluster of this.clusters) {
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

  private growCluster(root: FluxKustomization, placed: Set<string>): void {
    const cluster: Cluster = {
      name: this.uniqueName(clusterName(root.object.file, root.path?.value, root.name)),
      root,
      instances: [],
      strictMode: { strict: this.defaults.strict, reason: '' },
      objects: new Map(),
    };
    cluster.strictMode = strictModeOf(this.index, [...new Set([resolveInside('', root.path?.value ?? '.') ?? '', dirname(dirname(root.object.file)), dirname(root.object.file)])], this.defaults);
    this.clusters.push(cluster);
    const queue: KustomizationInstance[] = [this.instantiate(root, undefined, cluster)];
    const inCluster = new Set<string>([root.id]);
    placed.add(root.id);
    while (queue.length > 0) {
      const instance = queue.shift()!;
      cluster.instances.push(instance);
      this.addObjects(cluster, instance);
      for (const rendered of instance.tree.files.values()) {
        if (rendered.role !== 'resource' || !this.index.text(rendered.file)?.includes(fluxMarker)) continue;
        for (const child of this.kustomizations.filter((k) => k.object.file === rendered.file)) {
          if (inCluster.has(child.id)) continue;
          inCluster.add(child.id);
          placed.add(child.id);
          queue.push(this.instantiate(child, instance, cluster));
        }
      }
    }
  }

  private instantiate(kustomization: FluxKustomization, parent: KustomizationInstance | undefined, cluster: Cluster): KustomizationInstance {
    const postBuild = parent ? patchedPostBuild(parent.kustomization, kustomization, this.index) : kustomization.postBuild;
    let path = kustomization.path?.value;
    if (parent && path?.includes('${')) {
      // The parent substitutes the child's manifest, spec.path included.
      this.resolveVariables(parent);
      if (parent.substitutes) {
        const result = envsubst(path, (name) => parent.variables.vars.get(name)?.value ?? (parent.strict ? undefined : ''), { strict: parent.strict });
        path = result.kind === 'output' ? result.text : undefined;
      }
    }
    const tree = this.walk(kustomization, path);
    for (const problem of tree.problems) this.problems.push({ ...problem, kustomization: kustomization.id });
    return {
      kustomization,
      cluster,
      parent,
      postBuild,
      dir: path === undefined ? undefined : resolveInside('', path),
      tree,
      variables: { vars: new Map(), sources: [], opaque: false },
      strict: cluster.strictMode.strict,
      substitutes: false,
    };
  }

  private walk(kustomization: FluxKustomization, path: string | undefined): RenderTree {
    const origin = { file: kustomization.object.file, range: kustomization.path?.range ?? kustomization.nameRange };
    if (path === undefined || path.includes('${')) return { dir: '', files: new Map(), problems: [] };
    return walkRenderTree(this.index, path, kustomization.components, origin);
  }

  private addObjects(cluster: Cluster, instance: KustomizationInstance): void {
    const seenGenerators = new Set<object>();
    for (const rendered of instance.tree.files.values()) {
      if (rendered.role === 'resource' && /kind:\s*(ConfigMap|Secret|ExternalSecret)/.test(this.index.text(rendered.file) ?? '')) {
        for (const object of this.index.objects(rendered.file)) {
          const data = objectData(object);
          if (data) this.putObject(cluster, instance, rendered, data);
        }
      }
      if (rendered.generator && !seenGenerators.has(rendered.generator)) {
        seenGenerators.add(rendered.generator);
        const owner = rendered.chain[rendered.chain.length - 1];
        this.putObject(cluster, instance, rendered, generatedData(rendered.generator, owner, this.index));
      }
    }
  }

  private putObject(cluster: Cluster, instance: KustomizationInstance, rendered: RenderedFile, data: ObjectData): void {
    const patched = patchedData(data, rendered.chain, this.index);
    // kustomize's `namespace:` (outermost wins) and Flux's targetNamespace override the object's own.
    const kustomizeNamespace = rendered.chain.find((k) => k.namespace !== undefined)?.namespace;
    patched.namespace = instance.kustomization.targetNamespace ?? kustomizeNamespace ?? data.namespace ?? 'default';
    cluster.objects.set(`${data.kind}/${patched.namespace}/${data.name}`, patched);
  }

  /** ConfigMaps and Secrets in files no Kustomization renders: a fallback for lookups. */
  private collectUnownedObjects(renderedBy: Map<string, Set<string>>): void {
    for (const file of this.index.files()) {
      if (renderedBy.has(file) || !/\.ya?ml$/i.test(file)) continue;
      if (!/kind:\s*(ConfigMap|Secret|ExternalSecret)/.test(this.index.text(file) ?? '')) continue;
      for (const object of this.index.objects(file)) {
        const data = objectData(object);
        if (data) this.unownedObjects.push(data);
      }
    }
  }

  private resolveVariables(instance: KustomizationInstance): void {
    const { cluster, kustomization } = instance;
    const find = (ref: SubstituteFrom) =>
      cluster.objects.get(`${ref.kind}/${kustomization.namespace}/${ref.name}`) ??
      this.unownedObjects.find((o) => o.kind === ref.kind && o.name === ref.name && (o.namespace ?? kustomization.namespace) === kustomization.namespace);
    instance.variables = gatherVariables(kustomization, instance.postBuild, find);
    instance.substitutes = instance.postBuild !== undefined && (instance.variables.vars.size > 0 || instance.variables.opaque || instance.postBuild.strategy === 'Always');
  }

  private uniqueName(name: string): string {
    let candidate = name;
    for (let n = 2; this.clusters.some((c) => c.name === candidate); n++) candidate = `${name}-${n}`;
    return candidate;
  }
}
