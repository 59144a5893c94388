/**
 * `render-lens substitute --jsonl`: whole resources through the kustomize-controller path,
 * one JSON request per stdin line, one answer per stdout line.
 */
import { substituteResource } from '../core/pipeline';
import { parseArgs, UsageError } from './args';
import { stdinLines, writeJsonLine } from './io';

interface SubstituteLine {
  source: string;
  vars?: Record<string, string>;
  strict?: boolean;
  always?: boolean;
}

export async function substituteCommand(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, { jsonl: 'switch' });
  if (!args.flags.has('jsonl') || args.positionals.length > 0) throw new UsageError('usage: render-lens substitute --jsonl < requests.jsonl');
  for await (const line of stdinLines()) {
    let request: SubstituteLine;
    try {
      request = JSON.parse(line) as SubstituteLine;
      if (typeof request.source !== 'string') throw new Error('"source" must be a string');
    } catch (error) {
      writeJsonLine({ invalid: (error as Error).message });
      continue;
    }
    const outcome = substituteResource({ source: request.source, vars: request.vars ?? {}, strict: request.strict === true, always: request.always === true });
    if (outcome.kind === 'applied') writeJsonLine({ final: outcome.final });
    else if (outcome.kind === 'skipped') writeJsonLine({ skipped: outcome.reason, final: outcome.final });
    else writeJsonLine({ stage: outcome.stage, error: outcome.error, controller_error: outcome.controllerError, ...(outcome.panic ? { panic: outcome.panic } : {}) });
  }
  return 0;
}
