/**
 * File access for the core. The core never touches `fs`: the LSP server gives it a host
 * that overlays open editor buffers on the disk, the CLI a disk host, tests a MemoryHost.
 * Paths are workspace-relative with `/` separators.
 */
export interface WorkspaceHost {
  /** Every file under `dir` (recursively), workspace-relative, sorted. */
  listFiles(dir?: string): string[];
  /** The text of a file, or undefined when it does not exist or cannot be read. */
  readFile(path: string): string | undefined;
  /** The urls of the checkout's git remotes, when the host knows them. */
  repositoryUrls?(): string[];
}

export class MemoryHost implements WorkspaceHost {
  private readonly files = new Map<string, string>();

  constructor(files: Record<string, string> = {}) {
    for (const [path, text] of Object.entries(files)) this.files.set(path, text);
  }

  setFile(path: string, text: string): void {
    this.files.set(path, text);
  }

  deleteFile(path: string): void {
    this.files.delete(path);
  }

  listFiles(dir = ''): string[] {
    const prefix = dir === '' || dir === '.' ? '' : dir.replace(/\/?$/, '/');
    return [...this.files.keys()].filter((path) => path.startsWith(prefix)).sort();
  }

  readFile(path: string): string | undefined {
    return this.files.get(path);
  }
}
