/**
 * The node options the language server is started with, by the VS Code client, by the
 * `render-lens-server` launcher and by `npm run bench`. They fix V8's young generation at two
 * 6 MB semi-spaces: opening a big manifest allocates megabytes that mostly live on, and a
 * smaller young generation copies them over and over. V8 sizes it only at process start, so
 * these must be on node's command line. Data only: the client imports it (through
 * protocol.ts) and must not set anything in its own process. Figures: docs/performance.md.
 */
export const serverNodeOptions: readonly string[] = ['--min-semi-space-size=6', '--max-semi-space-size=6'];
