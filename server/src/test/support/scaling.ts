/**
 * Linear-cost checks that count operations instead of timing them, so a loaded machine cannot
 * fail them: the same work on an input 16 times larger must not execute more than 32 times as
 * many blocks of Render Lens code (linear: at most 16; n log n at these sizes: about 23;
 * quadratic: about 256).
 *
 * The counts come from V8's block coverage (the inspector's precise coverage, as `c8` reads it):
 * how often each block (loop body, branch) of server/out/core ran, the same on every run.
 * V8 counts blocks only in code compiled while coverage is on, so each check loads fresh copies of
 * the core modules it needs (`load`) and puts the ones other tests use back afterwards. Work done
 * inside built-ins (a regex, `indexOf`) counts as one step; `npm run bench` times the real thing.
 */
import * as assert from 'assert/strict';
import { Session } from 'inspector';
import * as path from 'path';
import { fileURLToPath } from 'url';
import { projectRoot } from './paths';

const coreOut = path.join(projectRoot, 'server', 'out', 'core') + path.sep;

/**
 * `load()` requires the core modules the work uses (it runs once core is fresh); `prepare(n, modules)`
 * builds an input of size n and returns the work on it. Compares n = `size` with 16 × `size`.
 */
export function assertScales<M>(name: string, size: number, load: () => M, prepare: (size: number, modules: M) => () => void): void {
  const [small, large] = withBlockCounts((count) => {
    const modules = load();
    const works = [prepare(size, modules), prepare(size * 16, modules)];
    return works.map(count);
  });
  // Text the scanner passes over with indexOf runs no block at all: then the large input may run a few.
  const ratio = large / Math.max(small, 1);
  assert.ok(ratio < 32, `${name}: 16× the input runs ${ratio.toFixed(1)}× the operations (${small} → ${large})`);
}

/** Runs `body` with block coverage on and core reloaded; `count(work)` is how many core blocks `work()` ran. */
export function withBlockCounts<T>(body: (count: (work: () => void) => number) => T): T {
  const session = new Session();
  session.connect();
  const post = <R>(method: string, params?: object): R => {
    let answer: { error: Error | null; result?: R } | undefined;
    session.post(method, params, (error, result) => (answer = { error, result: result as R }));
    // The in-process session answers before post returns.
    if (!answer) throw new Error(`${method}: no synchronous answer from the inspector`);
    if (answer.error) throw answer.error;
    return answer.result as R;
  };
  const kept = new Map<string, NodeJS.Module>();
  try {
    post('Profiler.enable');
    post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
    for (const file of Object.keys(require.cache)) {
      if (file.startsWith(coreOut)) {
        kept.set(file, require.cache[file]!);
        delete require.cache[file];
      }
    }
    return body((work) => {
      post('Profiler.takePreciseCoverage'); // resets the counters
      work();
      return coreBlocks(post<Coverage>('Profiler.takePreciseCoverage'));
    });
  } finally {
    for (const file of Object.keys(require.cache)) if (file.startsWith(coreOut)) delete require.cache[file];
    for (const [file, module] of kept) require.cache[file] = module;
    post('Profiler.stopPreciseCoverage');
    session.disconnect();
  }
}

interface Coverage {
  result: Array<{ url: string; functions: Array<{ ranges: Array<{ count: number }> }> }>;
}

function coreBlocks(coverage: Coverage): number {
  let total = 0;
  for (const script of coverage.result) {
    if (!script.url.startsWith('file:') || !fileURLToPath(script.url).startsWith(coreOut)) continue;
    // ranges[0] is the function itself: its call count stops once V8 inlines it into optimized
    // code, which happens on a background thread at no fixed moment. Its blocks keep counting.
    for (const fn of script.functions) for (let i = 1; i < fn.ranges.length; i++) total += fn.ranges[i].count;
  }
  return total;
}
