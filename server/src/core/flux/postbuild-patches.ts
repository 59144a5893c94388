/**
 * A parent Kustomization's `spec.patches` often give every child Kustomization its
 * `postBuild` (a common way to hand cluster settings to all apps). This applies those
 * patches — strategic merge or JSON 6902 — to a child's postBuild, keeping ranges in the
 * parent's file so provenance points at the patch.
 */
import { isSeq } from 'yaml';
import type { Range } from '../model';
import type { FileIndex } from '../workspace/file-index';
import { mapGet, scalarText, seqItems } from '../yaml/nodes';
import { fluxKustomizeGroup, readPostBuild, type FluxKustomization, type PostBuild, type SubstituteFrom } from './flux-kustomization';
import type { PatchTarget } from './kustomize-file';
import { inlinePatchDocs } from './object-data';

function matchesPattern(pattern: string | undefined, value: string): boolean {
  if (pattern === undefined || pattern === '' || pattern === value) return true;
  try {
    return new RegExp(`^(?:${pattern})$`).test(value);
  } catch {
    return false;
  }
}

/** `a=b,c=d` equality selectors; set-based selectors are treated as matching. */
function matchesLabels(selector: string | undefined, labels: ReadonlyMap<string, string>): boolean {
  if (!selector) return true;
  return selector.split(',').every((term) => {
    const match = /^\s*([^=!\s]+)\s*(==?|!=)\s*(\S*)\s*$/.exec(term);
    if (!match) return true;
    const equal = labels.get(match[1]) === match[3];
    return match[2] === '!=' ? !equal : equal;
  });
}

function targets(target: PatchTarget, child: FluxKustomization): boolean {
  return (
    matchesPattern(target.kind, 'Kustomization') &&
    (target.group === undefined || target.group === fluxKustomizeGroup) &&
    matchesPattern(target.name, child.name) &&
    matchesLabels(target.labelSelector, child.object.labels)
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

/** Overlays `patch` on `base` as a strategic merge does: maps merge, the list is replaced. */
function merge(base: PostBuild | undefined, patch: PostBuild, hasList: boolean, hasStrategy: boolean): PostBuild {
  if (!base) return patch;
  const substitute = [...base.substitute.filter((v) => !patch.substitute.some((p) => p.name === v.name)), ...patch.substitute];
  return {
    range: base.range,
    file: base.file,
    substitute,
    substituteFrom: hasList ? patch.substituteFrom : base.substituteFrom,
    strategy: hasStrategy ? patch.strategy : base.strategy,
  };
}

export function patchedPostBuild(parent: FluxKustomization, child: FluxKustomization, index: FileIndex): PostBuild | undefined {
  let postBuild = child.postBuild;
  for (const patch of parent.patches) {
    for (const doc of inlinePatchDocs(parent.object.file, patch, index)) {
      const applies = patch.target
        ? targets(patch.target, child)
        : scalarText(mapGet(doc.root, 'kind')) === 'Kustomization' && scalarText(mapGet(doc.root, 'metadata', 'name')) === child.name;
      if (!applies) continue;
      if (isSeq(doc.root)) {
        postBuild = applyJsonPatch(postBuild, seqItems(doc.root), parent.object.file, doc.toFile);
        continue;
      }
      const node = mapGet(doc.root, 'spec', 'postBuild');
      const read = readPostBuild(node, parent.object.file);
      if (!read) continue;
      postBuild = merge(postBuild, mapRanges(read, doc.toFile), mapGet(node, 'substituteFrom') !== undefined, mapGet(node, 'substituteStrategy') !== undefined);
    }
  }
  return postBuild;
}

function applyJsonPatch(base: PostBuild | undefined, ops: ReturnType<typeof seqItems>, file: string, toFile: (r: Range) => Range): PostBuild | undefined {
  let postBuild = base;
  for (const op of ops) {
    const kind = scalarText(mapGet(op, 'op'));
    const path = scalarText(mapGet(op, 'path')) ?? '';
    const valueNode = mapGet(op, 'value');
    if (kind !== 'add' && kind !== 'replace') continue;
    if (path === '/spec/postBuild') {
      const read = readPostBuild(valueNode, file);
      if (read) postBuild = mapRanges(read, toFile);
    } else if (/^\/spec\/postBuild\/substituteFrom(\/-|\/\d+)?$/.test(path)) {
      const item = readSubstituteFromValue(valueNode, toFile);
      const current = postBuild ?? emptyPostBuild(file, toFile);
      if (path.endsWith('substituteFrom') && item.list) postBuild = { ...current, substituteFrom: item.list };
      else if (item.single) postBuild = { ...current, substituteFrom: [...current.substituteFrom, item.single] };
    } else if (/^\/spec\/postBuild\/substitute\/[^/]+$/.test(path)) {
      const name = path.split('/').pop()!.replace(/~1/g, '/').replace(/~0/g, '~');
      const current = postBuild ?? emptyPostBuild(file, toFile);
      const range = toFile(valueNode?.range ? { start: valueNode.range[0], end: valueNode.range[1] } : { start: 0, end: 0 });
      postBuild = { ...current, substitute: [...current.substitute.filter((v) => v.name !== name), { name, value: scalarText(valueNode) ?? '', keyRange: range, valueRange: range }] };
    }
  }
  return postBuild;
}

function emptyPostBuild(file: string, toFile: (r: Range) => Range): PostBuild {
  return { range: toFile({ start: 0, end: 0 }), file, substitute: [], substituteFrom: [], strategy: 'WithVariables' };
}

/** The value of a JSON 6902 op on substituteFrom: one entry, or the whole list. */
function readSubstituteFromValue(node: ReturnType<typeof mapGet>, toFile: (r: Range) => Range): { list?: SubstituteFrom[]; single?: SubstituteFrom } {
  const entry = (item: ReturnType<typeof mapGet>): SubstituteFrom => ({
    kind: scalarText(mapGet(item, 'kind')) ?? '',
    name: scalarText(mapGet(item, 'name')) ?? '',
    optional: scalarText(mapGet(item, 'optional')) === 'true',
    range: toFile(item?.range ? { start: item.range[0], end: item.range[1] } : { start: 0, end: 0 }),
  });
  return isSeq(node) ? { list: seqItems(node).map(entry) } : { single: entry(node) };
}
