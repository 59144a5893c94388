/**
 * Linear-time checks without timed budgets: the same work on an input 16 times larger must not
 * cost more than 96 times as much (a quadratic path costs about 256 times).
 */
import * as assert from 'assert/strict';

/** `prepare(n)` builds an input of size n and returns the work on it; compares n = `size` with 16 × `size`. */
export function assertScales(name: string, size: number, prepare: (size: number) => () => void): void {
  const small = prepare(size);
  const large = prepare(size * 16);
  // Warm up first, so the small run is not paying for compilation.
  small();
  const ratio = cost(large) / cost(small);
  assert.ok(ratio < 96, `${name}: 16× the input costs ${ratio.toFixed(1)}× the time`);
}

/**
 * The time of one run, in nanoseconds: repeated until a batch takes 4 ms (a fast run is
 * timed over many), the least of three batches (a collection pause spoils one at most).
 */
function cost(work: () => void): number {
  let repeats = 1;
  for (;;) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < repeats; i++) work();
    if (Number(process.hrtime.bigint() - start) >= 4e6 || repeats >= 1 << 16) break;
    repeats *= 2;
  }
  let best = Infinity;
  for (let batch = 0; batch < 3; batch++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < repeats; i++) work();
    best = Math.min(best, Number(process.hrtime.bigint() - start) / repeats);
  }
  return best;
}
