/** `render-lens clusters [--json]`: the clusters Render Lens found, so users can check and correct the model. */
import * as path from 'path';
import { Engine } from '../core/engine';
import { describeClusters, formatClusters } from '../core/render/clusters';
import { NodeHost } from '../node-host';
import { parseArgs, UsageError } from './args';

export async function clustersCommand(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, { json: 'switch', root: 'value' });
  if (args.positionals.length > 0) throw new UsageError('usage: render-lens clusters [--json] [--root DIR]');
  const engine = new Engine(new NodeHost(path.resolve(String(args.flags.get('root') ?? '.'))));
  const report = describeClusters(engine);
  process.stdout.write(args.flags.has('json') ? JSON.stringify(report, null, 2) + '\n' : formatClusters(report));
  return 0;
}
