/**
 * A file a `configMapGenerator` pulls in whole (`files:`), when it is not
 * YAML: a `.sql` migration, a shell script, a config file. Its text becomes one value of the
 * generated object, and Flux substitutes that value like any other: `DO $$` arrives as `DO $`.
 * The whole text is then one scalar, whose every character is where the file holds it.
 */
import { Document, LineCounter, Scalar } from 'yaml';
import type { SubstitutedScalar } from '../rules/rule';
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
  const starts = Int32Array.from({ length: text.length }, (_, k) => k);
  const decoded = { value: text, starts, ends: starts.map((s) => s + 1) };
  const site: ScalarSite = { node: new Scalar(text), isKey: false, path: ['data', key], style: 'BLOCK_LITERAL', range: { start: 0, end: text.length }, text: decoded, value: text, rangeOf: (a, b) => sourceRange(decoded, a, b) };
  return { site, scan: scan(text) };
}
