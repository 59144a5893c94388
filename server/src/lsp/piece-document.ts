/**
 * An open document whose keystrokes cost what they change, not the document's size.
 * vscode-languageserver-textdocument's document rebuilds its whole text at each keystroke
 * (one string of the text's size: 400 KB for the bench's 10,000-line manifest, 2 MB for the
 * 50,000-line one, each a large object for the collector): a burst of a thousand keystrokes
 * spent about a second there alone, before any check. Here the text is a list of pieces
 * (slices of earlier texts share their characters), joined once when someone reads it;
 * line starts are kept up to date per keystroke. Positions and offsets mean exactly what
 * TextDocument's do (clamping, a reversed range turned round, `\r\n` as one line break);
 * server/src/test/piece-document.test.ts compares the two on random edits.
 */
import type { Position, Range, TextDocument, TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';

/** Pieces shorter than this are joined with a neighbour, so typing in one place keeps few pieces. */
const smallPiece = 256;

const CR = 13;
const LF = 10;

export class PieceDocument implements TextDocument {
  private pieces: string[];
  private length: number;
  /** Where each line starts; undefined until asked for after a change that made them unclear. */
  private lineStarts: number[] | undefined;

  constructor(
    readonly uri: string,
    readonly languageId: string,
    private currentVersion: number,
    text: string,
  ) {
    this.pieces = text.length > 0 ? [text] : [];
    this.length = text.length;
  }

  get version(): number {
    return this.currentVersion;
  }

  get lineCount(): number {
    return this.starts().length;
  }

  getText(range?: Range): string {
    if (this.pieces.length > 1) this.pieces = [this.pieces.join('')];
    const text = this.pieces[0] ?? '';
    return range ? text.substring(this.offsetAt(range.start), this.offsetAt(range.end)) : text;
  }

  offsetAt(position: Position): number {
    const starts = this.starts();
    if (position.line >= starts.length) return this.length;
    if (position.line < 0) return 0;
    const lineStart = starts[position.line];
    if (position.character <= 0) return lineStart;
    const next = position.line + 1 < starts.length ? starts[position.line + 1] : this.length;
    return this.beforeLineBreak(Math.min(lineStart + position.character, next), lineStart);
  }

  positionAt(offset: number): Position {
    const at = Math.max(Math.min(offset, this.length), 0);
    const starts = this.starts();
    let low = 0;
    let high = starts.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (starts[mid] > at) high = mid;
      else low = mid + 1;
    }
    const line = low - 1;
    return { line, character: this.beforeLineBreak(at, starts[line]) - starts[line] };
  }

  /** The range of a line without its line break (a line past the end: the last line; before the start: an empty range at 0). */
  getLineRange(line: number): Range {
    const starts = this.starts();
    if (line >= starts.length) {
      const last = starts.length - 1;
      return { start: { line: last, character: 0 }, end: { line: last, character: this.length - starts[last] } };
    }
    if (line < 0) return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const next = line + 1 < starts.length ? starts[line + 1] : this.length;
    return { start: { line, character: 0 }, end: { line, character: this.beforeLineBreak(next, starts[line]) - starts[line] } };
  }

  /** The line break that ends a line ('' for the last line and lines out of range). */
  getEOLCharacters(line: number): string {
    const starts = this.starts();
    if (line < 0 || line >= starts.length) return '';
    const next = line + 1 < starts.length ? starts[line + 1] : this.length;
    return this.getText().substring(this.beforeLineBreak(next, starts[line]), next);
  }

  /** Applies the editor's changes in order and takes `version`. */
  update(changes: readonly TextDocumentContentChangeEvent[], version: number): void {
    for (const change of changes) {
      if ('range' in change && change.range) this.replace(wellFormed(change.range), change.text);
      else {
        this.pieces = change.text.length > 0 ? [change.text] : [];
        this.length = change.text.length;
        this.lineStarts = undefined;
      }
    }
    this.currentVersion = version;
  }

  private replace(range: Range, text: string): void {
    const start = this.offsetAt(range.start);
    const end = this.offsetAt(range.end);
    this.splice(start, end, text);
    const insertedEnd = start + text.length;
    // A `\r` and a `\n` that meet across the edit make one line break: the line starts are found again when next asked for.
    if ((this.charCodeAt(start - 1) === CR && this.charCodeAt(start) === LF) || (this.charCodeAt(insertedEnd - 1) === CR && this.charCodeAt(insertedEnd) === LF)) {
      this.lineStarts = undefined;
      return;
    }
    const starts = this.lineStarts;
    if (!starts) return;
    const startLine = Math.max(range.start.line, 0);
    const endLine = Math.max(range.end.line, 0);
    const added = lineStartsOf(text, start);
    // A paste of many lines: its line starts are found again when next asked for (a call takes a bounded number of arguments).
    if (added.length > 10_000) {
      this.lineStarts = undefined;
      return;
    }
    starts.splice(startLine + 1, endLine - startLine, ...added);
    const grew = text.length - (end - start);
    if (grew !== 0) for (let i = startLine + 1 + added.length; i < starts.length; i++) starts[i] += grew;
  }

  /** Replaces [start, end) with `text` in the pieces. */
  private splice(start: number, end: number, text: string): void {
    const pieces = this.pieces;
    let first = 0;
    let firstAt = 0;
    while (first < pieces.length - 1 && firstAt + pieces[first].length < start) firstAt += pieces[first++].length;
    let last = first;
    let lastAt = firstAt;
    while (last < pieces.length - 1 && lastAt + pieces[last].length < end) lastAt += pieces[last++].length;
    const before = pieces.length > 0 ? pieces[first].slice(0, start - firstAt) : '';
    const after = pieces.length > 0 ? pieces[last].slice(end - lastAt) : '';
    const middle: string[] = [];
    let pending = before;
    for (const part of [text, after]) {
      // Only small pieces are joined: a small one added to a big one would make a text that the next slice of it copies whole.
      if (part.length === 0 || pending.length === 0 || (pending.length < smallPiece && part.length < smallPiece)) pending += part;
      else {
        middle.push(pending);
        pending = part;
      }
    }
    if (pending.length > 0) middle.push(pending);
    pieces.splice(first, pieces.length > 0 ? last - first + 1 : 0, ...middle);
    this.length += text.length - (end - start);
  }

  private charCodeAt(offset: number): number {
    if (offset < 0 || offset >= this.length) return NaN;
    let at = 0;
    for (const piece of this.pieces) {
      if (offset < at + piece.length) return piece.charCodeAt(offset - at);
      at += piece.length;
    }
    return NaN;
  }

  /** `offset` moved back over the line break it follows, but not before `lineStart`. */
  private beforeLineBreak(offset: number, lineStart: number): number {
    let at = offset;
    while (at > lineStart && isLineBreak(this.charCodeAt(at - 1))) at--;
    return at;
  }

  private starts(): number[] {
    this.lineStarts ??= [0, ...lineStartsOf(this.getText(), 0)];
    return this.lineStarts;
  }
}

/** The offsets (plus `base`) just after each line break of `text`; `\r\n` is one break. */
function lineStartsOf(text: string, base: number): number[] {
  const starts: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code !== CR && code !== LF) continue;
    if (code === CR && text.charCodeAt(i + 1) === LF) i++;
    starts.push(base + i + 1);
  }
  return starts;
}

function isLineBreak(code: number): boolean {
  return code === CR || code === LF;
}

function wellFormed(range: Range): Range {
  const { start, end } = range;
  return start.line > end.line || (start.line === end.line && start.character > end.character) ? { start: end, end: start } : range;
}
