/** The Kubernetes identity of each YAML document: what the Flux graph indexes by. */
import { Memo } from '../memo';
import type { Node } from 'yaml';
import type { Range } from '../model';
import { mapGet, mergedStringMap, rangeOf, scalarText } from '../yaml/nodes';

export interface K8sObject {
  file: string;
  /** Index of the document in its file. */
  index: number;
  apiVersion: string;
  kind: string;
  name: string;
  /** As written in metadata; kustomize or Flux may set it later. */
  namespace: string | undefined;
  labels: ReadonlyMap<string, string>;
  annotations: ReadonlyMap<string, string>;
  /** The document (of a full parse, or of a file's compact model: workspace/file-model.ts). */
  document: ObjectDocument;
  /** The whole document's range. */
  range: Range;
}

/** What objects need of a document: its root node. */
export interface ObjectDocument {
  readonly contents: Node | null;
}

export function objectsOf(file: string, documents: readonly ObjectDocument[]): K8sObject[] {
  const out: K8sObject[] = [];
  documents.forEach((document, index) => {
    const root = document.contents;
    const identity = identityOf(root);
    if (!identity) return;
    out.push({ file, index, ...identity, document, range: rangeOf(root) ?? { start: 0, end: 0 } });
  });
  return out;
}

export type Identity = Pick<K8sObject, 'apiVersion' | 'kind' | 'name' | 'namespace' | 'labels' | 'annotations'>;

/**
 * Per root node: an edit's re-parse keeps the nodes of the documents it did not touch, and
 * every version of an open file asks for all of its objects (the graph compares them).
 */
const identities = new Memo<Node, Identity | undefined>();

function identityOf(root: Node | null): Identity | undefined {
  if (!root) return undefined;
  return identities.of(root, () => {
    const kind = scalarText(mapGet(root, 'kind'));
    const apiVersion = scalarText(mapGet(root, 'apiVersion'));
    const metadata = mapGet(root, 'metadata');
    return kind && apiVersion
        ? {
            apiVersion,
            kind,
            name: scalarText(mapGet(metadata, 'name')) ?? '',
            namespace: scalarText(mapGet(metadata, 'namespace')),
            labels: mergedStringMap(mapGet(metadata, 'labels')),
            annotations: mergedStringMap(mapGet(metadata, 'annotations')),
          }
      : undefined;
  });
}

/** `group/version` → group; a core `v1` has the empty group. */
export function apiGroup(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash === -1 ? '' : apiVersion.slice(0, slash);
}
