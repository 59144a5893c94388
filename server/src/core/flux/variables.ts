/**
 * Variables as kustomize-controller gathers them for one Kustomization: `substituteFrom` in
 * list order (later wins), then inline `substitute` over everything, every value with `\n`
 * removed. Each value keeps its provenance: the layer that wins and the layers it overrides.
 */
import { Memo } from '../memo';
import type { Range } from '../model';
import type { FluxKustomization, InlineVariable, PostBuild, SubstituteFrom } from './flux-kustomization';
import type { DataLayer, ObjectData } from './object-data';

export interface VariableLayer {
  /** 'inline' for spec.postBuild.substitute, 'declared' for `.render-lens.yaml`, else the kind of object the value came from. */
  source: 'inline' | 'declared' | 'ConfigMap' | 'Secret';
  /** The object's name (or the Kustomization's for inline values). */
  objectName: string;
  /** Where the value is written: the data key, patch or inline entry. */
  file: string;
  range: Range;
  /** undefined when the value cannot be known from the repository (encrypted, external). */
  value: string | undefined;
  secret: boolean;
  encrypted: boolean;
  /** How the layer got its value: base data, an overlay patch, a generator. */
  via: DataLayer['via'] | 'substitute' | 'declared';
}

/** Shared between Kustomizations that read the same object, and between graphs: never changed. */
export interface Variable {
  name: string;
  /** The value the controller uses (newlines removed); undefined when unknown. */
  value: string | undefined;
  /** Winner first, then the layers it overrides. */
  layers: VariableLayer[];
}

export interface SourceResolution {
  ref: SubstituteFrom;
  /** The object found, if any. */
  object: ObjectData | undefined;
  /** When not found: why a likely candidate does not count (hashed generator name, no namespace). */
  note?: string;
}

export interface VariableSet {
  vars: Map<string, Variable>;
  sources: SourceResolution[];
  /**
   * The set is open: a source Render Lens cannot read may define more (a Secret made by
   * another controller, an object applied outside the repository). A name no visible layer
   * defines is then unknown, not undefined.
   */
  opaque: boolean;
  /** Why the set is open: the sources that would have to supply what is not visible. */
  openBecause: string[];
}

export type FindSource = (ref: SubstituteFrom) => { object: ObjectData | undefined; note?: string };

/**
 * `declared`: what `.render-lens.yaml` says reaches the cluster from outside the repository,
 * below every layer the repository shows.
 */
export function gatherVariables(kustomization: FluxKustomization, postBuild: PostBuild | undefined, find: FindSource, cluster: string, declared: readonly Variable[] = []): VariableSet {
  const set: VariableSet = { vars: new Map(), sources: [], opaque: false, openBecause: [] };
  if (!postBuild) return set;
  for (const variable of declared) set.vars.set(variable.name, variable);
  // A later source wins: its variable goes on top of the one already there (winner first).
  const put = (variable: Variable) => {
    const below = set.vars.get(variable.name);
    set.vars.set(variable.name, below ? { name: variable.name, value: variable.value, layers: [...variable.layers, ...below.layers] } : variable);
  };
  for (const ref of postBuild.substituteFrom) {
    const found = ref.kind === 'ConfigMap' || ref.kind === 'Secret' ? find(ref) : { object: undefined };
    const object = found.object;
    set.sources.push(found.note === undefined ? { ref, object } : { ref, object, note: found.note });
    if (!object) {
      // Not among what the cluster applies: made by hand, by Terraform or a bootstrap script.
      if (ref.kind === 'ConfigMap' || ref.kind === 'Secret') {
        set.opaque = true;
        set.openBecause.push(`${ref.kind} ${ref.name}${ref.optional ? ' (optional)' : ''}, which ${cluster} does not apply from the repository`);
      }
      continue;
    }
    if (object.opaque) {
      set.opaque = true;
      set.openBecause.push(`${ref.kind} ${ref.name}, whose keys come from outside the repository (${object.file})`);
    }
    for (const variable of variablesOf(object)) put(variable);
  }
  for (const entry of postBuild.substitute) {
    const layer = inlineLayer(entry, kustomization.name);
    put({ name: entry.name, value: withoutNewlines(layer.value), layers: [layer] });
  }
  return set;
}

/** Flux removes every newline from a value. */
function withoutNewlines(value: string | undefined): string | undefined {
  return value === undefined || !value.includes('\n') ? value : value.replace(/\n/g, '');
}

// Variables and layers are shared by every Kustomization that reads the same object, and never
// changed: a cluster's variable ConfigMap is read by every app, so each is made once per graph.
const objectVariables = new Memo<ObjectData, Variable[]>();
const inlineLayers = new Memo<InlineVariable, VariableLayer>();

/** The variables one object defines, each with its layers (within an object, the overlay layers stack). */
function variablesOf(object: ObjectData): Variable[] {
  return objectVariables.of(object, () => {
    const secret = object.kind === 'Secret';
    return [...object.data].map(([name, layers]) => {
      const made = layers.map((layer): VariableLayer => ({ source: object.kind, objectName: object.name, file: layer.file, range: layer.range, value: layer.value, secret, encrypted: layer.encrypted, via: layer.via }));
      return { name, value: withoutNewlines(made[made.length - 1]?.value), layers: made.reverse() };
    });
  });
}

function inlineLayer(entry: InlineVariable, kustomization: string): VariableLayer {
  return inlineLayers.ofAlong(entry, kustomization, () => ({ source: 'inline', objectName: kustomization, file: entry.file, range: entry.keyRange, value: entry.value, secret: false, encrypted: false, via: 'substitute' }));
}

/**
 * The ConfigMap where a Kustomization's other variables live (the one that defines the most
 * of them): where a missing one belongs. Undefined when it reads none.
 */
export function variableHome(sources: readonly SourceResolution[]): ObjectData | undefined {
  let home: ObjectData | undefined;
  for (const { object } of sources) if (object?.kind === 'ConfigMap' && !object.opaque && (!home || object.data.size > home.data.size)) home = object;
  return home;
}

/** "it may come from Secret cluster-secrets, …": for a name no visible layer defines in an open set. */
export function mayComeFrom(openBecause: readonly string[]): string {
  return openBecause.length === 0 ? 'a source Render Lens cannot read may define it' : `it may come from ${openBecause.join('; or ')}`;
}

/**
 * Whether sources the repository does not show may define variables for the set: a source
 * whose keys are not visible, or a required one that is not visible at all (it must exist
 * for the reconcile to succeed, so substitution is taken to run). An optional source that is
 * not visible does not count: without it, Flux goes on with what it has.
 */
export function unseenSourcesDefine(set: VariableSet): boolean {
  return set.sources.some((s) => s.object?.opaque === true || (s.object === undefined && !s.ref.optional && (s.ref.kind === 'ConfigMap' || s.ref.kind === 'Secret')));
}
