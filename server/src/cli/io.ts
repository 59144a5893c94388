/** Reading stdin whole, and line by line for the batch modes. */
import * as fs from 'fs';
import type * as Readline from 'readline';

export function readStdin(): Buffer {
  return fs.readFileSync(0);
}

export async function* stdinLines(): AsyncGenerator<string> {
  // Required here: only the batch modes read lines, and loading readline cost every start
  // 1 ms. (Not import(): the launcher runs the bundle as a vm.Script, which has no loader for it.)
  const readline = require('readline') as typeof Readline;
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) if (line.trim() !== '') yield line;
}

/** Writes a batch answer; JSON.stringify keeps it on one line. */
export function writeJsonLine(value: unknown): void {
  process.stdout.write(JSON.stringify(value) + '\n');
}

/**
 * The JSONL batch protocol: one JSON request per stdin line, one JSON answer per stdout
 * line, in order. A line that is not a valid request gets `{"invalid": "why"}` and the
 * batch goes on.
 */
export async function answerJsonLines<T>(required: keyof T & string, answer: (request: T) => unknown): Promise<number> {
  for await (const line of stdinLines()) {
    let request: T;
    try {
      request = JSON.parse(line) as T;
      if (typeof (request as Record<string, unknown>)[required] !== 'string') throw new Error(`"${required}" must be a string`);
    } catch (error) {
      writeJsonLine({ invalid: (error as Error).message });
      continue;
    }
    writeJsonLine(answer(request));
  }
  return 0;
}
