/**
 * Indexing a Flux repository from disk (list, read, parse what the graph needs, build the
 * Flux graph) against merely listing and reading its files, and what one keystroke in an
 * open file costs the graph.
 *
 * Budgets (2,000-file repository): indexed within 3× the time it takes to read its files;
 * a keystroke in an open file updates the graph in under 20 ms; the index and graph keep at
 * most 20 MB of heap per 1,000 files (a compact model, not syntax trees of closed files).
 */
import * as fs from 'fs';
import * as path from 'path';
import { Engine } from '../core/engine';
import { NodeHost } from '../node-host';
import { CLUSTERS, generateFluxRepo, listRepo, type GeneratedRepo } from '../test/support/generate';
import { collector } from '../dev/collector';
import { benchDir } from '../dev/project-paths';
import { bestOfEach, budgetRow, mb, median, ms, table, timeMs, type BenchOptions, type Row } from './report';

const SIZES = [200, 2_000, 10_000];
const KEYSTROKES = 9;

export async function benchGraph(options: BenchOptions): Promise<string[]> {
  const lines: string[] = [];
  const rows: Row[] = [];
  for (const size of options.quick ? SIZES.slice(0, 2) : SIZES) {
    const repo = generateFluxRepo(path.join(benchDir, `flux-${size}`), { files: size });
    const runs = size > 5_000 ? 2 : 6;
    let engine: Engine | undefined;
    // In turn, so the floor and the index are timed in the same spells of the machine.
    const [read, index] = bestOfEach(runs, [
      () => readAll(repo),
      () => {
        engine = new Engine(new NodeHost(repo.root));
        engine.fluxGraph();
      },
    ]);
    const graph = engine!.fluxGraph();
    const instances = graph.clusters.reduce((n, c) => n + c.instances.length, 0);
    lines.push(
      `${size}: ${repo.files} files, ${(repo.bytes / 1024).toFixed(0)} KB; ${graph.clusters.length} clusters, ${graph.kustomizations.length} Flux Kustomizations, ${instances} instances; ` +
        `read ${ms(read)}, index ${ms(index)} (${(index / read).toFixed(1)}× read)`,
    );
    const label = `${size} files`;
    if (size === 2_000) {
      rows.push({ ...budgetRow(`${label}: index from disk`, index, 3 * read, ms, `read alone ${ms(read)}; ${(index / read).toFixed(2)}×`), budget: `≤ 3× read = ${ms(3 * read)}` });
    } else {
      rows.push({ what: `${label}: index from disk`, value: ms(index), note: `read alone ${ms(read)}; ${(index / read).toFixed(2)}×` });
    }
    const keystrokeRows: Row[] = [];
    if (size <= 2_000) {
      for (const [what, file, anchor] of keystrokeCases()) {
        const time = keystroke(engine!, file, anchor);
        const row = `${label}: keystroke in ${what}`;
        keystrokeRows.push(size === 2_000 ? budgetRow(row, time, 20, ms, file) : { what: row, value: ms(time), note: file });
      }
      keystrokeRows.push({ what: `${label}: a new file appears next to an app's base files`, value: ms(fileAppears(engine!)), note: 'the graph rebuilt, reusing the render trees that did not look there' });
    }
    // Measured last: its full collections would change how the young generation is sized for the timings.
    const kept = retainedBytes(repo.root);
    if (kept !== undefined) {
      const perThousand = (kept / repo.files) * 1000;
      const row = `${label}: heap kept by the index and graph`;
      rows.push(size === 2_000 ? budgetRow(row, kept, (20 * 1024 * 1024 * repo.files) / 1000, mb, `${mb(perThousand)} per 1,000 files`) : { what: row, value: mb(kept), note: `${mb(perThousand)} per 1,000 files` });
    }
    rows.push(...keystrokeRows);
  }
  return [...lines, '', ...table(rows)];
}

/** The heap an engine keeps once its graph is built (after full collections), or undefined without a collector. */
function retainedBytes(root: string): number | undefined {
  const gc = collector();
  if (!gc) return undefined;
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  const engines = [new Engine(new NodeHost(root))];
  engines[0].fluxGraph();
  gc();
  gc();
  const after = process.memoryUsage().heapUsed;
  // The engine is alive until here, so the collections above could not take it.
  engines.length = 0;
  return after - before;
}

/** List the files and read every one, as plainly as node can: the floor for indexing. */
function readAll(repo: GeneratedRepo): number {
  let bytes = 0;
  for (const file of listRepo(repo.root)) bytes += fs.readFileSync(path.join(repo.root, ...file.split('/')), 'utf8').length;
  return bytes;
}

/** [what, file, text after which the keystroke lands] */
function keystrokeCases(): Array<[string, string, string]> {
  const cluster = CLUSTERS[0];
  return [
    ['a Deployment (not a graph input)', 'apps/base/app-001/deployment.yaml', 'periodSeconds: 1'],
    ['an app ConfigMap (no substituteFrom names it)', 'apps/base/app-001/configmap.yaml', 'exec /app'],
    ['the variable ConfigMap (a substituteFrom source)', 'vars/base/cluster-vars.yaml', 'log_level: info'],
    ['its overlay patch', `vars/${cluster}/cluster-vars-patch.yaml`, `cluster_name: ${cluster}`],
    ['a per-app Flux Kustomization', `clusters/${cluster}/apps/app-001.yaml`, 'interval: 10m'],
  ];
}

/**
 * Median time for a new file (created in an editor, or on disk) to reach the graph: one that
 * no kustomization lists yet, beside the files of an app's base. It is a new layout, so the
 * graph is rebuilt; the render trees that never looked in that directory are kept.
 */
function fileAppears(engine: Engine): number {
  const times: number[] = [];
  for (let i = 0; i < KEYSTROKES; i++) {
    const file = `apps/base/app-00${i % 10}/new-${i}.yaml`;
    times.push(
      timeMs(() => {
        engine.update(file, 'apiVersion: v1\nkind: Service\nmetadata:\n  name: new\n');
        engine.fluxGraph();
      }),
    );
    engine.update(file, undefined);
    engine.fluxGraph();
  }
  return median(times);
}

/**
 * Median time for an editor keystroke to reach the graph: the engine learns the file's new text
 * and the Flux graph is current again (rebuilt only if the edit can change it). The file was
 * analyzed before, as an open file is.
 */
function keystroke(engine: Engine, file: string, anchor: string): number {
  const original = engine.index.text(file);
  if (original === undefined) throw new Error(`${file} is missing`);
  const at = original.indexOf(anchor);
  if (at === -1) throw new Error(`${anchor} not in ${file}`);
  engine.analyzeFile(file, { keep: true });
  const times: number[] = [];
  let text = original;
  for (let i = 0; i < KEYSTROKES; i++) {
    // Typing a digit after the anchor; the next keystroke types another one after it.
    text = text.slice(0, at + anchor.length + i) + String(i % 10) + text.slice(at + anchor.length + i);
    const next = text;
    times.push(
      timeMs(() => {
        engine.update(file, next);
        engine.fluxGraph();
      }),
    );
  }
  engine.update(file, original);
  engine.fluxGraph();
  return median(times);
}
