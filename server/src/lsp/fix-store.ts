/**
 * The fixes of the findings last published for each file. A diagnostic carries only which
 * of them are its own (`data`), not the edits: on a big manifest the edits were most of a
 * half-megabyte publish, sent on every keystroke for the few a user ever applies.
 *
 * A code action reads the fixes back through the diagnostic's `data`, and only while the
 * file is still at the version they were computed for: edits computed for an older text
 * would land on the wrong columns.
 */
import type { Fix, FixableFinding } from '../core';

/** What a diagnostic carries in `data`. */
export interface DiagnosticData {
  /** The document version the finding belongs to; null for a file checked from disk. */
  version: number | null;
  /** Index of the finding's fixes in the store's entry for its file. */
  fixes: number;
}

interface Entry {
  version: number | null;
  fixes: Array<readonly Fix[]>;
  /** The rule of each entry of `fixes`, for fix-all. */
  rules: string[];
}

export class FixStore {
  private readonly byUri = new Map<string, Entry>();

  /** Replaces what is kept for `uri`; returns the `data` of each finding (undefined: no fixes). */
  remember(uri: string, version: number | null, findings: readonly FixableFinding[]): Array<DiagnosticData | undefined> {
    const entry: Entry = { version, fixes: [], rules: [] };
    const data = findings.map(({ rule, fixes }) => {
      if (fixes.length === 0) return undefined;
      entry.fixes.push(fixes);
      entry.rules.push(rule);
      return { version, fixes: entry.fixes.length - 1 };
    });
    if (entry.fixes.length > 0) this.byUri.set(uri, entry);
    else this.byUri.delete(uri);
    return data;
  }

  forget(uri: string): void {
    this.byUri.delete(uri);
  }

  /**
   * The fixes a diagnostic's `data` points at, if they still belong to the file's text:
   * `currentVersion` is the open document's version (null when the file is not open).
   */
  fixesOf(uri: string, data: unknown, currentVersion: number | null): readonly Fix[] {
    if (!isDiagnosticData(data)) return [];
    const entry = this.byUri.get(uri);
    if (!entry || entry.version !== data.version || entry.version !== currentVersion) return [];
    return entry.fixes[data.fixes] ?? [];
  }

  /** Every finding of the file that has fixes, with its rule, while they belong to the file's text (see fixesOf). */
  findingsOf(uri: string, currentVersion: number | null): FixableFinding[] {
    const entry = this.byUri.get(uri);
    if (!entry || entry.version !== currentVersion) return [];
    return entry.fixes.map((fixes, i) => ({ rule: entry.rules[i], fixes }));
  }
}

function isDiagnosticData(data: unknown): data is DiagnosticData {
  if (typeof data !== 'object' || data === null) return false;
  const { version, fixes } = data as Record<string, unknown>;
  return (version === null || typeof version === 'number') && typeof fixes === 'number' && Number.isInteger(fixes) && fixes >= 0;
}
