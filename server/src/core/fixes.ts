/**
 * Fix builders shared by rules. Each returns a fix as data (edits on offsets), or undefined
 * when the YAML is shaped in a way the edit cannot be made safely (e.g. a flow map).
 */
import { isMap, isScalar, type Node, type YAMLMap } from 'yaml';
import { variableHome } from './flux/variables';
import type { RuleFix } from './model/rule-edits';
import { substituteKey, type ActiveContext } from './substitution';
import type { K8sObject } from './workspace/objects';
import type { ParsedFile } from './yaml/document';
import { mapGet, scalarText } from './yaml/nodes';

/** A parsed file that a fix may edit: an edit into a file that does not parse may land anywhere. */
export function parsedForEdit(parsed: ParsedFile | undefined): ParsedFile | undefined {
  return parsed && parsed.problems.every((p) => p.severity !== 'error') ? parsed : undefined;
}

/**
 * The line ending of the line that ends before `offset`, where a fix inserts lines: a lone \n
 * among CRLF lines is a change the user did not ask for. Read there, not from the whole file:
 * a fix on one document of a multi-document file must not depend on the others (the engine
 * keeps each document's findings while it is unchanged), nor scan megabytes per finding.
 */
export function lineEndingAt(text: string, offset: number): string {
  const newline = text.lastIndexOf('\n', offset - 1);
  return newline > 0 && text.charCodeAt(newline - 1) === 0x0d ? '\r\n' : '\n';
}

/** The start of the line holding `offset`, and that line's indentation. */
function lineAt(text: string, offset: number): { start: number; indent: number } {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  let indent = 0;
  while (text[start + indent] === ' ') indent++;
  return { start, indent };
}

/** Just past the end of the line holding `offset` (after its line break). */
function lineEnd(text: string, offset: number): number {
  const newline = text.indexOf('\n', offset);
  return newline === -1 ? text.length : newline + 1;
}

/** The offset after the last line a block map's entries occupy. */
function blockMapEnd(text: string, map: YAMLMap): number {
  const last = map.items[map.items.length - 1];
  const node = (last.value ?? last.key) as Node;
  return lineEnd(text, Math.max((node.range?.[1] ?? 1) - 1, 0));
}

/**
 * Inserts `key: value` as the last entry of a block map, at its entries' indentation.
 * `value` must already be valid YAML for a plain entry (quote it yourself); an empty
 * value opens a nested block (`key:`).
 */
export function insertIntoBlockMap(text: string, map: YAMLMap, key: string, value: string): { offset: number; newText: string; indent: number } | undefined {
  if (map.flow || map.items.length === 0) return undefined;
  const first = map.items[0].key as Node | null;
  if (!isScalar(first) || !first.range) return undefined;
  const { indent } = lineAt(text, first.range[0]);
  const column = first.range[0] - lineAt(text, first.range[0]).start;
  if (column !== indent) return undefined; // `- key: v` entries: keep it simple and safe.
  const offset = blockMapEnd(text, map);
  const eol = lineEndingAt(text, offset);
  const newline = offset === text.length && !text.endsWith('\n') ? eol : '';
  return { offset, newText: `${newline}${' '.repeat(indent)}${key}:${value === '' ? '' : ` ${value}`}${eol}`, indent };
}

/** Adds `kustomize.toolkit.fluxcd.io/substitute: disabled` to the object's annotations. */
export function disableSubstitutionFix(text: string, object: K8sObject): RuleFix | undefined {
  const metadata = mapGet(object.document.contents, 'metadata');
  if (!isMap(metadata)) return undefined;
  const annotations = mapGet(metadata, 'annotations');
  const entry = `${substituteKey}: disabled`;
  let edit: { offset: number; newText: string } | undefined;
  if (isMap(annotations)) {
    edit = insertIntoBlockMap(text, annotations, substituteKey, 'disabled');
  } else if (annotations === undefined) {
    const parent = insertIntoBlockMap(text, metadata, 'annotations', '');
    if (parent) edit = { offset: parent.offset, newText: `${parent.newText}${' '.repeat(parent.indent + 2)}${entry}${lineEndingAt(text, parent.offset)}` };
  }
  if (!edit) return undefined;
  return {
    title: `Turn substitution off for ${object.kind} ${object.name} (annotation ${substituteKey}: disabled)`,
    edits: [{ range: { start: edit.offset, end: edit.offset }, newText: edit.newText }],
  };
}

/**
 * Defines a missing variable where the Kustomization's variables live: the ConfigMap that
 * holds most of them (variableHome), else its inline `postBuild.substitute`.
 * The value is an empty placeholder for the author to fill in, unless `value` (YAML text) is given.
 */
export function defineVariableFix(active: ActiveContext, name: string, parsedFile: (file: string) => ParsedFile | undefined, value = '""'): RuleFix | undefined {
  const what = value === '""' ? 'an empty value' : `the value ${value}`;
  const instance = active.context.instance;
  const usable = (file: string) => parsedForEdit(parsedFile(file));
  const home = variableHome(instance.variables.sources);
  if (home) {
    const parsed = usable(home.file);
    const document = parsed?.documents.find((d) => scalarText(mapGet(d.contents, 'kind')) === 'ConfigMap' && scalarText(mapGet(d.contents, 'metadata', 'name')) === home.name);
    const data = mapGet(document?.contents, 'data');
    const edit = parsed && isMap(data) ? insertIntoBlockMap(parsed.text, data, name, value) : undefined;
    const then = value === '""' ? ', then set its value' : ` with ${what}`;
    if (edit) return { title: `Add ${name} to ConfigMap ${home.name} (${home.file}), where ${instance.cluster.name}'s other variables live${then}`, edits: [{ file: home.file, range: { start: edit.offset, end: edit.offset }, newText: edit.newText }] };
  }
  const kustomization = instance.kustomization;
  const parsed = usable(kustomization.object.file);
  const substitute = mapGet(parsed?.documents[kustomization.object.index]?.contents, 'spec', 'postBuild', 'substitute');
  const edit = parsed && isMap(substitute) ? insertIntoBlockMap(parsed.text, substitute, name, value) : undefined;
  if (!edit) return undefined;
  return {
    title: `Add ${name} to the postBuild.substitute of Kustomization ${kustomization.name}${value === '""' ? ', then set its value' : ` with ${what}`}`,
    edits: [{ file: kustomization.object.file, range: { start: edit.offset, end: edit.offset }, newText: edit.newText }],
  };
}
