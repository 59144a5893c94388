/**
 * Loaded with `node --require` into a process the bench runs (never into shipped code): on
 * exit it prints the process's peak resident set, which only the process itself can know once
 * it is gone.
 */
export const rssMarker = 'render-lens-bench-max-rss-kb';

process.on('exit', () => {
  process.stderr.write(`\n${rssMarker} ${process.resourceUsage().maxRSS}\n`);
});
