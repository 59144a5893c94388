/**
 * The server and the CLI run with TurboFan's inlining off. Their work comes in bursts (open a
 * manifest, check a repository) that end before V8 has optimized the code doing it; with
 * inlining, optimizing one big function compiles its whole call tree, and on two cores the
 * compiler thread, not the analysis, decided how soon a big manifest's diagnostics arrived.
 * The figures are in docs/performance.md ("Runtime settings").
 *
 * V8 reads the flag each time it optimizes a function, so setting it at start-up works; both
 * entry points import this before any module that runs code.
 */
import * as v8 from 'v8';

v8.setFlagsFromString('--no-turbo-inlining');
