/**
 * The `diff.comparePatches` entries of every options block, with the nodes each check
 * points at. Values that do not decode as strings are left to FLEET-FIELD.
 */
import { isMap, type Node } from 'yaml';
import type { FleetDocument } from './options';
import { fieldPair, fieldValue, goString, seqNodes, type FleetPair } from './yaml';

/** A string field of an entry: its pair (if written) and the string Fleet reads. */
export interface PatchField {
  /** The field path as Fleet words it, e.g. `diff.comparePatches[0].operations[1].op`. */
  where: string;
  /** The map item the field belongs to, to point at when the field is missing. */
  owner: Node;
  pair: FleetPair | undefined;
  /** The value node, when there is one (a null value or a missing key has none). */
  node: Node | undefined;
  /** undefined: not a string (FLEET-FIELD reports it); '' when missing or null. */
  value: string | undefined;
}

export interface PatchOperation {
  node: Node;
  op: PatchField;
  path: PatchField;
}

export interface ComparePatchEntry {
  node: Node;
  name: PatchField;
  operations: PatchOperation[];
  pointers: PatchField[];
}

export function comparePatchEntries(doc: FleetDocument): ComparePatchEntry[] {
  const out: ComparePatchEntry[] = [];
  for (const block of doc.blocks) {
    const patches = seqNodes(fieldValue(fieldValue(block.map, 'diff', doc.fold), 'comparePatches', doc.fold));
    patches.forEach((patch, i) => {
      if (!isMap(patch)) return;
      const base = `${block.prefix}diff.comparePatches[${i}]`;
      const field = (owner: Node, name: string, where: string): PatchField => {
        const pair = fieldPair(owner, name, doc.fold);
        return { where, owner, pair, node: pair?.value ?? undefined, value: goString(pair?.value, doc.sites) };
      };
      const operations = seqNodes(fieldValue(patch, 'operations', doc.fold)).flatMap((node, j) =>
        isMap(node) ? [{ node, op: field(node, 'op', `${base}.operations[${j}].op`), path: field(node, 'path', `${base}.operations[${j}].path`) }] : [],
      );
      const pointers = seqNodes(fieldValue(patch, 'jsonPointers', doc.fold)).map((node, j) => ({
        where: `${base}.jsonPointers[${j}]`,
        owner: node,
        pair: undefined,
        node,
        value: goString(node, doc.sites),
      }));
      out.push({ node: patch, name: field(patch, 'name', `${base}.name`), operations, pointers });
    });
  }
  return out;
}
