/**
 * `npm run bench`: speed figures printed, never asserted (timed unit tests are flaky on
 * shared machines). Each benchmark generates its inputs deterministically from a seed.
 * Sections with budgets print PASS or OVER per budget; a miss is reported, not thrown.
 *
 *   --quick            skip the largest sizes (50k-line manifests, the 10,000-file repository)
 *   --only a,b         run only these sections
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { benchDir } from '../dev/project-paths';
import { benchEnvsubst } from './envsubst.bench';
import { benchGraph } from './graph.bench';
import { benchIncremental } from './incremental.bench';
import { benchLsp } from './lsp.bench';
import { benchParse } from './parse.bench';
import { benchRepos } from './repos.bench';
import { benchSchema } from './schema.bench';
import { benchWorkspace } from './workspace.bench';
import { beginSection, recorded, type BenchOptions } from './report';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const options: BenchOptions = { quick: args.includes('--quick') };
  const onlyAt = args.indexOf('--only');
  const only = onlyAt === -1 ? undefined : (args[onlyAt + 1] ?? '').split(',');
  const sections: Array<[string, (options: BenchOptions) => Promise<string[]>]> = [
    ['envsubst', benchEnvsubst],
    ['parse', benchParse],
    ['incremental', benchIncremental],
    ['graph', benchGraph],
    ['lsp', benchLsp],
    ['repos', benchRepos],
    ['schema', benchSchema],
    ['workspace', benchWorkspace],
  ];
  const started = Date.now();
  // Timings move with what else the machine runs: say what it was doing.
  process.stdout.write(`bench: node ${process.version}, ${os.cpus().length} cores, load average ${loadAverage()}${options.quick ? ', --quick' : ''}\n\n`);
  for (const [name, run] of sections) {
    if (only && !only.includes(name)) continue;
    const sectionStarted = Date.now();
    process.stdout.write(`# ${name}\n`);
    beginSection(name);
    for (const line of await run(options)) process.stdout.write(`  ${line}\n`);
    process.stdout.write(`  (${((Date.now() - sectionStarted) / 1000).toFixed(1)} s)\n\n`);
  }
  process.stdout.write(`bench: ${((Date.now() - started) / 1000).toFixed(0)} s${options.quick ? ' (--quick)' : ''}, load average ${loadAverage()}\n`);
  // The numbers, for comparing runs (`.bench/` is git-ignored).
  const results = path.join(benchDir, 'results.json');
  fs.mkdirSync(benchDir, { recursive: true });
  fs.writeFileSync(results, JSON.stringify({ date: new Date().toISOString(), node: process.version, cores: os.cpus().length, quick: options.quick, rows: recorded }, null, 2) + '\n');
  process.stdout.write(`bench: results written to ${path.relative(process.cwd(), results)}\n`);
}

function loadAverage(): string {
  return os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
