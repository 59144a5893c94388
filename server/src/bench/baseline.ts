/**
 * The floors the budgets are measured against: what the `yaml` package alone takes to parse
 * a text (its default Node build, as `require('yaml')` loads it), and its browser ESM build,
 * which the server bundles (esbuild.mjs) because the Node build reads `process.env` on every
 * token.
 *
 * The budgets' floors are the best of several parses in this process, by then hot code. What
 * they are compared with runs once, in a fresh server or CLI process, mostly before V8 has
 * optimized anything; freshParseMs gives the same parse measured that way, shown beside them.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { pathToFileURL } from 'url';
import * as YAML from 'yaml';
import { benchDir, projectRoot } from '../dev/project-paths';
import { bestOf, median, ms, type Row } from './report';

type ParseAll = (text: string) => unknown[];

const cache = new Map<string, number>();

/** Best-of-`runs` milliseconds for `parseAllDocuments` (Node build) with positions (a LineCounter), as the budgets define the floor; memoized per text. */
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
 * A row for scale (no budget): one pass of `parseAllDocuments` over `texts`, measured the way
 * the server and the CLI run, with `note` saying how ours compares. A failure to measure is
 * shown in the row, not thrown: the rest of the bench goes on.
 */
export function freshParseRow(what: string, texts: readonly string[], warmUp: readonly string[], note: (ms: number) => string): Row {
  try {
    const time = freshParseMs(texts, warmUp);
    return { what, value: ms(time), note: note(time) };
  } catch (error) {
    return { what, value: '—', note: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Milliseconds for one pass of `parseAllDocuments` (Node build, with a LineCounter) over
 * `texts`, each in a fresh node process after it parsed `warmUp` untimed: the median of
 * `runs` processes. Start-up, loading and reading are not timed. The processes run with V8's
 * defaults, as the hot floors do; the server's `--no-turbo-inlining` made no difference to
 * this figure (medians of 198 and 200 ms over eight runs each, with and without it).
 */
function freshParseMs(texts: readonly string[], warmUp: readonly string[], runs = 3): number {
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
    const times = Array.from({ length: runs }, () => {
      const run = spawnSync(process.execPath, ['-e', script, input], { encoding: 'utf8' });
      const time = Number(run.stdout);
      if (run.error || run.status !== 0 || !Number.isFinite(time)) throw new Error(`fresh parse failed: ${run.error?.message ?? (run.stderr || `exit ${run.status}`)}`);
      return time;
    });
    return median(times);
  } finally {
    fs.rmSync(input, { force: true });
  }
}
