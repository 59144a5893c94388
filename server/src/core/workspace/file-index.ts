/**
 * Every workspace file read and parsed at most once per version. The host is asked for a
 * file's text once; after that only `update` (an editor change or a watched-file event)
 * replaces it, and the parse and object summaries are recomputed lazily on next use.
 */
import type { WorkspaceHost } from '../host';
import { parseYamlFile, type ParsedFile } from '../yaml/document';
import { objectsOf, type K8sObject } from './objects';

interface Entry {
  text: string | undefined;
  parsed?: ParsedFile;
  objects?: K8sObject[];
}

export class FileIndex {
  private readonly entries = new Map<string, Entry>();
  private listing: string[] | undefined;
  private directories: Map<string, { files: string[]; dirs: string[] }> | undefined;

  constructor(readonly host: WorkspaceHost) {}

  /** All files of the workspace, listed once. */
  files(): readonly string[] {
    this.listing ??= this.host.listFiles('');
    return this.listing;
  }

  /** Is `dir` ('' for the root) a directory holding at least one file? */
  isDirectory(dir: string): boolean {
    return this.tree().has(dir);
  }

  /** Direct children of a directory: files and subdirectories, as full paths, sorted. */
  children(dir: string): { files: readonly string[]; dirs: readonly string[] } {
    return this.tree().get(dir) ?? { files: [], dirs: [] };
  }

  private tree(): Map<string, { files: string[]; dirs: string[] }> {
    if (this.directories) return this.directories;
    const tree = new Map<string, { files: string[]; dirs: string[] }>();
    const node = (dir: string) => {
      let entry = tree.get(dir);
      if (!entry) {
        entry = { files: [], dirs: [] };
        tree.set(dir, entry);
        if (dir !== '') node(parentOf(dir)).dirs.push(dir);
      }
      return entry;
    };
    for (const file of this.files()) node(parentOf(file)).files.push(file);
    this.directories = tree;
    return tree;
  }

  text(file: string): string | undefined {
    return this.entry(file).text;
  }

  /** The text already known for a file, without asking the host. */
  known(file: string): { text: string | undefined } | undefined {
    return this.entries.get(file);
  }

  exists(file: string): boolean {
    return this.text(file) !== undefined;
  }

  parsed(file: string): ParsedFile | undefined {
    const entry = this.entry(file);
    if (entry.text === undefined) return undefined;
    entry.parsed ??= parseYamlFile(entry.text);
    return entry.parsed;
  }

  objects(file: string): readonly K8sObject[] {
    const entry = this.entry(file);
    if (entry.objects) return entry.objects;
    const parsed = this.parsed(file);
    entry.objects = parsed ? objectsOf(file, parsed.documents) : [];
    return entry.objects;
  }

  /** A file's new text (or undefined when deleted). Returns false when nothing changed. */
  update(file: string, text: string | undefined): boolean {
    const known = this.entries.get(file);
    const listed = this.listing?.includes(file) ?? true;
    if (known && known.text === text && listed === (text !== undefined)) return false;
    if (this.listing && listed !== (text !== undefined)) {
      this.listing = text === undefined ? this.listing.filter((f) => f !== file) : [...this.listing, file].sort();
      this.directories = undefined;
    }
    this.entries.set(file, { text });
    return true;
  }

  /** List the files again (new files on disk), keeping every text already known. */
  relist(): void {
    this.listing = undefined;
    this.directories = undefined;
  }

  /** Forget everything, e.g. after many files changed on disk at once. */
  reset(): void {
    this.entries.clear();
    this.listing = undefined;
    this.directories = undefined;
  }

  private entry(file: string): Entry {
    let entry = this.entries.get(file);
    if (!entry) {
      entry = { text: this.host.readFile(file) };
      this.entries.set(file, entry);
    }
    return entry;
  }
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}
