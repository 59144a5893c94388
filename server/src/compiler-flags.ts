/**
 * How the server and the CLI have V8 optimize their code. Their work comes in bursts (open a
 * manifest, check a repository) that end before V8 has optimized the code that does it, so
 * what counts is how soon optimized code arrives, not how fast it finally runs. On two cores
 * the optimizing compiler (TurboFan) has about one core of its own, and it is the bottleneck:
 * in the bench's first 10k-line open after its 2,000-line warm-up it had 380 ms of work
 * queued for 200 ms of analysis.
 *
 * `--no-turbo-inlining`: with inlining, optimizing a rule's check took the compiler thread
 * 80–180 ms per function (it inlines the whole call tree into it), and each deoptimization
 * started that again: about 5.4 s of compiling over four opens of the 10k-line manifest of
 * `npm run bench`, against 2.0 s without. Side by side:
 * - open the 10k-line manifest → diagnostics, after the 2,000-line warm-up: median 227
 *   against 290 ms (eight runs each);
 * - a one-character edit: median 16–18 against 17–21 ms at 10k lines, about 44 against
 *   53 ms at 50k lines (five runs each);
 * - `render-lens check` of the 2,000-file repository: median 986 against 1,156 ms (eight runs).
 *
 * `--turbo-filter=-check`: no function named `check` is optimized, which is every rule's
 * check (rule.ts; a tidy test keeps them so named). A check is a generator that walks the
 * scalars and hands each to helpers; it spends little time of its own, but each cost TurboFan
 * about 27 ms to compile, 272 of those 380 ms. Left in baseline code, they give the compiler's
 * time to the helpers that do the work. Side by side, with inlining off in both:
 * - the same open: median 213 against 170 ms without the rule checks (eight runs each);
 *   the engine alone, 198 against 168 ms (six runs);
 * - the compiler's work during that open: 185 ms instead of 380;
 * - edits at 10k and 50k lines and `render-lens check` of 2,000 files: the same within the
 *   machine's noise (six to eight runs each);
 * - the price, once the rest is optimized: the fourth to sixth 10k-line opens in one server
 *   (each after three to five others that size) took a median of 127 ms against 108 (four
 *   servers each). The first big open after start is the one users wait for, and most
 *   servers never open three of that size; a rule check that did its work inline would pay
 *   this price too, so keep them handing it to helpers (which this leaves alone).
 * The rule checks cost as much to compile returning arrays as they do as generators (7–45 ms
 * each, tried): it is their size, not the generator.
 *
 * All measured on this project's 2-core machine with Node 20 (V8 11.3), the servers and CLIs
 * otherwise the same; not under VS Code's Electron or a newer Node, whose V8 tiers up
 * differently. Code that stays hot long enough gains nothing from inlining: the fifth
 * consecutive check of the 10k-line manifest in one process (the engine alone, no LSP) took
 * the same 40–70 ms with it or without.
 *
 * The flags are read each time a function is optimized, so setting them once the process
 * runs takes effect; they must be set before the first function is optimized to count fully,
 * so both entry points import this before any module that runs code.
 */
import * as v8 from 'v8';

v8.setFlagsFromString('--no-turbo-inlining');
v8.setFlagsFromString('--turbo-filter=-check');
