/**
 * Variables as kustomize-controller gathers them for one Kustomization: `substituteFrom` in
 * list order (later wins), then inline `substitute` over everything, every value with `\n`
 * removed. Each value keeps its provenance: the layer that wins and the layers it overrides.
 */
import type { Range } from '../model';
import type { FluxKustomization, InlineVariable, PostBuild, SubstituteFrom } from './flux-kustomization';
import type { DataLayer, ObjectData } from './object-data';

export interface VariableLayer {
  /** 'inline' for spec.postBuild.substitute, else the kind of object the value came from. */
  source: 'inline' | 'ConfigMap' | 'Secret';
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
  via: DataLayer['via'] | 'substitute';
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
  /** A source whose keys cannot be known (e.g. a Secret made by another controller). */
  opaque: boolean;
}

export type FindSource = (ref: SubstituteFrom) => { object: ObjectData | undefined; note?: string };

export function gatherVariables(kustomization: FluxKustomization, postBuild: PostBuild | undefined, find: FindSource): VariableSet {
  const set: VariableSet = { vars: new Map(), sources: [], opaque: false };
  if (!postBuild) return set;
  // A later source wins: its variable goes on top of the one already there (winner first).
  const put = (variable: Variable) => {
    const below = set.vars.get(variable.name);
    set.vars.set(variable.name, below ? { name: variable.name, value: variable.value, layers: [...variable.layers, ...below.layers] } : variable);
  };
  for (const ref of postBuild.substituteFrom) {
    const found = ref.kind === 'ConfigMap' || ref.kind === 'Secret' ? find(ref) : { object: undefined };
    const object = found.object;
    set.sources.push(found.note === undefined ? { ref, object } : { ref, object, note: found.note });
    if (!object) continue;
    if (object.opaque) set.opaque = true;
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
const objectVariables = new WeakMap<ObjectData, Variable[]>();
const inlineLayers = new WeakMap<InlineVariable, VariableLayer>();

/** The variables one object defines, each with its layers (within an object, the overlay layers stack). */
function variablesOf(object: ObjectData): Variable[] {
  let variables = objectVariables.get(object);
  if (!variables) {
    const secret = object.kind === 'Secret';
    variables = [...object.data].map(([name, layers]) => {
      const made = layers.map((layer): VariableLayer => ({ source: object.kind, objectName: object.name, file: layer.file, range: layer.range, value: layer.value, secret, encrypted: layer.encrypted, via: layer.via }));
      return { name, value: withoutNewlines(made[made.length - 1]?.value), layers: made.reverse() };
    });
    objectVariables.set(object, variables);
  }
  return variables;
}

function inlineLayer(entry: InlineVariable, kustomization: string): VariableLayer {
  let layer = inlineLayers.get(entry);
  if (layer?.objectName !== kustomization) {
    layer = { source: 'inline', objectName: kustomization, file: entry.file, range: entry.keyRange, value: entry.value, secret: false, encrypted: false, via: 'substitute' };
    inlineLayers.set(entry, layer);
  }
  return layer;
}
