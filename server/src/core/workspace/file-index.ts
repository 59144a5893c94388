/**
 * Every workspace file read and parsed at most once per version. The host is asked for a
 * file's text once; after that only `update` (an editor change or a watched-file event)
 * replaces it, and the parse and object summaries are recomputed lazily on next use. A new
 * version is parsed incrementally from the last parse: only the documents the edit touched
 * are parsed again (reparse.ts). The Flux graph reads files through their compact model
 * (file-model.ts) instead, which stays while the text does; parses of closed files do not.
 * Versions let what is computed from files be kept until one of them changes.
 */
import type { WorkspaceHost } from '../host';
import { maxCachedParses, maxCachedSource } from '../limits';
import type { ParsedFile } from '../yaml/document';
import { isGoTemplateFile } from '../yaml/go-template-file';
import { modelOf, modelOfRoots, type FileModel } from './file-model';

/**
 * A Go template (a chart template, a test asset) holds no object anyone applies as written:
 * Helm or a test renders it first. Reading it as YAML made a million syntax errors on
 * bitnami/charts, and its objects would only be guesses.
 */
const goTemplateModel: FileModel = Object.freeze({ roots: [], objects: [] });
import { objectsOf, type K8sObject } from './objects';
import { parseIncremental, reparseYamlFile } from './reparse';
import { spanOf, type ChangedSpan, type KnownEdit } from './text-change';

interface Entry {
  text: string | undefined;
  /** Unique among every version of every file this process has seen. */
  version: number;
  parsed?: ParsedFile;
  /** The parse of an earlier version, until this version is parsed from it. */
  previous?: ParsedFile;
  /** How `previous` became this version, when the editor said so (and `previous` is the version right before). */
  previousEdit?: ChangedSpan;
  /** The parse was made from `previous` and `previousEdit`. */
  parsedFromEdit: boolean;
  objects?: K8sObject[];
  /** The compact model (file-model.ts): small, so it stays while the text does. */
  model?: FileModel;
}

/** The last version handed out, to any file of any index: a version is never reused. */
let versions = 0;

/** How many layout changes an index remembers (layoutChangesSince); a burst past it forgets the older half. */
const maxLayoutLog = 1000;

export class FileIndex {
  private readonly entries = new Map<string, Entry>();
  private listing: string[] | undefined;
  private directories: Map<string, { files: string[]; dirs: string[] }> | undefined;
  private layout = ++versions;
  private texts = ++versions;
  /**
   * The files that appeared or disappeared (or may have: one first seen through an update),
   * with the layout version each change made; a change of everything (a new listing, a reset)
   * is recorded as undefined. Complete for every version from `layoutLogStart` on (older
   * entries are dropped past `maxLayoutLog`).
   */
  private layoutLog: Array<{ layout: number; file: string | undefined }> = [];
  private layoutLogStart = this.layout;
  /** Small facts about files' current texts, by fact and file (see `derived`). */
  private readonly facts = new Map<string, Map<string, unknown>>();

  /**
   * @param keepGraphParses Whether a file the Flux graph reads through a full parse (one the
   *   block reader does not take) keeps that parse, as a check of every file will want it
   *   next (the CLI, the workspace check). The editor's engine checks only open files: it
   *   keeps the graph's compact model and drops the parse, which at 5,000 home-ops files was
   *   most of the 57 MB its graph held.
   */
  constructor(
    readonly host: WorkspaceHost,
    private readonly keepGraphParses = true,
  ) {}

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

  /**
   * Changes with every new text of the file: what was computed from the file can be kept
   * while its version is the same.
   */
  version(file: string): number {
    return this.entry(file).version;
  }

  /**
   * Changes whenever a file appears or disappears (or the files are listed again): what was
   * computed from which files exist and which directories hold them is good while it is the same.
   */
  layoutVersion(): number {
    return this.layout;
  }

  /**
   * The files that appeared or disappeared since layout version `since` (what layoutVersion
   * returned then), or undefined when that is not known: everything was listed again, or the
   * change is too old to remember. What was computed from which files exist can then be kept
   * if it looked at none of them (render trees, which probe a few paths each).
   */
  layoutChangesSince(since: number): ReadonlySet<string> | undefined {
    if (since < this.layoutLogStart) return undefined;
    const files = new Set<string>();
    for (let i = this.layoutLog.length - 1; i >= 0 && this.layoutLog[i].layout > since; i--) {
      const { file } = this.layoutLog[i];
      if (file === undefined) return undefined;
      files.add(file);
    }
    return files;
  }

  /** A new layout version, made by `file` appearing or disappearing (undefined: every file). */
  private newLayout(file: string | undefined): void {
    this.layout = ++versions;
    this.layoutLog.push({ layout: this.layout, file });
    if (this.layoutLog.length > maxLayoutLog) {
      const dropped = this.layoutLog.splice(0, this.layoutLog.length - maxLayoutLog / 2);
      this.layoutLogStart = dropped[dropped.length - 1].layout;
    }
  }

  /** Changes whenever a file's text does (an update, a new listing, a reset); a first read of a file is not a change. */
  textsVersion(): number {
    return this.texts;
  }

  /**
   * A small fact about a file's current text (does it mention Flux, does it hold a ConfigMap),
   * computed once per version; `key` names the fact. Undefined when the file does not exist.
   */
  derived<T>(file: string, key: string, compute: (text: string) => T): T | undefined {
    const text = this.entry(file).text;
    if (text === undefined) return undefined;
    let byFile = this.facts.get(key);
    if (!byFile) this.facts.set(key, (byFile = new Map()));
    if (byFile.has(file)) return byFile.get(file) as T;
    const value = compute(text);
    byFile.set(file, value);
    return value;
  }

  /** A fact of the file's current version if it was worked out already; never computes. */
  knownFact<T>(file: string, key: string): T | undefined {
    return this.facts.get(key)?.get(file) as T | undefined;
  }

  /** Records a fact of the current version that the caller worked out another way (from the previous version's, after an edit). */
  setFact<T>(file: string, key: string, value: T): void {
    let byFile = this.facts.get(key);
    if (!byFile) this.facts.set(key, (byFile = new Map()));
    byFile.set(file, value);
  }

  /** The compact model of a YAML file's current version: document roots and objects. */
  model(file: string): FileModel | undefined {
    const entry = this.entry(file);
    if (entry.text === undefined) return undefined;
    // A parse of this version made by the block reader holds the very nodes the model would
    // read again (no syntax tree): an open file's model shares them.
    entry.model ??= isGoTemplateFile(file, entry.text)
      ? goTemplateModel
      : entry.parsed && !entry.parsed.documents.some((d) => d.contents?.srcToken)
        ? modelOfRoots(file, entry.parsed.documents.map((d) => d.contents))
        : modelOf(file, entry.text, () => (this.keepGraphParses ? this.parsed(file)! : parseIncremental(entry.text!)));
    return entry.model;
  }

  /** Whether the current version is (or is to be) re-parsed from the span the editor gave update(), not by comparing texts. */
  reparsesFromEdit(file: string): boolean {
    const entry = this.entries.get(file);
    return entry !== undefined && (entry.previousEdit !== undefined || entry.parsedFromEdit);
  }

  /** True when the file has a parse, or one of its previous version to re-parse incrementally. */
  hasParse(file: string): boolean {
    const entry = this.entries.get(file);
    return entry?.parsed !== undefined || entry?.previous !== undefined;
  }

  parsed(file: string): ParsedFile | undefined {
    const entry = this.entry(file);
    if (entry.text === undefined) return undefined;
    if (!entry.parsed) {
      // A file the Flux graph read has its block reading in its model: its nodes are reused.
      entry.parsed = entry.previous ? reparseYamlFile(entry.previous, entry.text, entry.previousEdit) : parseIncremental(entry.text, entry.model?.block);
      entry.parsedFromEdit = entry.previous !== undefined && entry.previousEdit !== undefined;
      // The earlier parse now belongs to this one (its untouched documents were moved over).
      entry.previous = undefined;
      entry.previousEdit = undefined;
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
      this.releaseParse(oldest);
    }
  }

  /**
   * Drops the file's cached parse and the objects read from it (the oldest, past the cache's
   * limits; or one a workspace check is done with); the text and the model stay, and the file
   * is parsed again when asked.
   */
  releaseParse(file: string): void {
    this.forgetParsed(file);
    const entry = this.entries.get(file);
    if (!entry) return;
    entry.parsed = undefined;
    entry.objects = undefined;
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

  /**
   * The objects of a file's current version if its model or parse is at hand; never reads or
   * parses. (Both give the same identities: the model is exact where it is built fast.)
   */
  knownObjects(file: string): readonly K8sObject[] | undefined {
    const entry = this.entries.get(file);
    return entry?.model?.objects ?? entry?.objects ?? (entry?.parsed ? this.objects(file) : undefined);
  }

  /**
   * A file's new text (or undefined when deleted). Returns false when nothing changed. `edit`
   * is how the text the index had became `text`, when the editor reported it.
   */
  update(file: string, given: string | undefined, edit?: KnownEdit): boolean {
    const text = given === undefined ? undefined : withLineBreaks(given);
    const known = this.entries.get(file);
    const listed = this.listing?.includes(file) ?? true;
    if (known && known.text === text && listed === (text !== undefined)) return false;
    // Joining or leaving the listing is appearing or disappearing, whatever was read before.
    const relisted = this.listing !== undefined && listed !== (text !== undefined);
    if (this.listing && relisted) {
      this.listing = text === undefined ? this.listing.filter((f) => f !== file) : [...this.listing, file].sort();
      this.directories = undefined;
    }
    // A file never read may have existed already: count it as appearing, to be safe.
    if (relisted || known === undefined || (known.text === undefined) !== (text === undefined)) this.newLayout(file);
    // Keep the last parse of the file (or the one still waiting to be built on) for the next.
    const previous = text === undefined ? undefined : (known?.parsed ?? known?.previous);
    this.forgetParsed(file);
    for (const byFile of this.facts.values()) byFile.delete(file);
    // The editor's edit spans from the text before, so it fits the previous parse only if that is of it.
    const previousEdit = previous && text !== undefined && previous.text === known?.text ? spanOf(edit, previous.text, text) : undefined;
    this.entries.set(file, newEntry(text, previous, previousEdit));
    this.texts = ++versions;
    return true;
  }

  /** List the files again (new files on disk), keeping every text already known. */
  relist(): void {
    // A file found missing may be there now: it is asked for again. (Known texts stay: an
    // editor's buffer is newer than the disk.)
    for (const [file, entry] of this.entries) if (entry.text === undefined) this.entries.delete(file);
    this.listing = undefined;
    this.directories = undefined;
    this.newLayout(undefined);
    this.texts = ++versions;
  }

  /** Forget everything, e.g. after many files changed on disk at once. */
  reset(): void {
    this.entries.clear();
    this.facts.clear();
    this.parsedFiles.clear();
    this.parsedSource = 0;
    this.listing = undefined;
    this.directories = undefined;
    this.newLayout(undefined);
    this.texts = ++versions;
  }

  private entry(file: string): Entry {
    let entry = this.entries.get(file);
    if (!entry) {
      // A directory of the listing is not a file: render trees probe many, and asking the host
      // costs a realpath and a stat each.
      const directory = this.listing !== undefined && this.tree().has(file);
      const text = directory ? undefined : this.host.readFile(file);
      entry = newEntry(text === undefined ? undefined : withLineBreaks(text), undefined);
      this.entries.set(file, entry);
    }
    return entry;
  }
}

/** Every entry has every field from the start: one shape for all, so reading them stays fast. */
function newEntry(text: string | undefined, previous: ParsedFile | undefined, previousEdit?: ChangedSpan): Entry {
  return { text, version: ++versions, parsed: undefined, previous, previousEdit, parsedFromEdit: false, objects: undefined, model: undefined };
}

/**
 * The text with each lone CR turned into LF. go-yaml reads a lone CR as a line break, as the
 * YAML spec says; the yaml package does not, and read a CR-only file as one broken line. The
 * text keeps its length, so every offset (findings, fixes, positions) is the file's own.
 */
function withLineBreaks(text: string): string {
  return text.includes('\r') ? text.replace(/\r(?!\n)/g, '\n') : text;
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}
