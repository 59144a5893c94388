/**
 * The server keeps V8's young generation at its starting size. By default it grows to two
 * 16 MB semi-spaces as soon as a big manifest is checked, and stays there for the life of
 * the process.
 *
 * The trade, measured on the manifests of `npm run bench` (production bundles, runs side by
 * side): peak RSS over an open and nine edits of the 50k-line manifest 166–170 → 134–145 MB,
 * and 114–122 → 85–95 MB on the 10k-line one, at the same total CPU time; but keystrokes
 * wait on more frequent collections of a small young generation: the median edit went from
 * about 23 to 27 ms on the 10k-line manifest and from about 77 to 102 ms on the 50k-line one
 * (four runs each). Opening the 10k-line manifest collects the young generation 33 times
 * instead of 4: 80–110 ms of collection instead of 30–45, and a median open of 277 against
 * 253 ms (six runs each, after the edit path allocated less); measured again once the
 * server ran without TurboFan inlining and the open allocated a quarter less, 198 against
 * 170 ms (six runs each). The memory budget (half of
 * yaml-language-server's peak) is met only this way: without it the 50k-line peak is still
 * 165 MB.
 *
 * The flag is read whenever the young generation would grow, so setting it once the
 * process runs takes effect. Its starting size can only be set on node's command line; the
 * VS Code client and `render-lens-server` start the server with 6 MB semi-spaces
 * (node-options.ts), which this then keeps; a server started otherwise (`node server.js`,
 * or `render-lens-server --node-ipc`, which runs it in the launcher's process) keeps V8's 1 MB.
 */
import * as v8 from 'v8';

v8.setFlagsFromString('--semi-space-growth-factor=1');

/**
 * What the server runs with, for the debug log: the size of one semi-space, which is what
 * objects are allocated into (V8 reports it as used plus available; its `space_size` is what
 * is committed, and counts the second semi-space once a collection has used it).
 */
export function youngGenerationSize(): string {
  const newSpace = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
  return newSpace ? `${Math.round((newSpace.space_used_size + newSpace.space_available_size) / 1048576)} MB semi-spaces` : 'unknown';
}
