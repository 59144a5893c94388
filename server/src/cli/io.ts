/** Reading stdin whole, and line by line for the batch modes. */
import * as fs from 'fs';
import * as readline from 'readline';

export function readStdin(): Buffer {
  return fs.readFileSync(0);
}

export async function* stdinLines(): AsyncGenerator<string> {
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) if (line.trim() !== '') yield line;
}

/** Writes a batch answer; JSON.stringify keeps it on one line. */
export function writeJsonLine(value: unknown): void {
  process.stdout.write(JSON.stringify(value) + '\n');
}
