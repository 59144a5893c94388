/**
 * Workspaces on disk for the robustness tests: written into a temp directory, fingerprinted
 * (every entry's type, mode, mtime and content hash, symbolic links not followed) and read
 * through a host that records every path it is asked for.
 */
import { spawn } from 'child_process';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { WorkspaceHost } from '../../core/host';
import { projectRoot } from './paths';

/** Writes `files` (workspace-relative paths) under a new temp directory and returns its path. */
export function writeWorkspace(files: Record<string, string | Buffer>, prefix = 'render-lens-robust-'): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  for (const [file, content] of Object.entries(files)) {
    const absolute = path.join(root, ...file.split('/'));
    fs.mkdirSync(path.dirname(absolute), { recursive: true });
    fs.writeFileSync(absolute, content);
  }
  return root;
}

export function removeWorkspace(root: string): void {
  fs.rmSync(root, { recursive: true, force: true });
}

/**
 * For a suite's body: `temp(files)` writes a workspace, `keep(dir)` adopts another temp
 * folder, and all of them are removed when the suite ends.
 */
export function suiteWorkspaces(): { temp: (files: Record<string, string | Buffer>) => string; keep: (dir: string) => void } {
  const roots: string[] = [];
  suiteTeardown(() => roots.forEach(removeWorkspace));
  return {
    temp: (files) => {
      const root = writeWorkspace(files);
      roots.push(root);
      return root;
    },
    keep: (dir) => roots.push(dir),
  };
}

/** One line per entry under `root`: path, type, mode, mtime and a hash of the content or link target. */
export function fingerprint(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (dir: string) => {
    for (const name of fs.readdirSync(dir).sort()) {
      const absolute = path.join(dir, name);
      const rel = path.relative(root, absolute).split(path.sep).join('/');
      const stat = fs.lstatSync(absolute);
      const stamp = `${stat.mode.toString(8)} ${stat.mtimeMs}`;
      if (stat.isSymbolicLink()) out.set(rel, `link ${stamp} ${fs.readlinkSync(absolute)}`);
      else if (stat.isDirectory()) {
        out.set(rel, `dir ${stamp}`);
        visit(absolute);
      } else out.set(rel, `file ${stamp} ${createHash('sha256').update(fs.readFileSync(absolute)).digest('hex')}`);
    }
  };
  visit(root);
  return out;
}

/** The entries that differ between two fingerprints, for an assertion message. */
export function differences(before: Map<string, string>, after: Map<string, string>): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((k) => before.get(k) !== after.get(k)).map((k) => `${k}: ${before.get(k) ?? '(absent)'} → ${after.get(k) ?? '(absent)'}`);
}

/** A host that records every path read or listed, and passes the calls on. */
export class RecordingHost implements WorkspaceHost {
  readonly reads: string[] = [];
  readonly listed: string[] = [];

  constructor(private readonly inner: WorkspaceHost) {}

  listFiles(dir = ''): string[] {
    this.listed.push(dir);
    return this.inner.listFiles(dir);
  }

  readFile(file: string): string | undefined {
    this.reads.push(file);
    return this.inner.readFile(file);
  }

  /** Paths asked for that are not plain workspace-relative paths (absolute, or climbing with `..`). */
  escapes(): string[] {
    return [...this.reads, ...this.listed].filter((p) => p.startsWith('/') || /^[A-Za-z]:/.test(p) || p.split('/').includes('..'));
  }
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Where the CLIs that tests run keep their compile cache (cli/launcher.ts): a folder of this
 * test process, not the user's cache, removed when it ends.
 */
export const testCompileCache = fs.mkdtempSync(path.join(os.tmpdir(), 'render-lens-test-cache-'));
process.once('exit', () => fs.rmSync(testCompileCache, { recursive: true, force: true }));

/** Runs the built CLI (`dist/cli.js`) in `cwd`. */
export function runCli(args: readonly string[], cwd: string, env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(projectRoot, 'dist', 'cli.js'), ...args], { cwd, env: { ...process.env, NO_COLOR: '1', RENDER_LENS_CACHE_DIR: testCompileCache, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
