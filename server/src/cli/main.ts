/**
 * The `render-lens` command line: the editor's engine for terminals, CI and scripts.
 * Exit codes: 0 clean, 1 findings (or an envsubst error), 2 usage or internal error.
 */
// First: before any function is optimized.
import '../runtime/compiler-flags';
import { version } from '../version';
import { UsageError } from './args';
import { checkCommand } from './check-command';
import { clustersCommand } from './clusters-command';
import { envsubstCommand } from './envsubst-command';
import { explainCommand } from './explain-command';
import { exportCommand } from './export-command';
import { renderCommand } from './render-command';
import { substituteCommand } from './substitute-command';
import { visibleMessage } from './terminal-text';

const usage = `Usage: render-lens <command> [options]

Commands:
  check [PATHS...]           check YAML files (default: the current directory)
      --format FORMAT        text (default), json, sarif (SARIF 2.1.0) or github (workflow annotations)
      --cluster NAME         only this cluster's render contexts
      --strict               assume strict substitution in every cluster (a Flux 2.9 readiness report)
      --max-severity LEVEL   exit 1 when a finding is at least LEVEL: error (default), warning, information, hint
      --root DIR             show paths relative to DIR (default: the current directory)
      --exit-zero            exit 0 even when there are findings (for demos and reports)
      --allow-empty          exit 0 when nothing was checked (by default a run that checked nothing exits 1)
  clusters [--json]          the clusters found: where each starts and how, its sources, variable sources
                             (file:line, or why not visible), Kustomizations on other sources or applied by none
      --inventory            and per Kustomization: files, variables defined and used, escapes, findings by rule
  render FILE [--cluster NAME] [--kustomization NAME]
                             print FILE as kustomize-controller applies it in that context (secrets redacted)
  explain FILE [--json]      the render contexts of FILE: cluster, Kustomization, strict mode, variables and where each comes from
  explain VARIABLE [--json]  a variable's value and layers in every Kustomization that substitutes
  export [--json] [--root DIR]
                             every render context's variables: value (secrets as a sha256 prefix), winning layer,
                             file:line, where to write, and the layers that lost (also_set_by); sorted, diffable
  envsubst [--strict] [--vars FILE]
                             print stdin as \`flux envsubst\` would, with the environment (and FILE) as variables
  envsubst --jsonl           batch: each stdin line {"input","env","strict"} gives {"output"} | {"error"} | {"panic"}
  substitute --jsonl         batch: each stdin line {"source","vars","strict","always"} gives what kustomize-controller applies
  --version, --help
`;

const commands: Record<string, (argv: readonly string[]) => Promise<number>> = {
  check: checkCommand,
  clusters: clustersCommand,
  envsubst: envsubstCommand,
  explain: explainCommand,
  export: exportCommand,
  render: renderCommand,
  substitute: substituteCommand,
};

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === '--version') {
    process.stdout.write(`render-lens ${version}\n`);
    return 0;
  }
  if (command === undefined || command === '--help' || command === 'help') {
    process.stdout.write(usage);
    return command === undefined ? 2 : 0;
  }
  const run = commands[command];
  if (!run) throw new UsageError(`unknown command ${command}`);
  return run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // Both may name what a repository holds (a file, a cluster): shown with its control characters escaped.
    if (error instanceof UsageError) process.stderr.write(`render-lens: ${visibleMessage(error.message)}\n\n${usage}`);
    else process.stderr.write(`render-lens: internal error: ${visibleMessage(error instanceof Error ? (error.stack ?? error.message) : String(error))}\n`);
    process.exitCode = 2;
  },
);
