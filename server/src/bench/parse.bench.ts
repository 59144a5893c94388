/**
 * The `yaml` package's parse speed on the manifests, hot in this process (the 1.3× open
 * budget's floor is the same parse measured once in a fresh process: baseline.ts),
 * its browser build, Render Lens's own parse (positions, comments, problems), and the
 * re-parse after a one-character edit, which must touch only the edited document
 * (incremental.bench.ts checks that it gives the same answer as a full parse).
 */
import { parseIncremental, reparseYamlFile } from '../core/workspace/reparse';
import { parseYamlFile } from '../core/yaml/document';
import { browserParseAll, yamlParseMs } from './baseline';
import { SEED, generateManifest } from '../test/support/generate';
import { bestOf, mb, median, ms, table, timeMs, type BenchOptions, type Row } from './report';

const SIZES = [1_000, 10_000, 50_000];

export async function benchParse(options: BenchOptions): Promise<string[]> {
  const rows: Row[] = [];
  const browser = await browserParseAll();
  for (const size of options.quick ? SIZES.slice(0, 2) : SIZES) {
    const text = generateManifest(SEED ^ size, size);
    const megabytes = Buffer.byteLength(text) / (1024 * 1024);
    const label = `${size / 1000}k (${mb(Buffer.byteLength(text))})`;
    const runs = size >= 50_000 ? 3 : 5;
    const rate = (t: number) => `${ms(t)}, ${(megabytes / (t / 1000)).toFixed(2)} MB/s`;
    const node = yamlParseMs(text, runs);
    rows.push({ what: `${label}: yaml parseAllDocuments (Node build)`, value: rate(node), note: size === 10_000 ? 'hot; the open budget divides by this parse once in a fresh process (lsp section)' : undefined });
    if (browser) {
      const time = bestOf(runs, () => browser(text));
      rows.push({ what: `${label}: yaml parseAllDocuments (browser build)`, value: rate(time), note: `${(time / node).toFixed(2)}× the Node build` });
    }
    const own = bestOf(runs, () => parseYamlFile(text));
    rows.push({ what: `${label}: parseYamlFile (this process's yaml build)`, value: rate(own), note: `${(own / node).toFixed(2)}× parseAllDocuments` });
    const edit = editCost(text);
    rows.push({ what: `${label}: re-parse after a one-char edit`, value: ms(edit.incremental), note: `full re-parse ${ms(edit.full)}` });
  }
  return table(rows);
}

/** Median re-parse time for edits spread through the text, and a full parse for comparison. */
function editCost(text: string): { incremental: number; full: number } {
  let parsed = parseIncremental(text);
  let current = text;
  const times: number[] = [];
  for (let i = 1; i <= 7; i++) {
    const at = current.indexOf('\n', Math.floor((current.length * i) / 8));
    const next = current.slice(0, at) + 'x' + current.slice(at);
    times.push(timeMs(() => (parsed = reparseYamlFile(parsed, next))));
    current = next;
  }
  return { incremental: median(times), full: timeMs(() => parseYamlFile(current)) };
}

