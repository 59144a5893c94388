/** `render-lens explain FILE [--json]`: the render contexts of a file, with variable provenance. */
import * as fs from 'fs';
import * as path from 'path';
import { displayShown, Engine, type ExplainedContext, explainFile, explainVariable, formatExplainedVariable } from '../core';
import { NodeHost } from '../node-host';
import { parseArgs, UsageError } from './args';
import { visibleMessage } from './terminal-text';

export async function explainCommand(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, { json: 'switch', root: 'value' });
  if (args.positionals.length !== 1) throw new UsageError('usage: render-lens explain FILE|VARIABLE [--json] [--root DIR]');
  const root = path.resolve(String(args.flags.get('root') ?? '.'));
  const host = new NodeHost(root);
  const target = args.positionals[0];
  // A name that is not a file is a variable: its layers across every cluster.
  if (/^[_A-Za-z][_A-Za-z0-9]*$/.test(target) && !fs.existsSync(target)) {
    const explained = explainVariable(new Engine(host), target);
    process.stdout.write(args.flags.has('json') ? JSON.stringify(explained, null, 2) + '\n' : visibleMessage(formatExplainedVariable(explained)));
    return 0;
  }
  const file = host.relative(path.resolve(target));
  if (file === undefined) throw new UsageError(`${target} is outside ${root} (use --root)`);
  if (host.readFile(file) === undefined) throw new UsageError(`no such file: ${target}`);
  const contexts = explainFile(new Engine(host), file);
  process.stdout.write(args.flags.has('json') ? JSON.stringify({ file, contexts }, null, 2) + '\n' : visibleMessage(formatExplain(file, contexts)));
  return 0;
}

export function formatExplain(file: string, contexts: readonly ExplainedContext[]): string {
  if (contexts.length === 0) return `${file}: no Flux Kustomization renders this file; it is not substituted.\n`;
  let out = `${file}: ${contexts.length} render context${contexts.length === 1 ? '' : 's'}\n`;
  for (const c of contexts) {
    out += `\n${c.cluster}/${c.kustomization.name} (Kustomization ${c.kustomization.namespace}/${c.kustomization.name}, ${c.kustomization.file}:${c.kustomization.line})\n`;
    out += c.substitutes ? `  substitutes: yes, ${c.strict ? 'strict' : 'not strict'} (${c.strictReason}), strategy ${c.strategy}\n` : `  substitutes: no (${c.skipped})\n`;
    for (const missing of c.missingSources) out += `  missing source: ${missing}\n`;
    for (const v of c.variables) {
      out += `  ${v.name} = ${displayShown(v.value)}\n`;
      v.layers.forEach((layer, i) => (out += `    ${i === 0 ? 'from' : 'overrides'} ${displayShown(layer.value)} — ${layer.source}, ${layer.file}:${layer.line}\n`));
    }
  }
  return out;
}
