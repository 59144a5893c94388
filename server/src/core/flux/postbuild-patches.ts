/**
 * A parent Kustomization's `spec.patches` often give every child Kustomization its
 * `postBuild` (a common way to hand cluster settings to all apps); kustomize patches in the
 * parent's tree can do the same. This applies those patches — strategic merge or JSON 6902 —
 * to a child's postBuild, keeping ranges in the patch's file so provenance points at it.
 */
import { isSeq, type Node } from 'yaml';
import type { Range } from '../model';
import { apiGroup } from '../workspace/objects';
import { mapEntries, mapGet, mapPair, scalarText, seqItems } from '../yaml/nodes';
import { fluxKustomizeGroup, readPostBuild, readSubstituteFrom, type FluxKustomization, type InlineVariable, type PostBuild } from './flux-kustomization';
import type { PatchDoc, PatchSource } from './object-data';
import type { TreeProblem } from './render-tree';
import { matchesTarget, type Selectable } from './selectors';

/** The child Kustomization as a patch target sees it. */
function selectable(child: FluxKustomization, namespace: string): Selectable {
  const [, version = ''] = child.object.apiVersion.split('/');
  return { group: fluxKustomizeGroup, version, kind: 'Kustomization', name: child.name, namespace, labels: child.object.labels, annotations: child.object.annotations };
}

/** Does a patch document without a target apply to the child? Its kind and name say. */
function namesChild(doc: PatchDoc, child: FluxKustomization): boolean {
  if (isSeq(doc.root)) return false; // a JSON 6902 patch always needs a target
  const apiVersion = scalarText(mapGet(doc.root, 'apiVersion'));
  return (
    scalarText(mapGet(doc.root, 'kind')) === 'Kustomization' &&
    (apiVersion === undefined || apiGroup(apiVersion) === fluxKustomizeGroup) &&
    scalarText(mapGet(doc.root, 'metadata', 'name')) === child.name
  );
}

function mapRanges(postBuild: PostBuild, toFile: (r: Range) => Range): PostBuild {
  return {
    ...postBuild,
    range: toFile(postBuild.range),
    substitute: postBuild.substitute.map((v) => ({ ...v, keyRange: toFile(v.keyRange), valueRange: toFile(v.valueRange) })),
    substituteFrom: postBuild.substituteFrom.map((s) => ({ ...s, range: toFile(s.range) })),
  };
}

/**
 * Overlays a strategic-merge patch on `base`. Flux's CRD carries no merge keys, so maps merge
 * key by key (`key: null` deletes) and the substituteFrom list is replaced as a whole.
 */
function merge(base: PostBuild | undefined, node: Node, patch: PostBuild): PostBuild {
  if (!base) return patch;
  const deleted = new Set(mapEntries(mapGet(node, 'substitute')).filter((e) => e.value === null || scalarText(e.value) === undefined).map((e) => e.key));
  const substitute = [...base.substitute.filter((v) => !deleted.has(v.name) && !patch.substitute.some((p) => p.name === v.name)), ...patch.substitute.filter((v) => !deleted.has(v.name))];
  return {
    range: base.range,
    file: base.file,
    substitute,
    substituteFrom: mapPair(node, 'substituteFrom') ? patch.substituteFrom : base.substituteFrom,
    strategy: mapPair(node, 'substituteStrategy') ? patch.strategy : base.strategy,
  };
}

export interface PatchedPostBuild {
  postBuild: PostBuild | undefined;
  /** Ops that make kustomize fail (a JSON 6902 `add` below a path the child does not have). */
  problems: TreeProblem[];
}

/**
 * The child's postBuild after `patches` (kustomize patches of the parent's tree, inner first,
 * then the parent's spec.patches). `namespace` is the child's namespace at that point of the
 * build. A patch whose target does not select the child is not read.
 */
export function patchedPostBuild(child: FluxKustomization, patches: readonly PatchSource[], namespace: string): PatchedPostBuild {
  let postBuild = child.postBuild;
  const problems: TreeProblem[] = [];
  const target = selectable(child, namespace);
  // A target decides for the whole patch; a patch without one applies where its documents name the child.
  const docs = patches.flatMap((patch) => (patch.target ? (matchesTarget(patch.target, target) ? patch.docs() : []) : patch.docs().filter((doc) => namesChild(doc, child))));
  if (docs.length === 0) return { postBuild, problems };
  // An empty list and no list differ for JSON 6902: `add …/substituteFrom/-` needs the list.
  const state = { hasList: mapPair(mapGet(child.object.document.contents, 'spec', 'postBuild'), 'substituteFrom') !== undefined };
  for (const doc of docs) {
    if (isSeq(doc.root)) {
      postBuild = applyJsonPatch(postBuild, doc, child, problems, state);
      continue;
    }
    const specPair = mapPair(mapGet(doc.root, 'spec'), 'postBuild');
    if (!specPair) continue;
    const node = specPair.value;
    if (node === null || scalarText(node) !== undefined) {
      postBuild = undefined; // `postBuild: null` removes it
      continue;
    }
    const read = readPostBuild(node, doc.file);
    if (read) postBuild = merge(postBuild, node, mapRanges(read, doc.toFile));
    if (mapPair(node, 'substituteFrom')) state.hasList = true;
  }
  return { postBuild, problems };
}

const unescapePointer = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');

function applyJsonPatch(base: PostBuild | undefined, doc: PatchDoc, child: FluxKustomization, problems: TreeProblem[], state: { hasList: boolean }): PostBuild | undefined {
  let postBuild = base;
  const { file, toFile } = doc;
  const rangeIn = (node: Node | null | undefined): Range => doc.at(node);
  for (const op of seqItems(doc.root)) {
    const kind = scalarText(mapGet(op, 'op'));
    const path = scalarText(mapGet(op, 'path')) ?? '';
    const valueNode = mapGet(op, 'value');
    if (!path.startsWith('/spec/postBuild')) continue;
    const fail = (what: string) =>
      problems.push({ kind: 'patch', file, range: rangeIn(op), message: `${kind} ${path} fails on Kustomization ${child.name}: it has no ${what}, so kustomize cannot build the parent` });
    const current = postBuild;
    if (path === '/spec/postBuild') {
      if (kind === 'remove') postBuild = undefined;
      else if (kind === 'add' || kind === 'replace') {
        if (kind === 'replace' && !current) fail('spec.postBuild');
        const read = readPostBuild(valueNode, file);
        postBuild = read ? mapRanges(read, toFile) : undefined;
        state.hasList = mapPair(valueNode, 'substituteFrom') !== undefined;
      }
      continue;
    }
    // Everything below needs spec.postBuild to exist already.
    if (!current) {
      fail('spec.postBuild');
      postBuild = { range: rangeIn(op), file, substitute: [], substituteFrom: [], strategy: 'WithVariables' };
    }
    // A copy: the postBuild before this op may be the child's own, which other clusters read too.
    const target: PostBuild = { ...postBuild! };
    let m: RegExpExecArray | null;
    if (path === '/spec/postBuild/substituteFrom') {
      state.hasList = kind !== 'remove';
      target.substituteFrom = kind === 'remove' ? [] : seqItems(valueNode).map((item) => ({ ...readSubstituteFrom(item, file, rangeIn(op)), range: rangeIn(item) }));
    } else if ((m = /^\/spec\/postBuild\/substituteFrom\/(-|\d+)$/.exec(path))) {
      const list = [...target.substituteFrom];
      if (current && !state.hasList) fail('spec.postBuild.substituteFrom list');
      state.hasList = true;
      const at = m[1] === '-' ? list.length : Number(m[1]);
      const item = { ...readSubstituteFrom(valueNode, file, rangeIn(op)), range: rangeIn(valueNode) };
      if (kind === 'add') list.splice(at, 0, item);
      else if (kind === 'replace') list.splice(at, 1, item);
      else if (kind === 'remove') list.splice(at, 1);
      target.substituteFrom = list;
    } else if (path === '/spec/postBuild/substitute') {
      target.substitute = kind === 'remove' ? [] : mapEntries(valueNode).map((e) => inlineEntry(e.key, e.value, file, rangeIn(e.keyNode), rangeIn(e.value)));
    } else if ((m = /^\/spec\/postBuild\/substitute\/([^/]+)$/.exec(path))) {
      const name = unescapePointer(m[1]);
      const rest = target.substitute.filter((v) => v.name !== name);
      target.substitute = kind === 'remove' ? rest : [...rest, inlineEntry(name, valueNode, file, rangeIn(op), rangeIn(valueNode))];
    } else if (path === '/spec/postBuild/substituteStrategy') {
      target.strategy = kind !== 'remove' && scalarText(valueNode) === 'Always' ? 'Always' : 'WithVariables';
    }
    postBuild = target;
  }
  return postBuild;
}

function inlineEntry(name: string, value: Node | null | undefined, file: string, keyRange: Range, valueRange: Range): InlineVariable {
  return { name, value: scalarText(value) ?? '', file, keyRange, valueRange };
}
