/**
 * The editor's documents, keeping where keystrokes changed the text. The editor sends a
 * keystroke as a range; TextDocuments applies it and hands on only the new text, and the
 * engine would then compare the two versions to find the change again, twice per keystroke:
 * 2–10 ms for the 2 MB of the bench's 50,000-line manifest. The engine uses the span instead
 * (core/workspace/text-change.ts, KnownEdit), after checking that it starts from the text it had.
 *
 * The engine takes a document's text once a burst of keystrokes pauses, not at each one
 * (requests/diagnostics.ts): the spans of the keystrokes since it last took one are merged
 * into one span that covers them all. The documents are PieceDocuments, whose keystrokes do
 * not rebuild the whole text.
 */
import type { Range, TextDocument, TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';
import type { TextDocumentsConfiguration } from 'vscode-languageserver/node';
import type { ChangedSpan, KnownEdit } from '../core';
import { PieceDocument } from './piece-document';

interface Pending {
  /** The text the engine was last given (the text before the first edit not yet taken), and the merged span since. */
  edit: KnownEdit | undefined;
  /** The document the last edit made (a document's text is read only when the engine takes it). */
  after: TextDocument;
  version: number;
}

export class EditSpans {
  /** Per document URI, the edits since the engine last took its text (it holds the text before, which may be big). */
  private readonly pending = new Map<string, Pending>();

  /** For `new TextDocuments(…)`: TextDocument's own, which also records each update's edit. */
  readonly documents: TextDocumentsConfiguration<TextDocument> = {
    create: (uri, languageId, version, content) => {
      this.pending.delete(uri);
      return new PieceDocument(uri, languageId, version, content);
    },
    update: (document, changes, version) => this.update(document, changes, version),
  };

  /** The edit from the text the engine last took to `document`'s text, when every change since was one ranged change; asked once. */
  take(document: TextDocument): KnownEdit | undefined {
    const pending = this.pending.get(document.uri);
    this.pending.delete(document.uri);
    return pending && pending.after === document && pending.version === document.version ? pending.edit : undefined;
  }

  /** Drops what is kept for a closed document. */
  forget(uri: string): void {
    this.pending.delete(uri);
  }

  private update(document: TextDocument, changes: TextDocumentContentChangeEvent[], version: number): TextDocument {
    const known = this.pending.get(document.uri);
    // Not taken since the last edit: this one continues from where that one left the text.
    const continues = known !== undefined && known.after === document && known.version === document.version;
    const change = changes.length === 1 ? changes[0] : undefined;
    // Offsets in the text before, as the document itself finds them (a reversed range is turned round).
    const range = change && 'range' in change ? (change as { range: Range }).range : undefined;
    const ends = range ? [document.offsetAt(range.start), document.offsetAt(range.end)].sort((a, b) => a - b) : undefined;
    const span = change && ends ? { start: ends[0], oldEnd: ends[1], newEnd: ends[0] + change.text.length } : undefined;
    // The text before is read only at the first edit after the engine took the text (it is the text the engine has).
    const edit = !span ? undefined : !continues ? { before: document.getText(), span } : known.edit && { before: known.edit.before, span: merged(known.edit.span, span) };
    const updated = document instanceof PieceDocument ? document : new PieceDocument(document.uri, document.languageId, document.version, document.getText());
    updated.update(changes, version);
    this.pending.set(document.uri, { edit, after: updated, version });
    return updated;
  }
}

/**
 * One span covering two edits in a row: `first` took text A to B, `second` took B to C; the
 * result takes A to C. A position of B inside what `first` wrote maps to the end of what it
 * replaced in A (and to the end of what `second` wrote in C), so the span may be wider than
 * the change, which is all a span promises.
 */
export function merged(first: ChangedSpan, second: ChangedSpan): ChangedSpan {
  const grewFirst = first.newEnd - first.oldEnd;
  const grewSecond = second.newEnd - second.oldEnd;
  // B → A: before the first edit unchanged, after it shifted back, inside it its old end.
  const toA = (b: number) => (b <= first.start ? b : b >= first.newEnd ? b - grewFirst : first.oldEnd);
  // B → C: before the second edit unchanged, after it shifted on, inside it its new end.
  const toC = (b: number) => (b <= second.start ? b : b >= second.oldEnd ? b + grewSecond : second.newEnd);
  const start = Math.min(first.start, second.start);
  return { start, oldEnd: Math.max(first.oldEnd, toA(second.oldEnd)), newEnd: Math.max(second.newEnd, toC(first.newEnd)) };
}
