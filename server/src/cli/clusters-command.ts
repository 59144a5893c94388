/** `render-lens clusters [--json]`: the clusters Render Lens found, so users can check and correct the model. */
import * as path from 'path';
import { describeClusters, describeInventory, Engine, formatClusters, formatInventory } from '../core';
import { NodeHost } from '../node-host';
import { parseArgs, UsageError } from './args';

export async function clustersCommand(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, { json: 'switch', inventory: 'switch', root: 'value' });
  if (args.positionals.length > 0) throw new UsageError('usage: render-lens clusters [--inventory] [--json] [--root DIR]');
  const engine = new Engine(new NodeHost(path.resolve(String(args.flags.get('root') ?? '.'))));
  const report = describeClusters(engine);
  // The inventory counts findings per Kustomization: it runs the whole check.
  const inventory = args.flags.has('inventory') ? describeInventory(engine, engine.analyzeWorkspace(['']).findings) : undefined;
  if (args.flags.has('json')) process.stdout.write(JSON.stringify(inventory ? { ...report, inventory } : report, null, 2) + '\n');
  else process.stdout.write(formatClusters(report) + (inventory ? `\nInventory, per Kustomization:\n${formatInventory(inventory)}` : ''));
  return 0;
}
