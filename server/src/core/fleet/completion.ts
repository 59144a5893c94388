/**
 * Completion for Fleet files, as plain items the LSP adapter converts: the valid
 * comparePatches operations at an `op` value, and the template context fields after `.` in a
 * `${ … }` of helm.values.
 */
import { isScalar } from 'yaml';
import type { WorkspaceView } from '../model/workspace-view';
import type { Range } from '../model';
import type { ScalarSite } from '../yaml/scalar-sites';
import { comparePatchEntries } from './compare-patches';
import { fleetDocuments, type FleetDocument } from './options';
import { patchOpDocs, patchOps } from './patch-ops';
import { explain } from './hover';
import { contextFields, valuesTemplates } from './values-template';
import { nodeRange, rewriteScalar } from './yaml';

export interface FleetCompletion {
  label: string;
  /** One line shown beside the label. */
  detail: string;
  /** Markdown. */
  documentation: string;
  /** The text the item replaces, and what it writes there. */
  range: Range;
  insertText: string;
}

export function fleetCompletionsAt(workspace: WorkspaceView, file: string, offset: number): FleetCompletion[] {
  const text = workspace.index.text(file) ?? '';
  for (const doc of fleetDocuments(file, workspace.documentsOf(file))) {
    const items = opCompletions(doc, text, offset) ?? fieldCompletions(doc, offset);
    if (items) return items;
  }
  return [];
}

function opCompletions(doc: FleetDocument, text: string, offset: number): FleetCompletion[] | undefined {
  for (const entry of comparePatchEntries(doc)) {
    for (const { op } of entry.operations) {
      if (!op.pair) continue;
      const node = op.node;
      let range: Range | undefined;
      let site: ScalarSite | undefined;
      if (node && isScalar(node)) {
        const r = nodeRange(node);
        if (r && offset >= r.start && offset <= r.end) {
          range = r;
          site = doc.sites.get(node);
        }
      } else if (!node) {
        // `op:` with nothing after it yet: complete right after the colon, on the same line.
        const keyEnd = nodeRange(op.pair.key)?.end ?? -1;
        if (keyEnd >= 0 && offset >= keyEnd && /^["']?\s*:\s*$/.test(text.slice(keyEnd, offset))) range = { start: offset, end: offset };
      }
      if (!range) continue;
      const r = range;
      return patchOps.map((name) => ({
        label: name,
        detail: 'Fleet comparePatches operation',
        documentation: patchOpDocs[name],
        range: r,
        insertText: (site && rewriteScalar(site, name, text)) ?? name,
      }));
    }
  }
  return undefined;
}

function fieldCompletions(doc: FleetDocument, offset: number): FleetCompletion[] | undefined {
  for (const { site } of valuesTemplates(doc).flatMap((source) => source.pieces)) {
    if (offset < site.range.start || offset > site.range.end) continue;
    const { value, starts, ends } = site.text;
    // The value unit the cursor is after: the last unit that ends at or before the cursor.
    let upTo = 0;
    while (upTo < value.length && ends[upTo] <= offset) upTo++;
    const before = value.slice(0, upTo);
    const match = /\$\{-?\s*(?:[^}]*?[\s(|])?\.([A-Za-z_]\w*)?$/.exec(before);
    if (!match) return undefined;
    const partial = match[1] ?? '';
    const start = partial === '' ? offset : starts[upTo - partial.length];
    return contextFields.map((field) => ({
      label: `.${field}`,
      detail: 'Fleet template context',
      documentation: explain({ range: { start, end: offset }, path: [field] }),
      range: { start, end: offset },
      insertText: field,
    }));
  }
  return undefined;
}
