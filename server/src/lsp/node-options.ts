/**
 * The node options the language server is started with: by the VS Code client, by the
 * `render-lens-server` launcher (launcher.ts) and by `npm run bench`, which times the
 * server with them (under the system's node: VS Code runs it with its Electron's, whose V8
 * differs by version and build, so the gains below were not measured there). This module
 * only holds data: the client imports it, and must not set anything in its own process.
 *
 * The first two fix V8's young generation at two 6 MB semi-spaces. Opening a big manifest
 * allocates megabytes, much of which lives on (the document's model, its scans, its findings
 * and diagnostics), and every young-generation collection copies what is alive. With the 1 MB
 * semi-spaces a server starts with (young-generation.ts keeps them from growing when these
 * options are missing), opening the bench's 10,000-line manifest after its 2,000-line warm-up
 * collected 22 times (about 37 ms) and once more in full; with 4 MB, 6 times (17–25 ms):
 * open → diagnostics median 143 → 128 ms through LSP (eight runs each, production bundle,
 * this project's 2-core machine, Node 20), the 50,000-line manifest about 510 → 470 ms.
 * Once that open allocated about 12 MB (the engine alone, V8's sampling heap profiler),
 * 6 MB semi-spaces collect twice instead of four times: side by side through LSP, ten runs
 * each, twice, time in collections during the open 23–25 → 18–19 ms and open → diagnostics
 * median 87–90 → 78–81 ms; 5 MB sat between, 8 MB was slower than 4 (each collection copies
 * more, from memory the caches hold less of), 2 MB collected nine times (29 ms). The
 * 50,000-line manifest's peak RSS stayed 124–127 MB and its median edit 38–39 ms.
 * `render-lens check` (the CLI, which lets its young generation grow) gained nothing from
 * fixed sizes.
 *
 * `--initial-old-space-size=32`: no full collection before the old generation holds 32 MB.
 * V8 otherwise sets its first limit from the small heap of a server that has just started, so
 * the first big open (the 10,000-line manifest after the warm-up) ran into incremental
 * marking, which slows every collection and write meanwhile, and often a full collection
 * (4–7 ms) of a heap that is nearly all alive. Side by side through LSP (twelve runs each,
 * with 4 MB semi-spaces then): time in collections during that open 29.9 → 25.5 ms
 * (median), open → diagnostics 92 → 85 ms. Once the limit is passed, V8 sets the next ones
 * from what is alive, as before. The 50,000-line manifest's peak RSS stayed 127 MB.
 *
 * V8 sizes the young generation and the first old-generation limit when the process starts:
 * the options must be on node's command line (NODE_OPTIONS does not take the first), unlike
 * the flags the server sets for itself (young-generation.ts, compiler-flags.ts).
 */
export const serverNodeOptions: readonly string[] = ['--min-semi-space-size=6', '--max-semi-space-size=6', '--initial-old-space-size=32'];
