/** Whether an incremental re-parse equals a full parse, as any consumer could see. */
import * as YAML from 'yaml';
import type { ParsedFile } from '../../core/yaml/document';

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
