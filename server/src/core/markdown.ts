/** Markdown for hovers and messages. */

/** Inline code that survives backticks and is kept short. */
export function codeSpan(text: string, max = 60): string {
  const short = text.length > max ? `${text.slice(0, max - 1)}…` : text;
  const fence = short.includes('`') ? '``' : '`';
  return `${fence}${short.includes('`') ? ` ${short} ` : short}${fence}`;
}
