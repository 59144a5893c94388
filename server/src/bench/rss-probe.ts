/**
 * Loaded with `node --require` into a process the bench runs (never into shipped code): on
 * exit it prints the process's peak resident set, which only the process itself can know once
 * it is gone. Nothing may import it: it would report on the importing process too.
 */
import { rssMarker } from './report';

process.on('exit', () => {
  process.stderr.write(`\n${rssMarker} ${process.resourceUsage().maxRSS}\n`);
});
