/**
 * The incremental paths give the answers a fresh start gives: a bench that measured a wrong
 * answer would measure nothing. After random edits to generated multi-document manifests,
 * - the incremental re-parse (workspace/reparse.ts) equals a full parse of the new text:
 *   documents, node ranges, source token offsets (where both have them), errors, comments, problems;
 * - the findings of an engine that saw every version (re-parse, kept graph, per-document
 *   caches of workspace/document-cache.ts) equal those of a new engine on the last version.
 * Edits mix the harmless with the breaking: quotes, brackets, `---`, `...`, directives, `$$`.
 */
import * as path from 'path';
import * as YAML from 'yaml';
import { Engine } from '../core/engine';
import { parseIncremental, reparseYamlFile } from '../core/workspace/reparse';
import type { ChangedSpan } from '../core/workspace/text-change';
import { parseYamlFile, type ParsedFile } from '../core/yaml/document';
import { NodeHost } from '../node-host';
import { FIRST_APP_BASE, SECOND_APP_BASE, SEED, generateFluxRepo, generateManifest, random } from './generate';
import { benchDir } from '../dev/project-paths';
import { table, type BenchOptions } from './report';

export async function benchIncremental(options: BenchOptions): Promise<string[]> {
  const parse = differential(options.quick ? 300 : 1000);
  const analysis = analysisDifferential(options.quick ? 25 : 60);
  return table([
    { what: 'incremental re-parse = full parse', value: `${parse.equal}/${parse.total}`, budget: 'all', pass: parse.equal === parse.total, note: parse.firstDifference },
    { what: 'findings after edits = findings of a new engine', value: `${analysis.equal}/${analysis.total}`, budget: 'all', pass: analysis.equal === analysis.total, note: analysis.firstDifference },
  ]);
}

const INSERTS = ['x', ' ', '\n', '"', "'", '[', ']', '{', '}', ':', '- ', '---\n', '\n---\n', '...\n', '|', '>-', '#', '&a ', '*a', '\t', '%YAML 1.2\n', '\r\n', '${A}', '$$', '${region}', '$${HOME}', '${UNDEFINED}', '$$$', 'kind: Secret\n'];

/** One random edit: somewhere, remove up to 7 units, insert one of INSERTS (or nothing). */
export function randomEdit(text: string, next: () => number): string {
  return randomSpannedEdit(text, next).text;
}

/** randomEdit, with the span it replaced: text[start, oldEnd) became the new text's [start, newEnd). */
export function randomSpannedEdit(text: string, next: () => number): { text: string; span: ChangedSpan } {
  const start = Math.floor(next() * (text.length + 1));
  const removed = next() < 0.4 ? Math.floor(next() * 8) : 0;
  const inserted = next() < 0.85 ? INSERTS[Math.floor(next() * INSERTS.length)] : '';
  const oldEnd = Math.min(text.length, start + removed);
  return { text: text.slice(0, start) + inserted + text.slice(oldEnd), span: { start, oldEnd, newEnd: start + inserted.length } };
}

/**
 * Edits to a manifest in a substituted path of a Flux repository: one engine follows every
 * version, as the language server does; a new engine checks the last one.
 */
function analysisDifferential(cases: number): { equal: number; total: number; firstDifference?: string } {
  const next = random(SEED ^ 0xa7a1);
  const repo = generateFluxRepo(path.join(benchDir, 'lsp-1k'), { files: 200, extraKey: LSP_REPO_KEY, extra: lspExtra });
  const file = `${FIRST_APP_BASE}/scripts.yaml`;
  const host = new NodeHost(repo.root);
  let equal = 0;
  let firstDifference: string | undefined;
  for (let n = 0; n < cases; n++) {
    const following = new Engine(host);
    let text = generateManifest(SEED ^ (n + 7), 40 + Math.floor(next() * 100));
    following.update(file, text);
    following.analyzeFile(file, { keep: true });
    let same = true;
    for (let step = 0; step < 5 && same; step++) {
      text = randomEdit(text, next);
      following.update(file, text);
      const incremental = JSON.stringify(following.analyzeFile(file, { keep: true }));
      const fresh = new Engine(host);
      fresh.update(file, text);
      if (incremental !== JSON.stringify(fresh.analyzeFile(file))) {
        same = false;
        firstDifference ??= `case ${n} step ${step}`;
      }
    }
    if (same) equal++;
  }
  return { equal, total: cases, firstDifference };
}

/**
 * The LSP bench repositories: the first app's base lists `scripts.yaml` (the measured manifest)
 * and the second app's `warmup.yaml` (opened first in a warm run). Neither is on disk: the
 * editor's text is the first the server sees of them.
 */
export const LSP_REPO_KEY = 'scripts+warmup';

export function lspExtra(): Record<string, string> {
  const base = (extra: string) =>
    `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - deployment.yaml\n  - service.yaml\n  - configmap.yaml\n  - hpa.yaml\n  - ingress.yaml\n  - ${extra}\n`;
  return { [`${FIRST_APP_BASE}/kustomization.yaml`]: base('scripts.yaml'), [`${SECOND_APP_BASE}/kustomization.yaml`]: base('warmup.yaml') };
}

/**
 * Random edits (one character, a line, a `---`, quotes, brackets, block headers) to small
 * multi-document files: the incremental re-parse must equal a full parse of the new text.
 */
function differential(cases: number): { equal: number; total: number; firstDifference?: string } {
  const next = random(SEED ^ 0xd1ff);
  let equal = 0;
  let firstDifference: string | undefined;
  for (let n = 0; n < cases; n++) {
    const base = generateManifest(SEED ^ n, 60 + Math.floor(next() * 120));
    let parsed = parseIncremental(base);
    let text = base;
    let same = true;
    for (let step = 0; step < 4 && same; step++) {
      text = randomEdit(text, next);
      parsed = reparseYamlFile(parsed, text);
      const difference = compare(parsed, parseYamlFile(text));
      if (difference) {
        same = false;
        firstDifference ??= `case ${n}: ${difference}`;
      }
    }
    if (same) equal++;
  }
  return { equal, total: cases, firstDifference };
}

/** The first difference between two parses that any consumer could see, or undefined. */
export function compare(a: ParsedFile, b: ParsedFile): string | undefined {
  if (a.text !== b.text) return 'text';
  if (a.documents.length !== b.documents.length) return `${a.documents.length} documents, expected ${b.documents.length}`;
  for (let i = 0; i < a.documents.length; i++) {
    const [x, y] = [a.documents[i], b.documents[i]];
    if (String(x.range) !== String(y.range)) return `document ${i} range ${String(x.range)}, expected ${String(y.range)}`;
    // Block-style documents come from the block-subset reader, without source tokens: the
    // tokens of one are compared only when both have them (stale offsets after a shift show).
    const withTokens = x.contents?.srcToken !== undefined && y.contents?.srcToken !== undefined;
    const nodes = (d: YAML.Document.Parsed) => {
      const out: string[] = [];
      YAML.visit(d, (_key, node) => {
        if (YAML.isNode(node)) out.push(`${kindOf(node)}${String(node.range)}:${YAML.isScalar(node) ? JSON.stringify(node.value) : ''}:${withTokens ? tokenOffsets(node.srcToken) : ''}`);
      });
      return out.join('\n');
    };
    if (nodes(x) !== nodes(y)) return `document ${i} nodes differ`;
    const errors = (d: YAML.Document.Parsed) => d.errors.map((e) => `${e.code}@${String(e.pos)}`).join(',') + '|' + d.warnings.map((e) => `${e.code}@${String(e.pos)}`).join(',');
    if (errors(x) !== errors(y)) return `document ${i} errors ${errors(x)}, expected ${errors(y)}`;
    // The composer's comment strings (and so printing) are not compared: the reader does not
    // make them and nothing reads them; the file's comments are compared below.
  }
  const comments = (p: ParsedFile) => p.comments.map((c) => `${c.start}-${c.end}:${c.text}`).join('\n');
  if (comments(a) !== comments(b)) return 'comments';
  const problems = (p: ParsedFile) => p.problems.map((q) => `${q.range.start}-${q.range.end}:${q.message}`).join('\n');
  if (problems(a) !== problems(b)) return 'problems';
  // The parser skips some line breaks in broken syntax; the re-parse counts every one.
  const starts = [0];
  for (let i = b.text.indexOf('\n'); i !== -1; i = b.text.indexOf('\n', i + 1)) starts.push(i + 1);
  if (a.lineCounter.lineStarts.join(',') !== starts.join(',') && a.lineCounter.lineStarts.join(',') !== b.lineCounter.lineStarts.join(',')) return 'line starts';
  return undefined;
}

function kindOf(node: YAML.Node): string {
  return YAML.isScalar(node) ? 'scalar' : YAML.isMap(node) ? 'map' : YAML.isSeq(node) ? 'seq' : 'alias';
}

/** Every offset of a CST token and the tokens inside it, so stale source tokens show. */
function tokenOffsets(token: unknown): string {
  const out: number[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (value === null || typeof value !== 'object') return;
    const record = value as Record<string, unknown>;
    if (typeof record.offset === 'number') out.push(record.offset);
    for (const key of ['start', 'key', 'sep', 'value', 'end', 'items', 'props']) if (key in record) visit(record[key]);
  };
  visit(token);
  return out.join(',');
}
