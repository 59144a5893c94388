/** Offsets to 0-based lines and UTF-16 columns, for adapters that print positions. */
export interface Position {
  line: number;
  character: number;
}

export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) this.starts.push(i + 1);
      else if (c === 13 && text.charCodeAt(i + 1) !== 10) this.starts.push(i + 1);
    }
  }

  positionAt(offset: number): Position {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.starts[mid] <= offset) low = mid;
      else high = mid - 1;
    }
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
