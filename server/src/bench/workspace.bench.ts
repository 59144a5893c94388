/**
 * Issue 33's budgets, measured where users meet them: a server that checks the whole
 * workspace in the background while the user opens, hovers and types.
 *
 * - The manifests folder: a 200-file Flux repository whose apps hold a 50,000-line and a
 *   10,000-line manifest on disk. The server starts and begins its background check; the user
 *   opens the 10,000-line file. Budgets: its diagnostics within 0.5× yaml-language-server's
 *   open of the same file (which checks no workspace), hover p90 under 5 ms while the
 *   workspace is being checked, and peak RSS within 0.75× yaml-language-server's.
 * - A burst of keystrokes in the 10,000-line file, sent without waiting: diagnostics of the
 *   last version within 300 ms of the last keystroke, whatever the burst's length.
 * - Home-ops-shaped repositories (home-ops-repo.ts) of 1,300 and 5,000 files: Problems settled
 *   (the background check's progress ends) within 2× `render-lens check` of the same files,
 *   and, at 5,000 files, peak RSS within 300 MB.
 *
 * Each server run is a fresh process; opens are medians over the runs, hovers pooled.
 */
import * as fs from 'fs';
import * as path from 'path';
import { pathToFileURL } from 'url';
import { benchDir, renderLensCli, renderLensServer, yamlLanguageServer } from '../dev/project-paths';
import { ensureComparisonServer } from './comparison-server';
import { FIRST_APP_BASE, SECOND_APP_BASE, SEED, generateFluxRepo, generateManifest } from '../test/support/generate';
import { checkProcess } from './check-process';
import { generateHomeOpsRepo } from './home-ops-repo';
import { BenchLspClient, type ServerSpec } from './lsp-client';
import { budgetRow, mb, median, ms, table, type BenchOptions, type Row } from './report';
import { renderLensSpec, yamlLanguageServerSpec } from './server-specs';

const RUNS = 3;
const BIG = `${FIRST_APP_BASE}/big.yaml`;
const OPENED = `${SECOND_APP_BASE}/scripts.yaml`;
const HOVER_P90_LIMIT = 5;
const BURSTS = [100, 1_000];
const SETTLE_LIMIT = 300;
const RSS_LIMIT = 300 * 1024 * 1024;

export async function benchWorkspace(options: BenchOptions): Promise<string[]> {
  if (!fs.existsSync(renderLensServer) || !fs.existsSync(renderLensCli)) return [`${renderLensServer} or ${renderLensCli} is missing (run \`node esbuild.mjs\`); skipped`];
  const lines: string[] = [];
  const installNote = ensureComparisonServer();
  if (installNote) lines.push(installNote);
  const yls = fs.existsSync(yamlLanguageServer) ? yamlLanguageServerSpec : undefined;
  const rows: Row[] = [];
  const folder = manifestsFolder();
  lines.push(`manifests folder: ${folder.files} files, ${BIG} 50,000 lines and ${OPENED} 10,000 lines on disk`);
  rows.push(...(await openWhileChecking(folder.root, yls)));
  rows.push(...(await bursts(folder.root)));
  for (const files of options.quick ? [1_300] : [1_300, 5_000]) {
    const repo = generateHomeOpsRepo(path.join(benchDir, `home-ops-${files}`), files);
    lines.push(`home-ops-shaped, ${files.toLocaleString('en')}: ${repo.files} files, ${mb(repo.bytes)}`);
    rows.push(...(await settles(repo.root, files)));
  }
  return [...lines, '', ...table(rows)];
}

/** The manifests folder: both manifests listed by their app's base, so each is substituted in three clusters. */
function manifestsFolder() {
  const base = (extra: string) =>
    `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - deployment.yaml\n  - service.yaml\n  - configmap.yaml\n  - hpa.yaml\n  - ingress.yaml\n  - ${extra}\n`;
  return generateFluxRepo(path.join(benchDir, 'manifests-folder'), {
    files: 200,
    extraKey: 'big-50k+scripts-10k',
    extra: () => ({
      [`${FIRST_APP_BASE}/kustomization.yaml`]: base('big.yaml'),
      [BIG]: generateManifest(SEED ^ 50_000, 50_000),
      [`${SECOND_APP_BASE}/kustomization.yaml`]: base('scripts.yaml'),
      [OPENED]: generateManifest(SEED ^ 10_000, 10_000),
    }),
  });
}

interface OpenRun {
  open: number;
  hovers: number[];
  peakRss: number | undefined;
  /** Whether the open's diagnostics arrived while the workspace was still being checked. */
  beforeCheckEnded: boolean;
}

/** Opens the 10k-line file as the background check starts, then hovers until it ends (yaml-language-server: the same hovers, no check). */
async function openRun(spec: ServerSpec, root: string, withCheck: boolean): Promise<OpenRun> {
  const uri = pathToFileURL(path.join(root, ...OPENED.split('/'))).toString();
  const text = fs.readFileSync(path.join(root, ...OPENED.split('/')), 'utf8');
  const client = await BenchLspClient.start(spec, root, !withCheck);
  try {
    // As an editor that restores its tabs: the file opens just as the background check starts.
    if (withCheck) await client.firstProgressCreated();
    const sent = performance.now();
    await client.open(uri, text, 1);
    const open = performance.now() - sent;
    const beforeCheckEnded = withCheck && !client.progressOver;
    const hovers: number[] = [];
    const positions = hoverPositions(text);
    for (let i = 0; withCheck ? !client.progressOver : i < 40; i++) {
      const started = performance.now();
      await client.hover(uri, positions[i % positions.length]);
      hovers.push(performance.now() - started);
    }
    if (withCheck) await client.firstProgressEnd();
    return { open, hovers, peakRss: client.peakRss(), beforeCheckEnded };
  } finally {
    await client.stop();
  }
}

async function openWhileChecking(root: string, yls: ServerSpec | undefined): Promise<Row[]> {
  const ours: OpenRun[] = [];
  const theirs: OpenRun[] = [];
  for (let run = 0; run < RUNS; run++) {
    ours.push(await openRun(renderLensSpec, root, true));
    if (yls) theirs.push(await openRun(yls, root, false));
  }
  const open = median(ours.map((r) => r.open));
  const ylsOpen = theirs.length > 0 ? median(theirs.map((r) => r.open)) : NaN;
  const hovers = ours.flatMap((r) => r.hovers);
  const rss = Math.max(...ours.map((r) => r.peakRss ?? NaN));
  const ylsRss = theirs.length > 0 ? Math.max(...theirs.map((r) => r.peakRss ?? NaN)) : NaN;
  const during = `${ours.filter((r) => r.beforeCheckEnded).length} of ${ours.length} runs answered before the workspace check ended`;
  const rows: Row[] = [];
  const what = 'manifests folder: open the 10k-line file → diagnostics, workspace being checked';
  rows.push(yls ? budgetRow(what, open, 0.5 * ylsOpen, ms, `yaml-language-server ${ms(ylsOpen)} (median of ${RUNS}): ${(open / ylsOpen).toFixed(2)}×; ${during}`) : { what, value: ms(open), note: during });
  rows.push(hovers.length > 0 ? budgetRow('manifests folder: hover p90 while the workspace is checked', percentile(hovers, 0.9), HOVER_P90_LIMIT, ms, `${hovers.length} hovers, max ${ms(Math.max(...hovers))}`) : { what: 'manifests folder: hover p90 while the workspace is checked', value: '—', note: 'the check ended before the first hover' });
  rows.push(yls ? budgetRow('manifests folder: server peak RSS', rss, 0.75 * ylsRss, mb, `yaml-language-server ${mb(ylsRss)}: ${(rss / ylsRss).toFixed(2)}×`) : { what: 'manifests folder: server peak RSS', value: mb(rss) });
  return rows;
}

/** Bursts of one-character edits to the 10k-line file, each sent without waiting: the last keystroke → the last version's diagnostics. */
async function bursts(root: string): Promise<Row[]> {
  const rows: Row[] = [];
  const uri = pathToFileURL(path.join(root, ...OPENED.split('/'))).toString();
  const text = fs.readFileSync(path.join(root, ...OPENED.split('/')), 'utf8');
  const client = await BenchLspClient.start({ ...renderLensSpec, settings: { renderLens: { checkWorkspaceOnStartup: false } } }, root);
  try {
    await client.open(uri, text, 1);
    let version = 1;
    // Typing at the end of a script line: one line grows by a character per keystroke.
    const line = text.slice(0, text.indexOf('\n    set -eu\n') + '\n    set -eu\n'.length).split('\n').length - 1;
    let column = text.split('\n')[line].length;
    for (const count of BURSTS) {
      const last = version + count;
      const settled = client.diagnostics(uri, last);
      let lastSent = 0;
      for (let i = 0; i < count; i++) {
        const at = { line, character: column++ };
        await client.sendChange(uri, ++version, { start: at, end: at }, 'x');
        lastSent = performance.now();
      }
      const published = await settled;
      rows.push(budgetRow(`10k-line file: burst of ${count.toLocaleString('en')} keystrokes, last one → its diagnostics`, performance.now() - lastSent, SETTLE_LIMIT, ms, `${published.diagnostics.length} diagnostics for version ${published.version}`));
    }
  } finally {
    await client.stop();
  }
  return rows;
}

/** Start → the background check's progress ends, against `render-lens check` of the same files (median of RUNS each). */
async function settles(root: string, files: number): Promise<Row[]> {
  checkProcess(root);
  const checks = Array.from({ length: RUNS }, () => checkProcess(root));
  const check = median(checks.map((c) => c.ms));
  const settled: number[] = [];
  let rss = 0;
  let published = 0;
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    const client = await BenchLspClient.start(renderLensSpec, root, false);
    try {
      settled.push((await client.firstProgressEnd()) - started);
      rss = Math.max(rss, client.peakRss() ?? NaN);
      published = client.publishedUris();
    } finally {
      await client.stop();
    }
  }
  const label = `home-ops-shaped ${files.toLocaleString('en')} files`;
  const value = median(settled);
  const rows = [budgetRow(`${label}: start → Problems settled (progress ends)`, value, 2 * check, ms, `render-lens check ${ms(check)} (median of ${RUNS}, its peak RSS ${mb(Math.max(...checks.map((c) => c.maxRssBytes)))}): ${(value / check).toFixed(2)}×; ${published} files with diagnostics`)];
  rows.push(files >= 5_000 ? budgetRow(`${label}: server peak RSS after the check`, rss, RSS_LIMIT, mb) : { what: `${label}: server peak RSS after the check`, value: mb(rss) });
  return rows;
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

/** Inside a `${region}` of each of a few documents across the text. */
function hoverPositions(text: string): Array<{ line: number; character: number }> {
  const lines = text.split('\n');
  const out: Array<{ line: number; character: number }> = [];
  const step = Math.max(1, Math.floor(lines.length / 20));
  for (let i = 0; i < lines.length && out.length < 20; i += step) {
    for (let j = i; j < Math.min(lines.length, i + step); j++) {
      const at = lines[j].indexOf('  region: ${region}');
      if (at !== -1) {
        out.push({ line: j, character: at + '  region: ${'.length + 1 });
        break;
      }
    }
  }
  return out;
}
