/**
 * The text a document's nodes were read from, when that is not the whole file. In V8 a
 * string sliced from another keeps the whole of the other alive, and a parser's values are
 * slices of what it reads: a document re-parsed from its part of a 2 MB manifest held that
 * version of the manifest for as long as the document was kept, so every keystroke in
 * another document of an open manifest kept one more copy of the file. A re-parsed part is
 * read from a copy of its own text instead; its document remembers the copy and where it
 * starts in the file, for whoever reads scalars from source later (scalar-sites.ts).
 */
export interface PartSource {
  text: string;
  /** Where `text` starts in the file: a node at file offset n is at n - offset in `text`. */
  offset: number;
}

const sources = new WeakMap<object, PartSource>();

/** A copy of text[start, end) that does not keep `text` alive. */
export function detachedSlice(text: string, start: number, end: number): string {
  // A plain slice points into `text`; a concatenation is flattened into a string of its own
  // the first time it is read, and slicing it reads it.
  return ` ${text.slice(start, end)}`.slice(1);
}

export function setPartSource(document: object, text: string, offset: number): void {
  sources.set(document, { text, offset });
}

/** The document's own source, or the whole file's text when it was read from that. */
export function partSourceOf(document: object, fileText: string): PartSource {
  return sources.get(document) ?? { text: fileText, offset: 0 };
}

/** After the document moved by `delta` in its file (an edit before it). */
export function movePartSource(document: object, delta: number): void {
  const source = sources.get(document);
  if (source) sources.set(document, { text: source.text, offset: source.offset + delta });
}
