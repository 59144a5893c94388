/** The Kubernetes identity of each YAML document: what the Flux graph indexes by. */
import type { Document } from 'yaml';
import type { Range } from '../model';
import { mapGet, rangeOf, scalarText, stringMap } from '../yaml/nodes';

export interface K8sObject {
  file: string;
  /** Index of the document in its file. */
  index: number;
  apiVersion: string;
  kind: string;
  name: string;
  /** As written in metadata; kustomize or Flux may set it later. */
  namespace: string | undefined;
  labels: Map<string, string>;
  annotations: Map<string, string>;
  document: Document.Parsed;
  /** The whole document's range. */
  range: Range;
}

export function objectsOf(file: string, documents: readonly Document.Parsed[]): K8sObject[] {
  const out: K8sObject[] = [];
  documents.forEach((document, index) => {
    const root = document.contents;
    const kind = scalarText(mapGet(root, 'kind'));
    const apiVersion = scalarText(mapGet(root, 'apiVersion'));
    if (!kind || !apiVersion) return;
    const metadata = mapGet(root, 'metadata');
    out.push({
      file,
      index,
      apiVersion,
      kind,
      name: scalarText(mapGet(metadata, 'name')) ?? '',
      namespace: scalarText(mapGet(metadata, 'namespace')),
      labels: stringMap(mapGet(metadata, 'labels')),
      annotations: stringMap(mapGet(metadata, 'annotations')),
      document,
      range: rangeOf(root) ?? { start: 0, end: 0 },
    });
  });
  return out;
}

/** `group/version` → group; a core `v1` has the empty group. */
export function apiGroup(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash === -1 ? '' : apiVersion.slice(0, slash);
}
