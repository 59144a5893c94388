/**
 * A file a `configMapGenerator` pulls in whole (`files:`), when it is not YAML: a `.sql`
 * migration, a shell script, a config file. Its text becomes one value of the generated object,
 * and Flux substitutes that value like any other: `DO $$` arrives as `DO $`. The whole text is
 * then one scalar, whose every character is where the file holds it; an env file (`envs:`)
 * gives one per `KEY=VALUE` line.
 */
import { Document, LineCounter, Scalar } from 'yaml';
import type { SubstitutedScalar } from '../model/documents';
import type { TemplateScan } from '../envsubst';
import type { ParsedFile } from '../yaml/document';
import type { ScalarSite } from '../yaml/scalar-sites';
import { sourceRange } from '../yaml/scalar-text';

/** The raw text as a parse of one document holding one string (no comments: the text is data). */
export function generatorInputParse(text: string): ParsedFile {
  const document = new Document(new Scalar(text)) as unknown as ParsedFile['documents'][number];
  (document as { range?: [number, number, number] }).range = [0, text.length, text.length];
  return { text, documents: [document], lineCounter: new LineCounter(), problems: [], comments: [] };
}

/** The file's text as the one value it becomes, under `data.<key>` of the generated object. */
export function generatorInputScalar(text: string, key: string, scan: (text: string) => TemplateScan): SubstitutedScalar {
  return valueAt(text, 0, text.length, key, scan);
}

/**
 * An env file's values (`envs:`), each the value of its key: `KEY=VALUE` lines, `#` lines and
 * blank lines skipped, as kustomize reads them (the value is the rest of the line, as written).
 */
export function envFileScalars(text: string, scan: (text: string) => TemplateScan): SubstitutedScalar[] {
  const out: SubstitutedScalar[] = [];
  for (let start = 0; start < text.length; ) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const line = text.slice(start, end).replace(/\r$/, '');
    const equals = line.indexOf('=');
    if (!/^\s*(#|$)/.test(line) && equals > 0 && line.slice(equals + 1).includes('$')) out.push(valueAt(text, start + equals + 1, start + line.length, line.slice(0, equals).trim(), scan));
    start = end + 1;
  }
  return out;
}

function valueAt(text: string, from: number, to: number, key: string, scan: (text: string) => TemplateScan): SubstitutedScalar {
  const value = text.slice(from, to);
  const starts = Int32Array.from({ length: value.length }, (_, k) => from + k);
  const decoded = { value, starts, ends: starts.map((s) => s + 1) };
  const site: ScalarSite = { node: new Scalar(value), isKey: false, path: ['data', key], style: 'BLOCK_LITERAL', range: { start: from, end: to }, text: decoded, value, rangeOf: (a, b) => sourceRange(decoded, a, b) };
  return { site, scan: scan(value) };
}
