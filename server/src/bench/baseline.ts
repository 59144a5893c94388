/**
 * The floors the budgets are measured against: what the `yaml` package alone takes to parse
 * a text (its default Node build, as `require('yaml')` loads it), and its browser ESM build,
 * which the server bundles (esbuild.mjs) because the Node build reads `process.env` on every
 * token.
 *
 * The parse budgets (the 10k-line open, `render-lens check`) divide by the parse measured the
 * way what they time runs: once, in a fresh process, after the same warm-up (the median of
 * such processes, timed in rounds between the runs they are the floor of: FreshFloor).
 * Measured hot instead (the best of several parses in this process, as yamlParseMs does),
 * the same parse of the 10k-line manifest is 2.6 to 6.3 times faster: that
 * floor asks a first open to beat code V8 has long optimized. #9 gives yaml's speed on this
 * kind of machine as about 1.5 MB/s, which is what the fresh-process parse measures (1.4–2.4
 * MB/s for the 10k-line manifest in the runs so far; hot, 6–11 MB/s). The hot figure stays
 * beside each budget, for scale.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { pathToFileURL } from 'url';
import * as YAML from 'yaml';
import { benchDir, projectRoot } from '../dev/project-paths';
import { bestOf, budgetRow, median, ms, type Row } from './report';

type ParseAll = (text: string) => unknown[];

const cache = new Map<string, number>();

/** Best-of-`runs` milliseconds for `parseAllDocuments` (Node build) with positions (a LineCounter), hot in this process; memoized per text. */
export function yamlParseMs(text: string, runs = 5): number {
  const known = cache.get(text);
  if (known !== undefined) return known;
  const time = bestOf(runs, () => YAML.parseAllDocuments(text, { lineCounter: new YAML.LineCounter() }));
  cache.set(text, time);
  return time;
}

/** `parseAllDocuments` of the browser ESM build, or undefined when it cannot be loaded. */
export async function browserParseAll(): Promise<ParseAll | undefined> {
  try {
    const entry = path.join(projectRoot, 'node_modules', 'yaml', 'browser', 'index.js');
    const module = (await import(pathToFileURL(entry).href)) as { parseAllDocuments?: ParseAll; default?: { parseAllDocuments?: ParseAll } };
    return module.parseAllDocuments ?? module.default?.parseAllDocuments;
  } catch {
    return undefined;
  }
}

/**
 * The parse of `texts` measured as ours run (fresh processes, after `warmUp`), sampled in
 * rounds between the runs it is the floor of: the machine moves by a third from one minute to
 * the next, and a ratio should compare timings from the same spells. Its median is the floor.
 */
export class FreshFloor {
  private readonly times: number[] = [];
  private failure: string | undefined;

  constructor(
    private readonly texts: readonly string[],
    private readonly warmUp: readonly string[],
  ) {}

  /** Times `processes` fresh processes now. A failure is kept for the budget row; the rest of the bench goes on. */
  sample(processes = 2): void {
    if (this.failure !== undefined) return;
    try {
      this.times.push(...freshParseTimes(this.texts, this.warmUp, processes));
    } catch (error) {
      this.failure = error instanceof Error ? error.message : String(error);
    }
  }

  /**
   * `measured` within `factor` times the floor. `hot` is the same parse hot in this process,
   * shown for scale. A floor that could not be measured fails the budget, with the reason.
   */
  budget(what: string, measured: number, factor: number, hot: number): Row {
    const times = `× the yaml parse, once in a fresh process${this.warmUp.length > 0 ? ' after the same warm-up' : ''}`;
    if (this.failure !== undefined || this.times.length === 0) {
      return { what, value: ms(measured), budget: `≤ ${factor.toFixed(1)}${times}`, pass: false, note: `the floor could not be measured: ${this.failure ?? 'no sample'}`, measured };
    }
    const floor = median(this.times);
    const note = `that parse ${ms(floor)} (median of ${this.times.length} processes, timed between the runs): ${(measured / floor).toFixed(2)}×; hot in the bench's process ${ms(hot)}: ${(measured / hot).toFixed(2)}×`;
    return { ...budgetRow(what, measured, factor * floor, ms, note), budget: `≤ ${factor.toFixed(1)}${times} = ${ms(factor * floor)}` };
  }
}

/**
 * Milliseconds for one pass of `parseAllDocuments` (Node build, with a LineCounter) over
 * `texts`, each in a fresh node process after it parsed `warmUp` untimed, in `runs`
 * processes. Start-up, loading and reading are not timed. The processes run with V8's
 * defaults, as `require('yaml')` does anywhere; the server's `--no-turbo-inlining` made no
 * difference to this figure (medians of 198 and 200 ms over eight runs each, with and without it).
 */
function freshParseTimes(texts: readonly string[], warmUp: readonly string[], runs: number): number[] {
  fs.mkdirSync(benchDir, { recursive: true });
  const input = path.join(benchDir, `fresh-parse-input-${process.pid}.json`);
  const yaml = require.resolve('yaml', { paths: [projectRoot] });
  const script = `
    const YAML = require(${JSON.stringify(yaml)});
    const { texts, warmUp } = JSON.parse(require('fs').readFileSync(process.argv[1], 'utf8'));
    const parse = (text) => YAML.parseAllDocuments(text, { lineCounter: new YAML.LineCounter() });
    warmUp.forEach(parse);
    const start = process.hrtime.bigint();
    texts.forEach(parse);
    process.stdout.write(String(Number(process.hrtime.bigint() - start) / 1e6));`;
  try {
    fs.writeFileSync(input, JSON.stringify({ texts, warmUp }));
    return Array.from({ length: runs }, () => {
      const run = spawnSync(process.execPath, ['-e', script, input], { encoding: 'utf8' });
      const time = Number(run.stdout);
      if (run.error || run.status !== 0 || !Number.isFinite(time)) throw new Error(`fresh parse failed: ${run.error?.message ?? (run.stderr || `exit ${run.status}`)}`);
      return time;
    });
  } finally {
    fs.rmSync(input, { force: true });
  }
}
