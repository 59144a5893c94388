/**
 * The node options the language server is started with: by the VS Code client, by the
 * `render-lens-server` launcher (launcher.ts) and by `npm run bench`, which times the
 * server with them (under the system's node: VS Code runs it with its Electron's, whose V8
 * differs by version and build, so the gains below were not measured there). This module
 * only holds data: the client imports it, and must not set anything in its own process.
 *
 * Both fix V8's young generation at two 4 MB semi-spaces. Opening a big manifest allocates
 * tens of megabytes, most of which lives on (the document's model, its findings, its
 * diagnostics), and every young-generation collection copies what is alive. With the 1 MB
 * semi-spaces a server starts with (young-generation.ts keeps them from growing when these
 * options are missing), opening the bench's 10,000-line manifest after its 2,000-line warm-up
 * collected 22 times (about 37 ms) and once more in full; with 4 MB, 6 times (17–25 ms).
 * Measured side by side through LSP (production bundle, eight runs each, on this project's
 * 2-core machine with Node 20): open → diagnostics median 143 → 128 ms (another eight
 * runs: 175 → 138 ms; 3 and 5 MB gave less, 8 MB no more); the 50,000-line manifest opened
 * in about 470 instead of 510 ms, its median edit 38 instead of 41 ms, for a peak RSS of
 * 130 instead of 124 MB (four runs each). `render-lens check` (the CLI, which lets its young
 * generation grow) gained nothing from them.
 *
 * `--initial-old-space-size=32`: no full collection before the old generation holds 32 MB.
 * V8 otherwise sets its first limit from the small heap of a server that has just started, so
 * the first big open (the 10,000-line manifest after the warm-up) ran into incremental
 * marking, which slows every collection and write meanwhile, and often a full collection
 * (4–7 ms) of a heap that is nearly all alive. Side by side through LSP (twelve runs each):
 * time in collections during that open 29.9 → 25.5 ms (median), open → diagnostics 92 →
 * 85 ms. Once the limit is passed, V8 sets the next ones from what is alive, as before. The
 * 50,000-line manifest's peak RSS stayed 127 MB.
 *
 * V8 sizes the young generation and the first old-generation limit when the process starts:
 * the options must be on node's command line (NODE_OPTIONS does not take the first), unlike
 * the flags the server sets for itself (young-generation.ts, compiler-flags.ts).
 */
export const serverNodeOptions: readonly string[] = ['--min-semi-space-size=4', '--max-semi-space-size=4', '--initial-old-space-size=32'];
