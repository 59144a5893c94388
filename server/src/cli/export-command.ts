/** `render-lens export [--json]`: every render context's variables, with layers, as a diffable snapshot. */
import * as path from 'path';
import { Engine, exportVariables, formatExport } from '../core';
import { NodeHost } from '../node-host';
import { parseArgs, UsageError } from './args';

export async function exportCommand(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, { json: 'switch', root: 'value' });
  if (args.positionals.length > 0) throw new UsageError(`export takes no arguments; unexpected ${args.positionals[0]} (use --root DIR)`);
  const host = new NodeHost(path.resolve(String(args.flags.get('root') ?? '.')));
  const engine = new Engine(host, { log: (message) => process.stderr.write(`render-lens: ${message}\n`) });
  const exported = exportVariables(engine.fluxGraph(), (file) => engine.index.text(file));
  process.stdout.write(args.flags.has('json') ? JSON.stringify(exported, null, 2) + '\n' : formatExport(exported));
  return 0;
}
