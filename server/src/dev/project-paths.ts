/**
 * Where the tests and the bench find the project, the conformance vectors and the bench inputs. They run as tsc output
 * (server/out/...), as an esbuild bundle anywhere (/tmp/x.js), or from any
 * working directory: the root is the nearest folder holding the render-lens package.json,
 * looked for above this file first and then above the working directory.
 */
import * as fs from 'fs';
import * as path from 'path';

export const projectRoot = findProjectRoot();

/** Generated inputs live here; `.bench/` is gitignored. */
export const benchDir = path.join(projectRoot, '.bench');

/** The built server as an editor starts it (`npm run build` or `node esbuild.mjs`). */
export const renderLensServer = path.join(projectRoot, 'dist', 'server.js');

/** The built command-line tool, as `npx render-lens` runs it. */
export const renderLensCli = path.join(projectRoot, 'dist', 'cli.js');

/** The bench's comparison server, with its own package.json and lockfile (bench/comparison-server.ts says why). */
export const comparisonDir = path.join(projectRoot, 'bench', 'comparison');

/** The exact-pinned server the bench compares against, once the bench has installed it. */
export const yamlLanguageServer = path.join(comparisonDir, 'node_modules', 'yaml-language-server', 'bin', 'yaml-language-server');

/**
 * The Go-produced conformance vectors, kept in the repository so a clone anywhere runs the tests
 * (test-fixtures/conformance/README.md says where they come from).
 */
export const conformanceDir = path.join(projectRoot, 'test-fixtures', 'conformance');

/**
 * Reads a conformance JSONL file. Lines are split on `\n` only: some strings hold
 * U+2028, U+0085 or `\r`, which other splitters treat as line breaks.
 */
export function loadConformance<T>(relativePath: string): T[] {
  const text = fs.readFileSync(path.join(conformanceDir, relativePath), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as T);
}

function findProjectRoot(): string {
  for (const start of [__dirname, process.cwd()]) {
    for (let dir = start; ; dir = path.dirname(dir)) {
      const manifest = path.join(dir, 'package.json');
      if (fs.existsSync(manifest) && isRenderLens(manifest)) return dir;
      if (path.dirname(dir) === dir) break;
    }
  }
  throw new Error(`no render-lens package.json above ${__dirname} or ${process.cwd()}`);
}

function isRenderLens(manifest: string): boolean {
  try {
    return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string }).name === 'render-lens';
  } catch {
    return false;
  }
}
