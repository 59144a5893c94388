/**
 * `render-lens substitute --jsonl`: whole resources through the kustomize-controller path,
 * one JSON request per stdin line, one answer per stdout line.
 */
import { substituteResource } from '../core';
import { parseArgs, UsageError } from './args';
import { answerJsonLines } from './io';

interface SubstituteLine {
  source: string;
  vars?: Record<string, string>;
  strict?: boolean;
  always?: boolean;
}

export async function substituteCommand(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, { jsonl: 'switch' });
  if (!args.flags.has('jsonl') || args.positionals.length > 0) throw new UsageError('usage: render-lens substitute --jsonl < requests.jsonl');
  return answerJsonLines<SubstituteLine>('source', (request) => {
    const outcome = substituteResource({ source: request.source, vars: request.vars ?? {}, strict: request.strict === true, always: request.always === true });
    if (outcome.kind === 'applied') return { final: outcome.final };
    if (outcome.kind === 'skipped') return { skipped: outcome.reason, final: outcome.final };
    return { stage: outcome.stage, error: outcome.error, controller_error: outcome.controllerError, ...(outcome.panic ? { panic: outcome.panic } : {}) };
  });
}
