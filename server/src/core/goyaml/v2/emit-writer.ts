/**
 * The output side of go-yaml v2's emitter: the text so far, the column, the current indent and
 * the two flags libyaml uses to decide where spaces and line breaks go (`whitespace`: the last
 * thing written was whitespace; `indention`: only indentation has been written on this line).
 * The structure walk (marshal.ts) and the scalar writers (emit-scalars.ts) drive it exactly as
 * the emitter's state machine would for a block-style document.
 */
export class V2Writer {
  /** go-yaml v2's fixed settings: indent 2, wrap once past column 80. */
  static readonly bestIndent = 2;
  static readonly bestWidth = 80;

  /** Columns count characters (code points), as go-yaml's `write` does. */
  column = 0;
  indent = -1;
  whitespace = true;
  indention = true;

  private text = '';
  private readonly indents: number[] = [];

  output(): string {
    return this.text;
  }

  /** Appends text holding no line breaks, `width` characters wide. */
  write(chunk: string, width: number): void {
    this.text += chunk;
    this.column += width;
  }

  putBreak(): void {
    this.text += '\n';
    this.column = 0;
    this.indention = true;
  }

  /**
   * Copies a line break from a scalar. A `\n` is a normal break; NEL, LS, PS and CR are copied
   * as they are but still start a new line as far as the column is concerned. Either way the
   * new line holds only indentation so far (`indention`).
   */
  writeBreak(ch: string): void {
    if (ch === '\n') {
      this.putBreak();
      return;
    }
    this.text += ch;
    this.column = 0;
    this.indention = true;
  }

  increaseIndent(flow: boolean, indentless: boolean): void {
    this.indents.push(this.indent);
    if (this.indent < 0) this.indent = flow ? V2Writer.bestIndent : 0;
    else if (!indentless) this.indent += V2Writer.bestIndent;
  }

  popIndent(): void {
    this.indent = this.indents.pop() as number;
  }

  writeIndicator(indicator: string, needWhitespace: boolean, isWhitespace: boolean, isIndention: boolean): void {
    if (needWhitespace && !this.whitespace) this.write(' ', 1);
    this.write(indicator, indicator.length);
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
  }

  /** Moves to the current indent, starting a new line unless the line holds only indentation so far. */
  writeIndent(): void {
    const indent = this.indent < 0 ? 0 : this.indent;
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace)) this.putBreak();
    if (this.column < indent) this.write(' '.repeat(indent - this.column), indent - this.column);
    this.whitespace = true;
    this.indention = true;
  }
}
