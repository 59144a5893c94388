/** Small helpers rules share for quoting source text in messages. */

/** Shows `text` in a message as inline code, shortened to one line of reasonable length. */
export function code(text: string, max = 40): string {
  const oneLine = text.replace(/\r?\n[\s\S]*$/, '…');
  const short = oneLine.length > max ? oneLine.slice(0, max - 1) + '…' : oneLine;
  return '`' + short.replace(/`/g, "'") + '`';
}
