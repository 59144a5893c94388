/**
 * The server keeps V8's young generation at the size it started with (node-options.ts sets
 * it) instead of letting it grow to two 16 MB semi-spaces for the life of the process after
 * the first big manifest. This holds the server's peak memory on big manifests under its
 * budget; docs/performance.md ("Runtime settings") has the trade in figures.
 */
import * as v8 from 'v8';

v8.setFlagsFromString('--semi-space-growth-factor=1');

/** What the server runs with, for the debug log: the size of one semi-space. */
export function youngGenerationSize(): string {
  const newSpace = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
  return newSpace ? `${Math.round((newSpace.space_used_size + newSpace.space_available_size) / 1048576)} MB semi-spaces` : 'unknown';
}
