/**
 * Everything a Flux graph says, as plain data: clusters, instances (postBuild, variables with
 * every layer, sources, render trees), the objects each cluster receives, problems and the
 * render contexts of every file. Two graphs that summarize the same are the same to every
 * reader; an incremental graph is checked against one built from scratch this way.
 */
import type { FluxGraph } from '../../core/flux/graph';
import type { PostBuild } from '../../core/flux/flux-kustomization';
import type { KustomizeFile } from '../../core/flux/kustomize-file';
import type { ObjectData } from '../../core/flux/object-data';
import type { RenderTree } from '../../core/flux/render-tree';
import type { Range } from '../../core/model';

const at = (range: Range | undefined) => (range ? `${range.start}-${range.end}` : undefined);

function postBuild(p: PostBuild | undefined): unknown {
  if (!p) return undefined;
  return {
    file: p.file,
    range: at(p.range),
    strategy: p.strategy,
    substitute: p.substitute.map((v) => [v.name, v.value, v.file, at(v.keyRange), at(v.valueRange)]),
    substituteFrom: p.substituteFrom.map((s) => [s.kind, s.name, s.optional, s.file, at(s.range)]),
  };
}

function object(o: ObjectData): unknown {
  return {
    kind: o.kind,
    name: o.name,
    namespace: o.namespace,
    file: o.file,
    range: at(o.range),
    opaque: o.opaque,
    hashed: o.hashed,
    labels: [...o.labels],
    annotations: [...o.annotations],
    data: [...o.data].map(([key, layers]) => [key, layers.map((l) => [l.file, at(l.range), l.value, l.encrypted, l.via])]),
  };
}

const files = (chain: readonly KustomizeFile[]) => chain.map((k) => k.file);

function tree(t: RenderTree): unknown {
  return {
    dir: t.dir,
    files: [...t.files.values()].map((r) => [r.file, r.role, files(r.chain), r.optOut?.file, at(r.optOut?.range), r.generator?.name]),
    occurrences: t.occurrences.map((r) => [r.file, r.role, files(r.chain)]),
    kustomizations: t.kustomizations.map(({ spec, chain }) => [spec.file, files(chain), spec.componentFiles.map((c) => c.file)]),
    rootComponents: t.rootComponents.map((k) => k.file),
    problems: t.problems.map((p) => [p.kind, p.file, at(p.range), p.message]),
  };
}

export function graphSummary(graph: FluxGraph, workspaceFiles: readonly string[]): unknown {
  return {
    kustomizations: graph.kustomizations.map((k) => ({
      id: k.id,
      name: k.name,
      namespace: k.namespace,
      nameRange: at(k.nameRange),
      path: k.path && [k.path.value, at(k.path.range)],
      components: k.components.map((c) => [c.value, at(c.range)]),
      targetNamespace: k.targetNamespace,
      postBuild: postBuild(k.postBuild),
      patches: k.patches.map((p) => [p.text, at(p.range), JSON.stringify(p.target)]),
    })),
    clusters: graph.clusters.map((c) => ({
      name: c.name,
      roots: c.roots.map((r) => r.id),
      strictMode: c.strictMode,
      fluxVersion: c.fluxVersion,
      // The engine keeps its graph through edits of ConfigMaps that no substituteFrom names
      // (workspace/graph-edits.ts): their data is not read, only who they are. Sources are
      // compared in full below.
      objects: c.objects.all().map(([key, o]) => [key, o.kind, o.name, o.namespace, o.file]),
      instances: c.instances.map((i) => ({
        kustomization: i.kustomization.id,
        parent: i.parent?.kustomization.id,
        dir: i.dir,
        namespace: i.namespace,
        strict: i.strict,
        substitutes: i.substitutes,
        postBuild: postBuild(i.postBuild),
        opaque: i.variables.opaque,
        variables: [...i.variables.vars.values()].map((v) => [v.name, v.value, v.layers.map((l) => [l.source, l.objectName, l.file, at(l.range), l.value, l.secret, l.encrypted, l.via])]),
        sources: i.variables.sources.map((s) => [s.ref.kind, s.ref.name, s.ref.file, at(s.ref.range), s.object && object(s.object), s.note]),
        tree: tree(i.tree),
      })),
    })),
    problems: graph.problems.map((p) => [p.kind, p.file, at(p.range), p.message, p.kustomization]),
    contexts: workspaceFiles.flatMap((file) => {
      const contexts = graph.contextsOf(file).map((c) => [c.cluster.name, c.instance.kustomization.id, c.rendered.role, files(c.rendered.chain), c.rendered.generator?.name]);
      return contexts.length > 0 ? [[file, contexts]] : [];
    }),
  };
}
