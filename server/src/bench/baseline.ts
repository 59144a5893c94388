/**
 * The floors the budgets are measured against: what the `yaml` package alone takes to parse
 * a text (its default Node build, as `require('yaml')` loads it), and its browser ESM build,
 * which the server bundles (esbuild.mjs) because the Node build reads `process.env` on every
 * token.
 */
import * as path from 'path';
import { pathToFileURL } from 'url';
import * as YAML from 'yaml';
import { projectRoot } from '../dev/project-paths';
import { bestOf } from './report';

type ParseAll = (text: string) => unknown[];

const cache = new Map<string, number>();

/** Best-of-`runs` milliseconds for `parseAllDocuments` (Node build) with positions (a LineCounter), as the budgets define the floor; memoized per text. */
export function yamlParseMs(text: string, runs = 5): number {
  const known = cache.get(text);
  if (known !== undefined) return known;
  const time = bestOf(runs, () => YAML.parseAllDocuments(text, { lineCounter: new YAML.LineCounter() }));
  cache.set(text, time);
  return time;
}

/** `parseAllDocuments` of the browser ESM build, or undefined when it cannot be loaded. */
export async function browserParseAll(): Promise<ParseAll | undefined> {
  try {
    const entry = path.join(projectRoot, 'node_modules', 'yaml', 'browser', 'index.js');
    const module = (await import(pathToFileURL(entry).href)) as { parseAllDocuments?: ParseAll; default?: { parseAllDocuments?: ParseAll } };
    return module.parseAllDocuments ?? module.default?.parseAllDocuments;
  } catch {
    return undefined;
  }
}
