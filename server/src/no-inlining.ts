/**
 * The server and the CLI turn off TurboFan's inlining. Their work comes in bursts (open a
 * manifest, check a repository) that end before V8 has optimized the code that does it, so
 * what counts is how soon optimized code arrives, not how fast it finally runs.
 *
 * With inlining, optimizing a rule's check took V8's compiler thread 80–180 ms per function
 * (it inlines the whole call tree into it), and each deoptimization started that again:
 * about 5.4 s of compiling over four opens of the 10k-line manifest of `npm run bench`,
 * against 2.0 s without. Measured side by side on this project's 2-core machine with Node 20
 * (V8 11.3), the servers and CLIs otherwise the same; not measured under VS Code's Electron
 * or a newer Node, whose V8 tiers up differently:
 * - open the 10k-line manifest → diagnostics, after the 2,000-line warm-up: median 227
 *   against 290 ms (eight runs each);
 * - a one-character edit: median 16–18 against 17–21 ms at 10k lines, about 44 against
 *   53 ms at 50k lines (five runs each);
 * - `render-lens check` of the 2,000-file repository: median 986 against 1,156 ms (eight runs).
 * Code that stays hot long enough gains nothing from either: the fifth consecutive check of
 * the 10k-line manifest in one process (the engine alone, no LSP) took the same 40–70 ms
 * both ways.
 *
 * The flag is read each time a function is optimized, so setting it once the process runs
 * takes effect; it must be set before the first function is optimized to count fully, so
 * both entry points import this before any module that runs code.
 */
import * as v8 from 'v8';

v8.setFlagsFromString('--no-turbo-inlining');
