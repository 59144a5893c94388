/** Offsets to 0-based lines and UTF-16 columns, for adapters that print positions. */
export interface Position {
  line: number;
  character: number;
}

/**
 * Line starts of a text, with positions as LSP's TextDocument gives them: `\n`, `\r\n` and a
 * lone `\r` end a line, offsets are clamped to the text, and an offset inside a `\r\n` is
 * taken to the line's end.
 */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(readonly text: string) {
    // Most texts have no `\r`: indexOf finds each `\n` natively, about three times as fast
    // as visiting every character (the 10k-line bench manifest: 2 against 5 ms, cold).
    if (!text.includes('\r')) {
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
      return;
    }
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) this.starts.push(i + 1);
      else if (c === 13 && text.charCodeAt(i + 1) !== 10) this.starts.push(i + 1);
    }
  }

  positionAt(offset: number): Position {
    offset = Math.max(0, Math.min(offset, this.text.length));
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.starts[mid] <= offset) low = mid;
      else high = mid - 1;
    }
    // Between a `\r` and its `\n`: the end of the line, before its break.
    if (offset > this.starts[low] && this.text.charCodeAt(offset - 1) === 13) offset--;
    return { line: low, character: offset - this.starts[low] };
  }

  /** The text of a 0-based line without its line break. */
  lineText(line: number): string {
    const start = this.starts[line] ?? this.text.length;
    const end = this.starts[line + 1] ?? this.text.length;
    return this.text.slice(start, end).replace(/\r?\n$|\r$/, '');
  }

  get lineCount(): number {
    return this.starts.length;
  }
}
