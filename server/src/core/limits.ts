import type { Document } from 'yaml';

/**
 * Bounds on the work one file can cause. A repository is input from strangers (a pull
 * request, a cloned fork), so no file may stall the editor, exhaust memory or flood the
 * Problems view. Each bound is far above what a hand-written manifest needs; a file past one
 * is reported once, where it starts, and not checked further.
 */

/**
 * Files longer than this (UTF-16 units, about bytes for YAML) are not parsed. 2 MiB holds
 * every hand-written manifest and the big vendored ones (Flux's gotk-components.yaml,
 * cert-manager's release manifest); what is larger is a vendored CRD bundle or generated data,
 * where nothing is substituted, and parsing it would block the server for tens of seconds.
 */
export const maxFileSize = 2 * 1024 * 1024;

/**
 * Collections nested deeper than this are not composed. Kubernetes objects rarely pass 30
 * levels; the YAML composer and every tree walk after it recurse once per level, and
 * 10,000 levels overflow the stack.
 */
export const maxNestingDepth = 500;

/**
 * Parses the file index keeps cached: at most this many files, and this much source (a parse
 * costs 20–50 bytes of memory per source character, so about 200–400 MB). A repository past
 * either is still checked in full; the least recently used parses are made again when needed.
 */
export const maxCachedParses = 10000;
export const maxCachedSource = 8 * 1024 * 1024;

/**
 * At most this many findings per file, the most serious first; one more says how many were
 * left out. VS Code shows at most 1,000 diagnostics per file too, and a megabyte of `$$` on
 * one line would otherwise send hundreds of thousands.
 */
export const maxFindingsPerFile = 1000;

/**
 * How far aliases may multiply a document before it is called an alias bomb: the yaml
 * library's own default. Nine anchors of nine aliases each expand to 387 million nodes;
 * rendering one the way kustomize does (aliases replaced by copies) would exhaust memory.
 */
export const maxAliasCount = 100;

/** Whether expanding the document's aliases goes past maxAliasCount (checked without expanding them). */
export function exceedsAliasLimit(document: Document): boolean {
  try {
    document.toJS({ maxAliasCount, mapAsMap: true });
    return false;
  } catch (error) {
    return error instanceof ReferenceError && /alias count/i.test(error.message);
  }
}

/** "2.0 MiB", for messages. */
export function formatSize(units: number): string {
  return units >= 1024 * 1024 ? `${(units / (1024 * 1024)).toFixed(1)} MiB` : `${Math.ceil(units / 1024)} KiB`;
}

/**
 * Parentheses nested deeper than this in one template action (Helm's `{{ }}`, Fleet's
 * `\${ }`) are not followed: the parsers recurse once per level, and 10,000 levels (which Go's
 * text/template still accepts) overflow the stack. No hand-written template comes near it.
 */
export const maxTemplateParenDepth = 100;
