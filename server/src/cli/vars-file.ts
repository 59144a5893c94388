/**
 * Variables for `render-lens envsubst --vars FILE`: a YAML or JSON map, or a dotenv file.
 * Every value is taken as text, as Flux takes ConfigMap data (the failsafe schema keeps
 * `true` and `0755` as the strings they are in the file).
 */
import * as fs from 'fs';
import { parse } from 'yaml';
import { UsageError } from './args';

export function readVarsFile(path: string): Record<string, string> {
  let text: string;
  try {
    text = fs.readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read --vars ${path}: ${(error as Error).message}`);
  }
  return /\.env$/i.test(path) || looksLikeDotenv(text) ? parseDotenv(text, path) : parseMap(text, path);
}

function looksLikeDotenv(text: string): boolean {
  const lines = text.split('\n').filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'));
  return lines.length > 0 && lines.every((line) => /^\s*(export\s+)?[^\s=:]+=/.test(line));
}

function parseDotenv(text: string, path: string): Record<string, string> {
  const vars: Record<string, string> = {};
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === '' || line.trimStart().startsWith('#')) return;
    const match = /^\s*(?:export\s+)?([^\s=]+)=(.*)$/.exec(line);
    if (!match) throw new UsageError(`${path}:${index + 1}: expected NAME=value`);
    vars[match[1]] = unquote(match[2].trim());
  });
  return vars;
}

function unquote(value: string): string {
  if (value.length >= 2 && value[0] === value[value.length - 1] && (value[0] === '"' || value[0] === "'")) {
    const inner = value.slice(1, -1);
    return value[0] === '"' ? inner.replace(/\\n/g, '\n').replace(/\\(["\\])/g, '$1') : inner;
  }
  return value;
}

function parseMap(text: string, path: string): Record<string, string> {
  let data: unknown;
  try {
    data = parse(text, { schema: 'failsafe' });
  } catch (error) {
    throw new UsageError(`${path}: ${(error as Error).message}`);
  }
  if (data === null || data === undefined) return {};
  if (typeof data !== 'object' || Array.isArray(data)) throw new UsageError(`${path}: expected a map of variable names to values`);
  const vars: Record<string, string> = {};
  for (const [name, value] of Object.entries(data as Record<string, unknown>)) {
    if (typeof value !== 'string') throw new UsageError(`${path}: the value of ${name} must be text, not a list or a map`);
    vars[name] = value;
  }
  return vars;
}
