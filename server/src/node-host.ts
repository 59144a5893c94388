/**
 * Files on disk under a workspace root, for the CLI and the language server (which layers
 * open editor buffers on top through the engine). Never writes anything.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { WorkspaceHost } from './core/host';

export class NodeHost implements WorkspaceHost {
  /** The root with its own symbolic links resolved: the one place reads may land. */
  private realRoot: string | undefined;

  constructor(readonly root: string) {}

  /** Workspace-relative path with `/` separators, or undefined when outside the root. */
  relative(absolute: string): string | undefined {
    const rel = path.relative(this.root, absolute);
    if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
    return rel.split(path.sep).join('/');
  }

  absolute(relative: string): string {
    return path.join(this.root, ...relative.split('/'));
  }

  /**
   * Reads a regular file inside the root. A path through a symbolic link, with `..`, or to
   * anything but a regular file (a FIFO would block forever) reads as missing: a hostile
   * repository cannot make the server read outside the workspace.
   */
  readFile(relative: string): string | undefined {
    if (relative.split('/').some((part) => part === '..' || part === '.') || path.isAbsolute(relative)) return undefined;
    try {
      this.realRoot ??= fs.realpathSync.native(this.root);
      const absolute = this.absolute(relative);
      if (fs.realpathSync.native(absolute) !== path.join(this.realRoot, ...relative.split('/'))) return undefined;
      if (!fs.statSync(absolute).isFile()) return undefined;
      return fs.readFileSync(absolute, 'utf8');
    } catch {
      return undefined;
    }
  }

  listFiles(dir = ''): string[] {
    const out = new Set<string>();
    const start = dir === '' || dir === '.' ? this.root : this.absolute(dir);
    walk(start, this.root, out, new Set());
    return [...out].sort();
  }
}

const skippedDirectories = new Set(['.git', 'node_modules']);

/** Lists regular files; symbolic links are not followed, so loops and escapes are impossible. */
function walk(dir: string, root: string, out: Set<string>, seen: Set<string>): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    if (fs.existsSync(dir) && fs.statSync(dir).isFile()) out.add(path.relative(root, dir).split(path.sep).join('/'));
    return;
  }
  if (seen.has(dir)) return;
  seen.add(dir);
  for (const entry of entries) {
    if (entry.isDirectory()) {
      if (!skippedDirectories.has(entry.name)) walk(path.join(dir, entry.name), root, out, seen);
    } else if (entry.isFile()) {
      out.add(path.relative(root, path.join(dir, entry.name)).split(path.sep).join('/'));
    }
  }
}
