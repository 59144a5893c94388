/** `render-lens render FILE [--cluster NAME] [--kustomization NAME]`: what the cluster receives. */
import * as path from 'path';
import { Engine, formatRendered, renderContexts, renderFile } from '../core';
import { NodeHost } from '../node-host';
import { parseArgs, UsageError } from './args';

export async function renderCommand(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, { cluster: 'value', kustomization: 'value', root: 'value' });
  if (args.positionals.length !== 1) throw new UsageError('usage: render-lens render FILE [--cluster NAME] [--kustomization NAME] [--root DIR]');
  const root = path.resolve(String(args.flags.get('root') ?? '.'));
  const host = new NodeHost(root);
  const file = host.relative(path.resolve(args.positionals[0]));
  if (file === undefined || host.readFile(file) === undefined) throw new UsageError(`no such file inside ${root}: ${args.positionals[0]}`);
  const engine = new Engine(host);
  const cluster = args.flags.get('cluster');
  const kustomization = args.flags.get('kustomization');
  const all = renderContexts(engine, file);
  const chosen = all.filter(({ context }) => (cluster === undefined || context.cluster.name === cluster) && (kustomization === undefined || context.instance.kustomization.name === kustomization));
  if (all.length === 0) throw new UsageError(`${file}: no Flux Kustomization renders this file`);
  if (chosen.length === 0) throw new UsageError(`${file}: no render context matches; the contexts are: ${all.map((c) => c.label).join(', ')}`);
  if (chosen.length > 1) throw new UsageError(`${file} is rendered in several contexts; choose one with --cluster/--kustomization: ${chosen.map((c) => c.label).join(', ')}`);
  process.stdout.write(formatRendered(file, renderFile(engine, file, chosen[0].context)));
  return 0;
}
