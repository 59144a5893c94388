/**
 * Files on disk under a workspace root, for the CLI and the language server (which layers
 * open editor buffers on top through the engine). Never writes anything.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { WorkspaceHost } from './core';

/**
 * Opening a listed file: never through a symbolic link (O_NOFOLLOW), and never waiting on a
 * FIFO (O_NONBLOCK). Undefined where the platform has no such flags (Windows).
 */
const listedFileFlags = fs.constants.O_NOFOLLOW !== undefined && fs.constants.O_NONBLOCK !== undefined ? fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK : undefined;
// Node documents numeric open(2) flags for every `flag` option; the typings only say string.
const listedFileOptions = { encoding: 'utf8', flag: listedFileFlags as unknown as string } as const;

export class NodeHost implements WorkspaceHost {
  /** The root with its own symbolic links resolved: the one place reads may land. */
  private realRoot: string | undefined;
  /**
   * Files the last listing found as regular files, reached through real directories only (the
   * walk does not follow links). Reading one needs no realpath: only its last component could
   * have become a link since, and O_NOFOLLOW refuses that.
   */
  private listed = new Set<string>();

  /** The root with a trailing separator, for joining listed paths. */
  private readonly rootSlash: string;

  constructor(readonly root: string) {
    this.rootSlash = root.endsWith(path.sep) ? root : `${root}${path.sep}`;
  }

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
    try {
      // A listed path is normal by construction. (The flags exist where `/` is the separator.)
      if (listedFileFlags !== undefined && this.listed.has(relative)) return fs.readFileSync(`${this.rootSlash}${relative}`, listedFileOptions);
    } catch {
      return undefined;
    }
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

  /**
   * The url of every remote in the checkout's `.git/config` (a worktree's `.git` file points
   * at its git directory). Read only, and only that file.
   */
  repositoryUrls(): string[] {
    let gitDir = path.join(this.root, '.git');
    try {
      if (fs.statSync(gitDir).isFile()) {
        const pointer = /^gitdir:\s*(.+)$/m.exec(fs.readFileSync(gitDir, 'utf8'))?.[1]?.trim();
        if (!pointer) return [];
        gitDir = path.resolve(this.root, pointer);
        const common = path.join(gitDir, 'commondir');
        if (fs.existsSync(common)) gitDir = path.resolve(gitDir, fs.readFileSync(common, 'utf8').trim());
      }
      const config = fs.readFileSync(path.join(gitDir, 'config'), 'utf8');
      return [...config.matchAll(/^\s*url\s*=\s*(.+?)\s*$/gm)].map((m) => m[1]);
    } catch {
      return [];
    }
  }

  listFiles(dir = ''): string[] {
    const out = new Set<string>();
    const start = dir === '' || dir === '.' ? this.root : this.absolute(dir);
    walk(start, this.root, out, new Set());
    const files = [...out].sort();
    // Only a listing from the root walked real directories alone: a subdirectory's own path
    // may pass through a link.
    if (start === this.root) this.listed = new Set(files);
    return files;
  }
}

const skippedDirectories = new Set(['.git', 'node_modules']);

/**
 * Lists regular files; symbolic links are not followed, so loops and escapes are impossible.
 * `prefix` is `dir` relative to the root, with a trailing `/` (empty at the root).
 */
function walk(dir: string, root: string, out: Set<string>, seen: Set<string>, prefix = dirPrefix(root, dir)): void {
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
      // `dir` is already a clean path: joining by hand skips path.join's normalizing.
      if (!skippedDirectories.has(entry.name)) walk(`${dir}${path.sep}${entry.name}`, root, out, seen, `${prefix}${entry.name}/`);
    } else if (entry.isFile()) {
      out.add(prefix + entry.name);
    }
  }
}

function dirPrefix(root: string, dir: string): string {
  const relative = path.relative(root, dir).split(path.sep).join('/');
  return relative === '' ? '' : `${relative}/`;
}
