/**
 * NOT-SUBSTITUTED's fix: give the Kustomization that applies the file the `postBuild` of one
 * that defines the variable in the same cluster, copied as written (re-indented), so the file
 * is substituted with the same sources.
 */
import { isMap } from 'yaml';
import { insertIntoBlockMap, lineEndingAt, parsedForEdit } from '../../fixes';
import type { KustomizationInstance } from '../../flux/graph';
import { mapGet } from '../../yaml/nodes';
import type { RuleContext } from '../rule';
import type { RuleFix } from '../../model/rule-edits';

export function copyPostBuildFix(context: RuleContext, target: KustomizationInstance, from: KustomizationInstance): RuleFix | undefined {
  const source = from.postBuild;
  const k = target.kustomization;
  if (!source || target.postBuild || source.file !== from.kustomization.object.file) return undefined;
  const sourceText = context.parsedFile(source.file)?.text;
  const parsed = parsedForEdit(context.parsedFile(k.object.file));
  const spec = mapGet(parsed?.documents[k.object.index]?.contents, 'spec');
  if (sourceText === undefined || !parsed || !isMap(spec)) return undefined;
  const opened = insertIntoBlockMap(parsed.text, spec, 'postBuild', '');
  if (!opened) return undefined;
  const eol = lineEndingAt(parsed.text, opened.offset);
  const lineStart = sourceText.lastIndexOf('\n', source.range.start - 1) + 1;
  const column = source.range.start - lineStart;
  const body = sourceText.slice(source.range.start, source.range.end).replace(/\s+$/, '');
  const indent = ' '.repeat(opened.indent + 2);
  const lines = body.split(/\r?\n/).map((line, i) => (i === 0 ? line : line.slice(Math.min(column, line.length - line.trimStart().length))));
  return {
    title: `Substitute here too: copy the postBuild of Kustomization ${from.kustomization.name} to ${k.name}`,
    edits: [{ file: k.object.file, range: { start: opened.offset, end: opened.offset }, newText: opened.newText + lines.map((line) => (line === '' ? '' : indent + line)).join(eol) + eol }],
    preferred: true,
  };
}
