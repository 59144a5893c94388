/**
 * Maps document URIs to workspace hosts. Each workspace folder gets one NodeHost; a file
 * outside every folder is checked on its own, rooted at its directory.
 */
import * as path from 'path';
import { fileURLToPath, pathToFileURL } from 'url';
import { NodeHost } from '../node-host';

export class Workspaces {
  private readonly hosts: NodeHost[] = [];

  setFolders(uris: readonly string[]): void {
    this.hosts.length = 0;
    for (const uri of uris) {
      const folder = fsPath(uri);
      if (folder) this.hosts.push(new NodeHost(folder));
    }
    // The longest root first, so nested folders win over their parents.
    this.hosts.sort((a, b) => b.root.length - a.root.length);
  }

  /** The host that owns `uri` and the file's path inside it. */
  locate(uri: string): { host: NodeHost; file: string } | undefined {
    const absolute = fsPath(uri);
    if (!absolute) return undefined;
    for (const host of this.hosts) {
      const file = host.relative(absolute);
      if (file !== undefined) return { host, file };
    }
    const host = new NodeHost(path.dirname(absolute));
    return { host, file: path.basename(absolute) };
  }

  uriOf(host: NodeHost, file: string): string {
    return pathToFileURL(host.absolute(file)).toString();
  }
}

function fsPath(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}
