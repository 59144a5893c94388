/**
 * Navigation between chart templates and `values.yaml`: from `.Values.a.b` in a template to
 * the key in the values file (go to definition), and from a key in the values file to every
 * template that reads it (find references). Plain functions over the engine's index; the LSP
 * layer wires them to its requests.
 *
 * Only direct reads are followed: `.Values.a.b` and `$.Values.a.b`. A value reached through
 * `with` / `range` or a variable is not (the dot is rebound, and following it would guess).
 */
import { isMap, isScalar, type Document, type Node } from 'yaml';
import type { WorkspaceView } from '../model/workspace-view';
import type { Location, Range } from '../model';
import { chartDirOf, type ChartFiles } from './chart';
import type { ActionNode, Pipeline, Term } from '../gotemplate/ast';
import { helmDialect } from '../gotemplate/dialect';
import { parseAction } from '../gotemplate/parser';
import { actionAt } from '../gotemplate/lexer';
import { analyzeTemplate } from './template-file';

/** The engine's files as a chart sees them. */
export function engineChartFiles(workspace: WorkspaceView): ChartFiles {
  return {
    text: (path) => workspace.index.text(path),
    list: (dir) => workspace.index.files().filter((f) => f.startsWith(dir === '' ? '' : `${dir}/`)),
  };
}

/** Every term of an action, nested pipelines included. */
export function termsOf(node: ActionNode): Term[] {
  const out: Term[] = [];
  const visit = (pipeline: Pipeline) => {
    for (const command of pipeline.commands) {
      for (const term of command.args) {
        out.push(term);
        if (term.kind === 'pipeline') visit(term.pipeline);
      }
    }
  };
  if ('pipeline' in node && node.pipeline) visit(node.pipeline);
  if (node.type === 'else' && node.chain) visit(node.chain.pipeline);
  return out;
}

/** A direct `.Values…` read: the term and the offset where each segment after `Values` starts. */
interface ValuesRead {
  term: Term;
  path: string[];
  /** Source range of each path segment (the name, without its dot). */
  segments: Range[];
}

function valuesRead(text: string, term: Term, rebound: boolean): ValuesRead | undefined {
  const direct = (term.kind === 'field' && !rebound) || (term.kind === 'variable' && term.name === '$');
  if (!direct || !('path' in term) || term.path[0] !== 'Values') return undefined;
  const segments: Range[] = [];
  let at = term.kind === 'variable' ? term.start + 1 : term.start;
  for (const name of term.path) {
    const start = text.indexOf(`.${name}`, at) + 1;
    segments.push({ start, end: start + name.length });
    at = start + name.length;
  }
  return { term, path: term.path.slice(1), segments: segments.slice(1) };
}

/** The `.Values` path under the cursor in a template, cut at the segment the cursor is on. */
export function valuesPathAt(file: string, text: string, offset: number): { path: string[]; range: Range } | undefined {
  const analysis = analyzeTemplate(file, text);
  const action = actionAt(analysis.tree.scan.actions, offset);
  if (!action || action.comment) return undefined;
  const node = analysis.tree.nodes.get(action.start) ?? parseAction(text, action, helmDialect);
  for (const term of termsOf(node)) {
    if (offset < term.start || offset > term.end) continue;
    const read = valuesRead(text, term, analysis.rebound(action.start));
    if (!read) continue;
    const index = read.segments.findIndex((s) => offset >= s.start && offset <= s.end);
    const upTo = index < 0 ? read.path.length : index + 1;
    return { path: read.path.slice(0, upTo), range: { start: term.start, end: read.segments[upTo - 1]?.end ?? term.end } };
  }
  return undefined;
}

/** The key node for `path` in a values document: the longest prefix that exists. */
export function valuesKey(document: Document.Parsed, path: readonly string[]): { range: Range; depth: number } | undefined {
  let node: Node | null | undefined = document.contents as Node | null;
  let found: { range: Range; depth: number } | undefined;
  for (let depth = 0; depth < path.length; depth++) {
    if (!isMap(node)) break;
    const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === path[depth]);
    if (!pair || !isScalar(pair.key) || !pair.key.range) break;
    found = { range: { start: pair.key.range[0], end: pair.key.range[1] }, depth: depth + 1 };
    node = pair.value as Node | null;
  }
  return found;
}

/** Go to definition: `.Values.a.b` in a template → the key `b` under `a` in the chart's values.yaml. */
export function valuesDefinition(workspace: WorkspaceView, file: string, offset: number): Location | undefined {
  const text = workspace.index.text(file);
  if (text === undefined || !workspace.isHelmTemplate(file)) return undefined;
  const at = valuesPathAt(file, text, offset);
  if (!at || at.path.length === 0) return undefined;
  const files = engineChartFiles(workspace);
  const dir = chartDirOf(file, files);
  if (dir === undefined) return undefined;
  const valuesFile = dir === '' ? 'values.yaml' : `${dir}/values.yaml`;
  const parsed = workspace.index.parsed(valuesFile);
  const document = parsed?.documents[0];
  const key = document && valuesKey(document, at.path);
  return key && key.depth === at.path.length ? { file: valuesFile, range: key.range } : undefined;
}

/** The key path at `offset` in a values file (the key under the cursor and its parents). */
export function valuesKeyPathAt(document: Document.Parsed, offset: number): string[] | undefined {
  const path: string[] = [];
  let node: Node | null | undefined = document.contents as Node | null;
  while (isMap(node)) {
    const pair = node.items.find((p) => {
      const end = (p.value as Node | null)?.range?.[2] ?? (isScalar(p.key) ? p.key.range?.[1] : undefined) ?? -1;
      return isScalar(p.key) && p.key.range !== undefined && p.key.range !== null && offset >= p.key.range[0] && offset <= end;
    });
    if (!pair || !isScalar(pair.key)) break;
    path.push(String(pair.key.value));
    if (pair.key.range && offset <= pair.key.range[1]) return path;
    node = pair.value as Node | null;
  }
  return path.length > 0 ? path : undefined;
}

/** Find references: every direct read of the key at `offset` (or below it) in the chart's templates. */
export function valuesReferences(workspace: WorkspaceView, valuesFile: string, offset: number): Location[] {
  if (!/(^|\/)values\.yaml$/.test(valuesFile)) return [];
  const dir = valuesFile.includes('/') ? valuesFile.slice(0, valuesFile.lastIndexOf('/')) : '';
  if (workspace.index.text(dir === '' ? 'Chart.yaml' : `${dir}/Chart.yaml`) === undefined) return [];
  const document = workspace.index.parsed(valuesFile)?.documents[0];
  const path = document && valuesKeyPathAt(document, offset);
  if (!path) return [];
  const templatesDir = dir === '' ? 'templates/' : `${dir}/templates/`;
  const out: Location[] = [];
  for (const file of workspace.index.files()) {
    if (!file.startsWith(templatesDir)) continue;
    const text = workspace.index.text(file);
    if (text === undefined) continue;
    const analysis = analyzeTemplate(file, text);
    for (const action of analysis.tree.scan.actions) {
      const node = analysis.tree.nodes.get(action.start);
      if (!node) continue;
      for (const term of termsOf(node)) {
        const read = valuesRead(text, term, analysis.rebound(action.start));
        if (!read || read.path.length < path.length || path.some((p, i) => read.path[i] !== p)) continue;
        out.push({ file, range: { start: read.segments[0].start, end: read.segments[path.length - 1].end } });
      }
    }
  }
  return out;
}
