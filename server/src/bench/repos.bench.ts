/**
 * A whole-workspace check of each generated repository kind (Flux, Helm charts, Fleet), in
 * process, and `render-lens check` as a user runs it (a fresh process: start-up, listing,
 * reading, the graph, every rule, the report) over the Flux repositories, with its peak RSS.
 *
 * Budget: the check's peak RSS on the 10,000-file repository within 300 MB. The 2,000-file
 * check's wall time is shown beside a whole process that only lists, reads and parses the same
 * files, for scale: the old budget against the parse alone is settled (issue 33), since the
 * check is at parity with that process.
 *
 * The CLI keeps its compiled code in the user's cache folder after a machine's first run
 * (cli/launcher.ts). The timed runs find it, as every later run does (in a folder of the
 * bench's own, filled by an untimed run first); one run without it, as on a machine's
 * first run, is shown beside the budget.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { Engine } from '../core/engine';
import { NodeHost } from '../node-host';
import { generateChartRepo } from './chart-repo';
import { generateFleetRepo, generateFluxRepo, generateHelmRepo, type GeneratedRepo } from '../test/support/generate';
import { benchDir, projectRoot, renderLensCli } from '../dev/project-paths';
import { budgetRow, mb, median, ms, rssMarker, table, timeMs, type BenchOptions, type Row } from './report';

// Five: one run moves by a tenth or more on this kind of machine, and the floor is sampled between them.
const CHECK_RUNS = 5;
const RSS_LIMIT = 300 * 1024 * 1024;
/** Issue 29's budget for a chart repository of bitnami/charts' size: 6 s and 400 MB for the CLI. */
const CHART_REPO_CHARTS = 130;
const CHART_REPO_WALL_LIMIT = 6000;
const CHART_REPO_RSS_LIMIT = 400 * 1024 * 1024;

export async function benchRepos(options: BenchOptions): Promise<string[]> {
  const flux = (files: number) => generateFluxRepo(path.join(benchDir, `flux-${files}`), { files });
  const repos: Array<[string, GeneratedRepo]> = [
    ['Flux, 200 files', flux(200)],
    ['Flux, 2,000 files', flux(2_000)],
    ['Helm charts', generateHelmRepo(path.join(benchDir, 'helm'), options.quick ? 20 : 60)],
    ['Fleet', generateFleetRepo(path.join(benchDir, 'fleet'), options.quick ? 30 : 100)],
  ];
  const rows: Row[] = [];
  for (const [what, repo] of repos) {
    let summary = '';
    const time = timeMs(() => {
      const engine = new Engine(new NodeHost(repo.root));
      const result = engine.analyzeWorkspace();
      summary = `${result.files} files checked, ${result.fields} fields, ${result.findings.length} findings`;
    });
    rows.push({ what: `${what}: check the workspace in process (cold)`, value: ms(time), note: `${repo.files} files on disk; ${summary}` });
  }
  const lines: string[] = [];
  if (!fs.existsSync(renderLensCli)) return [`${renderLensCli} is missing (run \`node esbuild.mjs\`); render-lens check skipped`, '', ...table(rows)];
  checkProcess(flux(200).root);
  for (const files of options.quick ? [200, 2_000] : [200, 2_000, 10_000]) {
    const repo = flux(files);
    // For the budgeted size, the floor is timed between the checks, in the same spells.
    const forScale = files === 2_000;
    const starts: number[] = [];
    const parsers: number[] = [];
    const runs = Array.from({ length: files > 5_000 ? 1 : CHECK_RUNS }, () => {
      const run = checkProcess(repo.root);
      if (forScale) {
        starts.push(nodeStartMs());
        parsers.push(parseProcessMs(repo.root));
      }
      return run;
    });
    const wall = median(runs.map((r) => r.ms));
    const rss = Math.max(...runs.map((r) => r.maxRssBytes));
    const label = `render-lens check, Flux ${files.toLocaleString('en')} files`;
    if (forScale) {
      rows.push({ what: `${label}: wall time`, value: ms(wall), note: `median of ${runs.length}; information, no budget (settled in issue 33: at parity with the process below)` });
      rows.push(nodeStartRow(median(starts)));
      const parser = median(parsers);
      rows.push({ what: '  for scale: a process that only reads and parses them', value: ms(parser), note: `\`node\` listing, reading and \`yaml\`-parsing every YAML file, wall time as the check's; median of ${CHECK_RUNS}, timed between the checks: the check ${(wall / parser).toFixed(2)}× this` });
      rows.push({ what: `${label}: wall time, no compile cache`, value: ms(checkProcess(repo.root, { RENDER_LENS_NO_COMPILE_CACHE: '1' }).ms), note: "a machine's first run: one run" });
    } else {
      rows.push({ what: `${label}: wall time`, value: ms(wall), note: `median of ${runs.length}` });
    }
    rows.push(files === 10_000 ? budgetRow(`${label}: peak RSS`, rss, RSS_LIMIT, mb) : { what: `${label}: peak RSS`, value: mb(rss) });
    lines.push(`${label}: exit ${runs[0].status}, ${runs[0].stdoutBytes} bytes of JSON report`);
  }
  const charts = generateChartRepo(path.join(benchDir, 'chart-repo'), CHART_REPO_CHARTS);
  checkProcess(charts.root);
  const chartRuns = Array.from({ length: options.quick ? 1 : 3 }, () => checkProcess(charts.root));
  const chartLabel = `render-lens check, chart repository (${charts.files.toLocaleString('en')} files, ${(charts.bytes / 1024 / 1024).toFixed(0)} MB, bitnami/charts' shape)`;
  rows.push(budgetRow(`${chartLabel}: wall time`, median(chartRuns.map((r) => r.ms)), CHART_REPO_WALL_LIMIT, ms, `median of ${chartRuns.length}`));
  rows.push(budgetRow(`${chartLabel}: peak RSS`, Math.max(...chartRuns.map((r) => r.maxRssBytes)), CHART_REPO_RSS_LIMIT, mb));
  lines.push(`${chartLabel}: exit ${chartRuns[0].status}, ${chartRuns[0].stdoutBytes} bytes of JSON report`);
  return [...lines, '', ...table(rows)];
}

/** `render-lens check --root ROOT --format json ROOT` in a fresh process (the root given: `.bench/` sits inside this project's git repository): wall time and the peak RSS it reported. */
function checkProcess(root: string, env: Record<string, string> = {}): { ms: number; maxRssBytes: number; status: number | null; stdoutBytes: number } {
  const probe = path.join(__dirname, 'rss-probe.js');
  const started = process.hrtime.bigint();
  const run = spawnSync(process.execPath, ['--require', probe, renderLensCli, 'check', '--root', root, '--format', 'json', root], {
    encoding: 'utf8',
    maxBuffer: 1024 * 1024 * 1024,
    env: { ...process.env, RENDER_LENS_CACHE_DIR: path.join(benchDir, 'compile-cache'), ...env },
  });
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  const reported = new RegExp(`${rssMarker} (\\d+)`).exec(run.stderr ?? '');
  return { ms: elapsed, maxRssBytes: reported ? Number(reported[1]) * 1024 : NaN, status: run.status, stdoutBytes: (run.stdout ?? '').length };
}

/** Wall time of `node -e ""` in a fresh process, with the environment the checks get: start-up alone. */
function nodeStartMs(): number {
  return timeMs(() => spawnSync(process.execPath, ['-e', '']));
}

/**
 * Wall time of a fresh `node` process that lists the repository, reads every YAML file and
 * parses it with `yaml` (with positions), and does nothing else: a whole process, measured as
 * `render-lens check` is, for scale beside the budget's floor (the parse alone).
 */
function parseProcessMs(root: string): number {
  const yaml = require.resolve('yaml', { paths: [projectRoot] });
  const script = `
    const YAML = require(${JSON.stringify(yaml)});
    const fs = require('fs');
    const walk = (dir) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = dir + '/' + entry.name;
        if (entry.isDirectory()) walk(full);
        else if (/\\.ya?ml$/.test(entry.name)) YAML.parseAllDocuments(fs.readFileSync(full, 'utf8'), { lineCounter: new YAML.LineCounter() });
      }
    };
    walk(${JSON.stringify(root)});`;
  return timeMs(() => {
    const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`the parse-only process failed: ${run.stderr}`);
  });
}

/**
 * For scale beside the check's budget: how much of each run is Node starting, which the
 * floor (the parse alone) does not include. NODE_EXTRA_CA_CERTS, set on some machines for a
 * proxy, makes every Node process load those certificates as it starts.
 */
function nodeStartRow(start: number): Row {
  const certificates = process.env.NODE_EXTRA_CA_CERTS ? '; NODE_EXTRA_CA_CERTS is set here, and Node loads those certificates at every start' : '';
  return { what: '  of which Node starting (`node -e ""`)', value: ms(start), note: `median of ${CHECK_RUNS}, timed between the checks${certificates}` };
}

