/** The bench's generated Flux repository as in-memory files, for tests on a MemoryHost. */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { generateFluxRepo } from './generate';

export type Files = Record<string, string>;

export function generatedRepoFiles(options: Parameters<typeof generateFluxRepo>[1]): Files {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'render-lens-generated-'));
  try {
    const repo = generateFluxRepo(path.join(root, 'repo'), options);
    const files: Files = {};
    const walk = (dir: string, prefix: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) walk(path.join(dir, entry.name), `${prefix}${entry.name}/`);
        else files[`${prefix}${entry.name}`] = fs.readFileSync(path.join(dir, entry.name), 'utf8');
      }
    };
    walk(repo.root, '');
    return files;
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
