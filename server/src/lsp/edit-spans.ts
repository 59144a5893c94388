/**
 * The editor's documents, keeping where each keystroke changed the text. The editor sends a
 * keystroke as a range; TextDocuments applies it and hands on only the new text, and the
 * engine would then compare the two versions to find the change again, twice per keystroke:
 * 2–10 ms for the 2 MB of the bench's 50,000-line manifest. The engine uses the span instead
 * (core/workspace/text-change.ts, KnownEdit), after checking that it starts from the text it had.
 */
import { TextDocument, type Range, type TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';
import type { TextDocumentsConfiguration } from 'vscode-languageserver/node';
import type { KnownEdit } from '../core';

export class EditSpans {
  /** The last update's edit, until the engine takes it (it holds the text before, which may be big). */
  private last: { document: TextDocument; after: string; edit: KnownEdit } | undefined;

  /** For `new TextDocuments(…)`: TextDocument's own, which also records each update's edit. */
  readonly documents: TextDocumentsConfiguration<TextDocument> = {
    create: TextDocument.create,
    update: (document, changes, version) => this.update(document, changes, version),
  };

  /** The edit that made `document`'s text what it is now, when it was one ranged change; asked once. */
  take(document: TextDocument): KnownEdit | undefined {
    const last = this.last;
    this.last = undefined;
    return last && last.document === document && last.after === document.getText() ? last.edit : undefined;
  }

  private update(document: TextDocument, changes: TextDocumentContentChangeEvent[], version: number): TextDocument {
    const before = document.getText();
    const change = changes.length === 1 ? changes[0] : undefined;
    // Offsets in the text before, as TextDocument itself finds them (a reversed range is turned round).
    const range = change && 'range' in change ? (change as { range: Range }).range : undefined;
    const ends = range ? [document.offsetAt(range.start), document.offsetAt(range.end)].sort((a, b) => a - b) : undefined;
    const updated = TextDocument.update(document, changes, version);
    this.last = change && ends ? { document: updated, after: updated.getText(), edit: { before, span: { start: ends[0], oldEnd: ends[1], newEnd: ends[0] + change.text.length } } } : undefined;
    return updated;
  }
}
