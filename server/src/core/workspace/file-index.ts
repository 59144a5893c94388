/**
 * Every workspace file read and parsed at most once per version. The host is asked for a
 * file's text once; after that only `update` (an editor change or a watched-file event)
 * replaces it, and the parse and object summaries are recomputed lazily on next use. A new
 * version is parsed incrementally from the last parse: only the documents the edit touched
 * are parsed again (reparse.ts).
 */
import type { WorkspaceHost } from '../host';
import { maxCachedParses, maxCachedSource } from '../limits';
import type { ParsedFile } from '../yaml/document';
import { objectsOf, type K8sObject } from './objects';
import { parseIncremental, reparseYamlFile } from './reparse';

interface Entry {
  text: string | undefined;
  parsed?: ParsedFile;
  /** The parse of an earlier version, until this version is parsed from it. */
  previous?: ParsedFile;
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
    if (!entry.parsed) {
      entry.parsed = entry.previous ? reparseYamlFile(entry.previous, entry.text) : parseIncremental(entry.text);
      // The earlier parse now belongs to this one (its untouched documents were moved over).
      entry.previous = undefined;
    }
    this.keepParsed(file, entry.text.length);
    return entry.parsed;
  }

  /**
   * How many parses, and how much of their source, stay cached. A parse holds 20–50 bytes per
   * source character; past either bound the least recently used parse is dropped (its text is
   * kept, and it is parsed again when asked), so a check of 100,000 files has bounded memory.
   */
  cacheLimits = { files: maxCachedParses, source: maxCachedSource };
  /** Files holding a parse, least recently used first, with their source length. */
  private readonly parsedFiles = new Map<string, number>();
  private parsedSource = 0;

  /** How many files hold a cached parse, and their total source length. */
  cachedParses(): { files: number; source: number } {
    return { files: this.parsedFiles.size, source: this.parsedSource };
  }

  private keepParsed(file: string, length: number): void {
    this.forgetParsed(file);
    this.parsedFiles.set(file, length);
    this.parsedSource += length;
    for (const [oldest] of this.parsedFiles) {
      if (this.parsedFiles.size <= 1 || (this.parsedFiles.size <= this.cacheLimits.files && this.parsedSource <= this.cacheLimits.source)) break;
      this.forgetParsed(oldest);
      const entry = this.entries.get(oldest);
      if (entry) {
        entry.parsed = undefined;
        entry.objects = undefined;
      }
    }
  }

  private forgetParsed(file: string): void {
    const length = this.parsedFiles.get(file);
    if (length === undefined) return;
    this.parsedFiles.delete(file);
    this.parsedSource -= length;
  }

  objects(file: string): readonly K8sObject[] {
    const entry = this.entry(file);
    if (entry.objects) return entry.objects;
    const parsed = this.parsed(file);
    entry.objects = parsed ? objectsOf(file, parsed.documents) : [];
    return entry.objects;
  }

  /** The objects of a file's current version if it was parsed already; never parses. */
  knownObjects(file: string): readonly K8sObject[] | undefined {
    const entry = this.entries.get(file);
    return entry?.objects ?? (entry?.parsed ? this.objects(file) : undefined);
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
    // Keep the last parse of the file (or the one still waiting to be built on) for the next.
    const previous = text === undefined ? undefined : (known?.parsed ?? known?.previous);
    this.forgetParsed(file);
    this.entries.set(file, previous ? { text, previous } : { text });
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
    this.parsedFiles.clear();
    this.parsedSource = 0;
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
