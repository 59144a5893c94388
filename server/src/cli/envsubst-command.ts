/**
 * `render-lens envsubst`: what `flux envsubst` prints for stdin, and a JSONL batch mode
 * that scripts (and our own checks) use to drive the engine.
 */
import { envsubst, type EnvsubstResult } from '../core';
import { parseArgs, UsageError } from './args';
import { answerJsonLines, readStdin } from './io';
import { decodeKeepingBytes, restoreBytes } from './raw-bytes';
import { readVarsFile } from './vars-file';

export async function envsubstCommand(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, { strict: 'switch', vars: 'value', jsonl: 'switch' });
  if (args.positionals.length > 0) throw new UsageError(`envsubst reads stdin; unexpected argument ${args.positionals[0]}`);
  if (args.flags.has('jsonl')) {
    if (args.flags.has('strict') || args.flags.has('vars')) throw new UsageError('--jsonl takes strict and env from each line');
    return batch();
  }
  const vars: Record<string, string> = { ...(process.env as Record<string, string>) };
  const file = args.flags.get('vars');
  if (typeof file === 'string') Object.assign(vars, readVarsFile(file));
  const raw = readStdin();
  // Bytes that are not UTF-8 pass through unchanged, as in flux envsubst.
  const escaped = decodeKeepingBytes(raw);
  const input = escaped ?? raw.toString('utf8');
  const result = envsubst(input, (name) => (Object.prototype.hasOwnProperty.call(vars, name) ? vars[name] : undefined), {
    strict: args.flags.has('strict'),
  });
  if (result.kind === 'output') {
    process.stdout.write(escaped === undefined ? result.bytes : restoreBytes(result.bytes));
    return 0;
  }
  process.stderr.write(`${result.kind === 'panic' ? `panic: ${result.message} [recovered]` : result.message}\n`);
  return 1;
}

interface BatchRequest {
  input: string;
  env?: Record<string, string>;
  strict?: boolean;
}

function batch(): Promise<number> {
  return answerJsonLines<BatchRequest>('input', (request) => {
    const env = request.env ?? {};
    const lookup = (name: string) => (Object.prototype.hasOwnProperty.call(env, name) ? env[name] : undefined);
    return toBatchAnswer(envsubst(request.input, lookup, { strict: request.strict === true }));
  });
}

function toBatchAnswer(result: EnvsubstResult): Record<string, string> {
  if (result.kind === 'error') return { error: result.message };
  if (result.kind === 'panic') return { panic: result.message };
  const answer: Record<string, string> = { output: result.text };
  if (!Buffer.from(result.text, 'utf8').equals(Buffer.from(result.bytes))) answer.output_b64 = Buffer.from(result.bytes).toString('base64');
  return answer;
}
