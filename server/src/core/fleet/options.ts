/**
 * Where Fleet options live in a file. fleet.yaml holds them at the top level, in each
 * `targets[i]` and in each `targetCustomizations[i]`; a HelmOp object (any YAML file) holds
 * them in `spec` and each `spec.targets[i]`. Fleet validates and templates each of those
 * places on its own, and names them by that prefix in its errors.
 */
import { isMap, isScalar, type YAMLMap } from 'yaml';
import type { DocumentView } from '../model/documents';
import { findField, fleetYaml } from './schema';
import { fieldValue, seqNodes, siteIndex, type SiteIndex } from './yaml';

export interface OptionsBlock {
  /** As Fleet prefixes its errors: '', 'targets[0].', 'targetCustomizations[1].', 'spec.'. */
  prefix: string;
  map: YAMLMap;
}

export interface FleetDocument {
  view: DocumentView;
  source: 'fleet.yaml' | 'HelmOp';
  /** The map the options are read from: the document root, or a HelmOp's spec. */
  spec: YAMLMap;
  /** encoding/json matches keys ignoring case; a Kubernetes object's schema does not. */
  fold: boolean;
  blocks: OptionsBlock[];
  sites: SiteIndex;
}

/** Asked several times for every file a check reads: no splitting of the path. */
export function isFleetYaml(file: string): boolean {
  return file === 'fleet.yaml' || file.endsWith('/fleet.yaml');
}

export function isHelmOp(view: DocumentView): boolean {
  return view.object?.kind === 'HelmOp' && view.object.apiVersion === 'fleet.cattle.io/v1alpha1';
}

/** The Fleet documents of a file: fleet.yaml's first document, or every HelmOp. */
export function fleetDocuments(file: string, views: readonly DocumentView[]): FleetDocument[] {
  if (isFleetYaml(file)) {
    // Fleet unmarshals the file as one document; later ones are never read.
    const view = views[0];
    const root = view?.document.contents;
    return view && isMap(root) && looksLikeFleet(root) ? [build(view, 'fleet.yaml', root, '', true)] : [];
  }
  const out: FleetDocument[] = [];
  for (const view of views) {
    if (!isHelmOp(view)) continue;
    const spec = fieldValue(view.document.contents, 'spec', false);
    if (isMap(spec)) out.push(build(view, 'HelmOp', spec, 'spec.', false));
  }
  return out;
}

/**
 * Other tools name their config fleet.yaml too (FleetDM's server config, for one). A file
 * none of whose top-level keys Fleet knows is not Rancher Fleet's, and is left alone.
 */
function looksLikeFleet(root: YAMLMap): boolean {
  return root.items.length === 0 || root.items.some((pair) => isScalar(pair.key) && findField(fleetYaml, String(pair.key.value)) !== undefined);
}

function build(view: DocumentView, source: FleetDocument['source'], spec: YAMLMap, prefix: string, fold: boolean): FleetDocument {
  const blocks: OptionsBlock[] = [{ prefix, map: spec }];
  const lists = source === 'fleet.yaml' ? ['targets', 'targetCustomizations'] : ['targets'];
  for (const name of lists) {
    seqNodes(fieldValue(spec, name, fold)).forEach((item, i) => {
      if (isMap(item)) blocks.push({ prefix: `${prefix}${name}[${i}].`, map: item });
    });
  }
  return { view, source, spec, fold, blocks, sites: siteIndex(view) };
}
