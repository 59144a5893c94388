/**
 * The fixture harness. A case is a folder of files, a mini repository; expected findings are
 * written inline as YAML comment lines with carets under the columns they point at:
 *
 *     echo "${HOSTS[0]}"
 *   #       ^^^^^^^^^^^ 💡 error[ENVSUBST-PARSE]: Flux cannot parse …
 *
 * Annotation lines are stripped before the engine sees the file (inside a `|` block a `#`
 * line is text), and carets point at the previous real line. 💡 marks a finding with a fix.
 * `# expect: none` states that a case must produce nothing. A `<file>.fixed` golden holds
 * the file after every preferred fix is applied.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Engine } from '../../core/engine';
import { MemoryHost } from '../../core/host';
import type { Edit, Finding } from '../../core/model';
import { LineIndex } from '../../core/positions';
import { fixturesDir } from './paths';

const annotation = /^(\s*#\s*)(\^+)\s+(💡\s+)?(error|warning|information|hint)\[([A-Z0-9-]+)\]:\s?(.*)$/u;

export interface FixtureCase {
  dir: string;
  /** Files as the engine sees them (annotations stripped), by case-relative path. */
  files: Record<string, string>;
  /** Expected findings, in the harness's one-line form. */
  expected: string[];
  /** Goldens: case-relative path of the source file → text after fixes. */
  fixed: Record<string, string>;
}

export function listCases(ruleId: string): string[] {
  const dir = path.join(fixturesDir, 'rules', ruleId);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join(dir, entry.name))
    .sort();
}

export function loadCase(dir: string): FixtureCase {
  const result: FixtureCase = { dir, files: {}, expected: [], fixed: {} };
  for (const file of listFilesRecursively(dir)) {
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    if (file.endsWith('.fixed')) {
      result.fixed[file.slice(0, -'.fixed'.length)] = text;
      continue;
    }
    const { stripped, expected } = stripAnnotations(file, text);
    result.files[file] = stripped;
    result.expected.push(...expected);
  }
  return result;
}

/** Removes annotation lines and turns each into an expectation on the line above it. */
export function stripAnnotations(file: string, text: string): { stripped: string; expected: string[] } {
  const kept: string[] = [];
  const expected: string[] = [];
  for (const line of text.split('\n')) {
    const match = annotation.exec(line);
    if (!match) {
      kept.push(line);
      continue;
    }
    if (kept.length === 0) throw new Error(`${file}: an annotation needs a line above it`);
    const target = kept[kept.length - 1].replace(/\r$/, '');
    const column = match[1].length;
    const end = column + match[2].length;
    const wholeRest = end >= target.length;
    expected.push(describe(file, kept.length, column + 1, wholeRest ? 'eol' : end + 1, match[4], match[5], match[6], match[3] !== undefined));
  }
  return { stripped: kept.join('\n'), expected };
}

function describe(file: string, line: number, column: number, endColumn: number | 'eol', severity: string, rule: string, message: string, fix: boolean): string {
  return `${file}:${line}:${column}-${endColumn} ${fix ? '💡 ' : ''}${severity}[${rule}]: ${message}`;
}

/** A finding in the same one-line form as the annotations, for a readable diff. */
export function describeFinding(finding: Finding, text: string): string {
  const index = new LineIndex(text);
  const start = index.positionAt(finding.range.start);
  const end = index.positionAt(finding.range.end);
  const lineLength = index.lineText(start.line).length;
  const endColumn = end.line !== start.line || end.character >= lineLength ? 'eol' : end.character + 1;
  return describe(finding.file, start.line + 1, start.character + 1, endColumn, finding.severity, finding.rule, finding.message, finding.fixes.length > 0);
}

/**
 * Runs every rule over the case, as the editor would, and keeps the findings of `ruleIds`
 * (all when omitted): suppressions and rules that read other rules' results see the real thing.
 */
export function runCase(files: Record<string, string>, ruleIds?: readonly string[]): Finding[] {
  const findings = new Engine(new MemoryHost(files)).analyzeWorkspace(['']).findings;
  return ruleIds ? findings.filter((f) => ruleIds.includes(f.rule)) : findings;
}

/** Applies non-overlapping edits to one text, last first so offsets stay valid. */
export function applyEdits(text: string, edits: readonly Edit[]): string {
  const sorted = [...edits].sort((a, b) => b.range.start - a.range.start || b.range.end - a.range.end);
  let out = text;
  let limit = Infinity;
  for (const edit of sorted) {
    if (edit.range.end > limit) continue;
    out = out.slice(0, edit.range.start) + edit.newText + out.slice(edit.range.end);
    limit = edit.range.start;
  }
  return out;
}

/** The preferred fixes of all findings in `file`, applied once. */
export function applyPreferredFixes(file: string, text: string, findings: readonly Finding[]): string {
  const edits = findings.flatMap((f) => f.fixes.filter((fix) => fix.preferred).flatMap((fix) => fix.edits)).filter((e) => e.file === file);
  // Two findings may carry the same edit (one variable used twice): apply it once.
  const unique = [...new Map(edits.map((e) => [`${e.range.start}:${e.range.end}:${e.newText}`, e])).values()];
  return applyEdits(text, unique);
}

function listFilesRecursively(dir: string, prefix = ''): string[] {
  return fs
    .readdirSync(path.join(dir, prefix), { withFileTypes: true })
    .flatMap((entry) => {
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      return entry.isDirectory() ? listFilesRecursively(dir, rel) : [rel];
    })
    .sort();
}
