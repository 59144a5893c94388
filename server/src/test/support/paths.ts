import * as fs from 'fs';
import * as path from 'path';

/** The project root: the nearest folder above the working directory whose package is render-lens. */
export const projectRoot = findProjectRoot(process.cwd());

/** ../shared beside the project: the design, facts and conformance vectors. */
export const sharedDir = path.resolve(projectRoot, '..', 'shared');

export const fixturesDir = path.join(projectRoot, 'test-fixtures');

function findProjectRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest) && JSON.parse(fs.readFileSync(manifest, 'utf8')).name === 'render-lens') return dir;
    if (path.dirname(dir) === dir) throw new Error(`no render-lens package.json above ${start}`);
  }
}

/**
 * Reads a conformance JSONL file from ../shared/conformance. Lines are split on `\n` only:
 * some strings hold U+2028, U+0085 or `\r`, which other splitters treat as line breaks.
 */
export function loadConformance<T>(relativePath: string): T[] {
  const text = fs.readFileSync(path.join(sharedDir, 'conformance', relativePath), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as T);
}
