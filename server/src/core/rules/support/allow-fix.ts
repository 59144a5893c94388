/**
 * The "mark as reviewed" fix: an `allow:` entry in `.render-lens.yaml` for one dollar run,
 * the one reviewed exception that reaches inside a block scalar. Its context is the run's
 * line, widened by whole lines until it is long enough and names one place in the file; its
 * reason says what arrives and why, as the finding worked it out.
 */
import { isMap, isSeq, parseDocument } from 'yaml';
import { configFile } from '../../config';
import type { Range } from '../../model/index';
import { contextMinLength } from '../../review-policy';
import { holdsReportedRun } from './allow-entries';
import type { RuleContext } from '../rule';
import type { RuleFix } from '../../model/rule-edits';

export function markReviewedFix(context: RuleContext, run: Range, reason: string, title = 'Mark as reviewed (an `allow` entry in .render-lens.yaml)'): RuleFix | undefined {
  const config = context.file === configFile ? undefined : context.parsedFile(configFile);
  if (!config) return undefined; // An edit cannot create the file; `allow:` is documented in README.
  const excerpt = contextAround(context.text, run);
  if (!excerpt) return undefined;
  const path = /^[\w./-]+$/.test(context.file) ? context.file : JSON.stringify(context.file);
  const insert = entryInsertion(config.text, [`path: ${path}`, `context: ${JSON.stringify(excerpt)}`, `reason: ${JSON.stringify(reason)}`]);
  return insert ? { title, edits: [{ file: configFile, range: { start: insert.offset, end: insert.offset }, newText: insert.text }] } : undefined;
}

/**
 * The run's line without its indentation, else with it, else widened by whole lines that hold
 * no other run a dollar rule reports (below first, then above) until long enough and unique:
 * an entry must excuse this run and no other.
 */
function contextAround(text: string, run: Range): string | undefined {
  const lineStart = text.lastIndexOf('\n', run.start - 1) + 1;
  let end = lineEnd(text, run.end);
  const indent = /^[ \t]*/.exec(text.slice(lineStart, end))![0].length;
  let start = lineStart + indent;
  const fits = (from: number, to: number) => {
    const excerpt = text.slice(from, to).replace(/\s+$/, '');
    return excerpt.length >= contextMinLength && text.indexOf(excerpt) === text.lastIndexOf(excerpt) ? excerpt : undefined;
  };
  const own = fits(lineStart + indent, end) ?? fits(lineStart, end);
  if (own !== undefined) return own;
  for (let widened = 0; widened < 8; widened++) {
    const below = end < text.length ? lineEnd(text, end + 1) : undefined;
    const startOfLine = text.lastIndexOf('\n', start - 1) + 1;
    const above = startOfLine > 0 ? text.lastIndexOf('\n', startOfLine - 2) + 1 : undefined;
    if (below !== undefined && !holdsReportedRun(text.slice(end, below))) end = below;
    else if (above !== undefined && !holdsReportedRun(text.slice(above, start))) start = above + /^[ \t]*/.exec(text.slice(above, start))![0].length;
    else return undefined;
    const excerpt = fits(start, end);
    if (excerpt !== undefined) return excerpt;
  }
  return undefined;
}

function lineEnd(text: string, offset: number): number {
  const newline = text.indexOf('\n', offset);
  return newline === -1 ? text.length : newline;
}

/** Where and what to insert so `allow:` gains one entry with these `key: value` lines. */
function entryInsertion(config: string, lines: readonly string[]): { offset: number; text: string } | undefined {
  const document = parseDocument(config);
  if (document.errors.length > 0 || (document.contents !== null && !isMap(document.contents))) return undefined;
  const allow = isMap(document.contents) ? document.contents.get('allow', true) : undefined;
  const eol = config.includes('\r\n') ? '\r\n' : '\n';
  const item = (indent: string) => lines.map((line, i) => `${indent}${i === 0 ? '- ' : '  '}${line}`).join(eol) + eol;
  if (allow === undefined) {
    const head = config.length === 0 || config.endsWith('\n') ? '' : eol;
    return { offset: config.length, text: `${head}allow:${eol}${item('  ')}` };
  }
  if (!isSeq(allow) || allow.flow || allow.items.length === 0 || !allow.range) return undefined;
  const first = allow.items[0] as { range?: [number, number, number] };
  const firstStart = first.range?.[0] ?? allow.range[0];
  const lineStart = config.lastIndexOf('\n', firstStart - 1) + 1;
  // The `- ` of the first item sits two columns before its content.
  const indent = ' '.repeat(Math.max(0, firstStart - lineStart - 2));
  const afterLast = config.slice(0, allow.range[1]).replace(/\s+$/, '').length;
  const offset = lineEnd(config, afterLast);
  return offset >= config.length ? { offset, text: eol + item(indent).slice(0, -eol.length) } : { offset: offset + 1, text: item(indent) };
}
