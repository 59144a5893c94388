/**
 * Maps document URIs to engines. Each workspace folder gets one engine over its files; a
 * file outside every folder gets an engine rooted at its directory.
 */
import * as path from 'path';
import { fileURLToPath, pathToFileURL } from 'url';
import { Engine, type EngineSettings } from '../core';
import { NodeHost } from '../node-host';

/** How many file URIs uriOf remembers. */
const rememberedUris = 256;

export interface Workspace {
  host: NodeHost;
  engine: Engine;
}

export class Workspaces {
  private readonly folders: Workspace[] = [];
  private readonly loose = new Map<string, Workspace>();
  private readonly uris = new Map<string, string>();
  /**
   * Run before every lookup: gives the engines the open documents' newest texts, which a
   * burst of keystrokes leaves for later (requests/diagnostics.ts), so a request never reads
   * an older text than the editor's.
   */
  beforeLocate: (() => void) | undefined;

  constructor(private settings: EngineSettings) {}

  setFolders(uris: readonly string[]): void {
    this.folders.length = 0;
    for (const uri of uris) {
      const folder = fsPath(uri);
      if (folder) this.folders.push(this.create(folder));
    }
    // The longest root first, so nested folders win over their parents.
    this.folders.sort((a, b) => b.host.root.length - a.host.root.length);
  }

  configure(settings: EngineSettings): void {
    this.settings = settings;
    for (const workspace of this.all()) workspace.engine.configure(settings);
  }

  all(): Workspace[] {
    return [...this.folders, ...this.loose.values()];
  }

  /** The workspace that owns `uri` and the file's path inside it. */
  locate(uri: string): (Workspace & { file: string }) | undefined {
    this.beforeLocate?.();
    const absolute = fsPath(uri);
    if (!absolute) return undefined;
    for (const workspace of this.folders) {
      const file = workspace.host.relative(absolute);
      if (file !== undefined) return { ...workspace, file };
    }
    const dir = path.dirname(absolute);
    let workspace = this.loose.get(dir);
    if (!workspace) this.loose.set(dir, (workspace = this.create(dir)));
    return { ...workspace, file: path.basename(absolute) };
  }

  /**
   * A file's URI. Every keystroke's publish names the same few related files (the
   * Kustomizations), and pathToFileURL is slow: recent ones are remembered, a bounded number,
   * since a workspace check asks once for every file.
   */
  uriOf(workspace: Workspace, file: string): string {
    const absolute = workspace.host.absolute(file);
    let uri = this.uris.get(absolute);
    if (uri === undefined) {
      if (this.uris.size >= rememberedUris) this.uris.clear();
      this.uris.set(absolute, (uri = pathToFileURL(absolute).toString()));
    }
    return uri;
  }

  private create(root: string): Workspace {
    const host = new NodeHost(root);
    return { host, engine: new Engine(host, this.settings, 'editor') };
  }
}

/** The file path of a `file:` URI; undefined for other schemes and malformed URIs. */
export function fsPath(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}
