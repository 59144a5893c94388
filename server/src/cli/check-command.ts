/** `render-lens check [PATHS...]`: the editor's checks over a tree, for terminals and CI. */
import * as fs from 'fs';
import * as path from 'path';
import { atLeast, countedNothing, describeCounts, Engine, type Severity } from '../core';
import { NodeHost } from '../node-host';
import { oneOf, parseArgs, UsageError } from './args';
import { formatGithub } from './format-github';
import { formatJson } from './format-json';
import { formatSarif } from './format-sarif';
import { formatText, summaryLine } from './format-text';
import { visibleMessage } from './terminal-text';

const severities: readonly Severity[] = ['error', 'warning', 'information', 'hint'];

export async function checkCommand(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, {
    format: 'value',
    'max-severity': 'value',
    root: 'value',
    cluster: 'value',
    strict: 'switch',
    color: 'switch',
    'no-color': 'switch',
    'exit-zero': 'switch',
    'allow-empty': 'switch',
  });
  const format = oneOf('format', args.flags.get('format'), ['text', 'json', 'sarif', 'github'] as const, 'text');
  const threshold = oneOf('max-severity', args.flags.get('max-severity'), severities, 'error');
  const targets = args.positionals.length > 0 ? args.positionals : ['.'];
  for (const target of targets) if (!fs.existsSync(target)) throw new UsageError(`no such file or directory: ${target}`);

  // Paths are shown relative to the root: the given --root, else the current directory.
  const root = path.resolve(String(args.flags.get('root') ?? '.'));
  const host = new NodeHost(root);
  const relative = targets.map((target) => host.relative(path.resolve(target)));
  if (relative.some((r) => r === undefined)) throw new UsageError(`paths must be inside ${root} (use --root)`);

  const cluster = args.flags.get('cluster');
  const engine = new Engine(host, {
    log: (message) => process.stderr.write(`render-lens: ${visibleMessage(message)}\n`),
    cluster: typeof cluster === 'string' ? cluster : undefined,
    forceStrict: args.flags.has('strict'),
  });
  if (typeof cluster === 'string' && !engine.fluxGraph().clusters.some((c) => c.name === cluster)) {
    throw new UsageError(`no cluster named ${cluster}; the clusters are: ${engine.fluxGraph().clusters.map((c) => c.name).join(', ') || 'none'}`);
  }
  const progress = process.stderr.isTTY ? (done: number, total: number) => process.stderr.write(`\rchecked ${done}/${total} files`) : undefined;
  const result = engine.analyzeWorkspace(relative as string[], { progress });
  if (progress) process.stderr.write('\r\x1b[K');
  const textOf = (file: string) => engine.index.text(file);
  if (format === 'json') {
    process.stdout.write(formatJson(result.findings, textOf, result.files, result.fields, result.checked));
  } else if (format === 'sarif') {
    process.stdout.write(formatSarif(result.findings, textOf, { files: result.files, fields: result.fields, ...result.checked }));
  } else if (format === 'github') {
    const prefix = path.relative(process.cwd(), root);
    process.stdout.write(formatGithub(result.findings, textOf, prefix === '' ? '' : `${prefix.split(path.sep).join('/')}/`));
    process.stdout.write(summaryLine(result.findings, result.files, result.fields, result.checked) + '\n');
  } else {
    const color = args.flags.has('color') || (!args.flags.has('no-color') && process.stdout.isTTY === true && !process.env.NO_COLOR);
    const secretAt = (file: string, offset: number) => engine.index.objects(file).some((o) => o.kind === 'Secret' && offset >= o.range.start && offset <= o.range.end);
    process.stdout.write(formatText(result.findings, textOf, color, secretAt));
    process.stdout.write(summaryLine(result.findings, result.files, result.fields, result.checked) + '\n');
  }
  // Zero files, or files without one field a rule reads, is not a pass: a wrong path or a
  // repository the model does not understand would otherwise stay green for ever. (A finding
  // shows that something was read, e.g. a `${VAR}` in a file nothing substitutes.)
  const empty = result.files === 0 || (countedNothing(result.checked) && result.findings.length === 0);
  if (empty && !args.flags.has('allow-empty')) {
    const what = `nothing checked: ${result.files} file${result.files === 1 ? '' : 's'}, ${describeCounts(result.checked)}`;
    if (format === 'github') process.stdout.write(`::error title=Render Lens::${what}\n`);
    process.stderr.write(`render-lens: ${what}. Pass --allow-empty if that is expected.\n`);
    return args.flags.has('exit-zero') ? 0 : 1;
  }
  if (args.flags.has('exit-zero')) return 0;
  return result.findings.some((f) => atLeast(f.severity, threshold)) ? 1 : 0;
}
