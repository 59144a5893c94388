/**
 * The plain data the analysis core hands to its adapters (LSP, CLI, tests).
 * Positions are UTF-16 offsets into the file text, the same unit as JS string indices;
 * adapters convert them to lines and columns once, at the edge.
 */

export type Severity = 'error' | 'warning' | 'information' | 'hint';

/** A half-open range [start, end) of UTF-16 offsets. */
export interface Range {
  start: number;
  end: number;
}

/** One replacement in one file. */
export interface Edit {
  file: string;
  range: Range;
  newText: string;
}

/** A fix travels with its finding as data; code actions only read it. */
export interface Fix {
  title: string;
  edits: Edit[];
  preferred?: boolean;
}

/** The JSON type of a value as the cluster receives it. */
export type JsonType = 'string' | 'bool' | 'number' | 'null' | 'array' | 'object';

/** A hover's Markdown and the range it is about. */
export interface Hover {
  range: Range;
  markdown: string;
}

/** A place in a file (go to definition, references). */
export interface Location {
  file: string;
  range: Range;
}

export interface RelatedLocation {
  file: string;
  range: Range;
  message: string;
}

export interface Finding {
  rule: string;
  severity: Severity;
  file: string;
  range: Range;
  message: string;
  related: RelatedLocation[];
  fixes: Fix[];
}

/** 0 for the most serious. */
export const severityRank: Record<Severity, number> = { error: 0, warning: 1, information: 2, hint: 3 };

/** True when `severity` is at least as serious as `threshold`. */
export function atLeast(severity: Severity, threshold: Severity): boolean {
  return severityRank[severity] <= severityRank[threshold];
}

/** Orders findings by file, then position, then rule, so every output is stable. */
export function compareFindings(a: Finding, b: Finding): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.range.start - b.range.start || a.range.end - b.range.end || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0);
}
