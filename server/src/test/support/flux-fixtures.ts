/**
 * Flux fixture repositories (test-fixtures/flux/<case>/) loaded into a MemoryHost, and
 * plain-object views of the graph so tests read like what a user would check: which
 * contexts a file has, what a variable is and where it comes from, what went wrong where.
 */
import * as fs from 'fs';
import * as path from 'path';
import { FluxGraph, type GraphProblem, type KustomizationInstance, type RenderContext } from '../../core/flux/graph';
import type { Variable } from '../../core/flux/variables';
import { MemoryHost } from '../../core/host';
import type { Range } from '../../core/model';
import { FileIndex } from '../../core/workspace/file-index';
import { fixturesDir } from './paths';

export interface FluxFixture {
  files: Record<string, string>;
  host: MemoryHost;
  graph: FluxGraph;
  /** The exact source text at a range of a file. */
  textAt(file: string, range: Range): string;
}

function listFiles(dir: string, prefix = ''): string[] {
  return fs.readdirSync(path.join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    return entry.isDirectory() ? listFiles(dir, rel) : [rel];
  });
}

export function loadFluxFixture(name: string, options: { strict: boolean } = { strict: true }): FluxFixture {
  const dir = path.join(fixturesDir, 'flux', name);
  const files: Record<string, string> = {};
  for (const file of listFiles(dir).sort()) files[file] = fs.readFileSync(path.join(dir, file), 'utf8');
  const host = new MemoryHost(files);
  const graph = FluxGraph.build(new FileIndex(host), options);
  const textAt = (file: string, range: Range) => {
    const text = files[file];
    if (text === undefined) throw new Error(`no file ${file} in fixture ${name}`);
    return text.slice(range.start, range.end);
  };
  return { files, host, graph, textAt };
}

/** `cluster/namespace/name` of a Kustomization instance. */
export function instanceLabel(instance: KustomizationInstance): string {
  return `${instance.cluster.name}/${instance.namespace}/${instance.kustomization.name}`;
}

export interface ContextSummary {
  cluster: string;
  /** `namespace/name` of the Flux Kustomization. */
  kustomization: string;
  role: string;
  substitutes: boolean;
  strict: boolean;
  strategy: string | undefined;
}

/** The render contexts of a file, sorted by cluster then Kustomization. */
export function summarize(graph: FluxGraph, file: string): ContextSummary[] {
  return graph
    .contextsOf(file)
    .map((c: RenderContext) => ({
      cluster: c.cluster.name,
      kustomization: `${c.instance.namespace}/${c.instance.kustomization.name}`,
      role: c.rendered.role,
      substitutes: c.instance.substitutes,
      strict: c.instance.strict,
      strategy: c.instance.postBuild?.strategy,
    }))
    .sort((a, b) => `${a.cluster}/${a.kustomization}`.localeCompare(`${b.cluster}/${b.kustomization}`));
}

/** Shorter: `cluster/namespace/name` of every context of a file, sorted. */
export function contextLabels(graph: FluxGraph, file: string): string[] {
  return graph
    .contextsOf(file)
    .map((c) => instanceLabel(c.instance))
    .sort();
}

export function instanceOf(graph: FluxGraph, cluster: string, kustomization: string): KustomizationInstance {
  const found = graph.clusters.find((c) => c.name === cluster)?.instances.find((i) => i.kustomization.name === kustomization);
  if (!found) throw new Error(`no Kustomization ${kustomization} in cluster ${cluster} (clusters: ${graph.clusters.map((c) => `${c.name}[${c.instances.map((i) => i.kustomization.name).join(',')}]`).join(' ')})`);
  return found;
}

export interface LayerSummary {
  file: string;
  /** The source text at the layer's range. */
  text: string;
  source: string;
  via: string;
  value: string | undefined;
}

export interface VariableSummary {
  value: string | undefined;
  /** Winner first, then the layers it overrides. */
  layers: LayerSummary[];
}

/** A variable of one Kustomization in one cluster, with provenance as source text; undefined when not defined. */
export function variableOf(fixture: FluxFixture, cluster: string, kustomization: string, name: string): VariableSummary | undefined {
  const variable: Variable | undefined = instanceOf(fixture.graph, cluster, kustomization).variables.vars.get(name);
  if (!variable) return undefined;
  return {
    value: variable.value,
    layers: variable.layers.map((l) => ({ file: l.file, text: fixture.textAt(l.file, l.range), source: l.source, via: l.via, value: l.value })),
  };
}

export interface ProblemSummary {
  kind: string;
  file: string;
  text: string;
  message: string;
}

/** Every graph problem, with the text it points at, sorted by file and position. */
export function problemsOf(fixture: FluxFixture): ProblemSummary[] {
  return [...fixture.graph.problems]
    .sort((a: GraphProblem, b: GraphProblem) => a.file.localeCompare(b.file) || a.range.start - b.range.start)
    .map((p) => ({ kind: p.kind, file: p.file, text: fixture.textAt(p.file, p.range), message: p.message }));
}
