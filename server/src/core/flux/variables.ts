/**
 * Variables as kustomize-controller gathers them for one Kustomization: `substituteFrom` in
 * list order (later wins), then inline `substitute` over everything, every value with `\n`
 * removed. Each value keeps its provenance: the layer that wins and the layers it overrides.
 */
import type { Range } from '../model';
import type { FluxKustomization, PostBuild, SubstituteFrom } from './flux-kustomization';
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
  const push = (name: string, layer: VariableLayer) => {
    const variable = set.vars.get(name) ?? { name, value: undefined, layers: [] };
    variable.layers.unshift(layer);
    variable.value = layer.value === undefined ? undefined : layer.value.replace(/\n/g, '');
    set.vars.set(name, variable);
  };
  for (const ref of postBuild.substituteFrom) {
    const found = ref.kind === 'ConfigMap' || ref.kind === 'Secret' ? find(ref) : { object: undefined };
    const object = found.object;
    set.sources.push(found.note === undefined ? { ref, object } : { ref, object, note: found.note });
    if (!object) continue;
    if (object.opaque) set.opaque = true;
    for (const [name, layers] of object.data) {
      // Within one object, the overlay layers already stack: the last is what the object holds.
      for (const layer of layers) {
        push(name, {
          source: object.kind,
          objectName: object.name,
          file: layer.file,
          range: layer.range,
          value: layer.value,
          secret: object.kind === 'Secret',
          encrypted: layer.encrypted,
          via: layer.via,
        });
      }
    }
  }
  for (const entry of postBuild.substitute) {
    push(entry.name, {
      source: 'inline',
      objectName: kustomization.name,
      file: entry.file,
      range: entry.keyRange,
      value: entry.value,
      secret: false,
      encrypted: false,
      via: 'substitute',
    });
  }
  return set;
}
