/**
 * `file:line` references in hover and completion markdown, written as links an editor can
 * open: `[apps/x.yaml:7](apps/x.yaml#L7)`. The target is relative to the workspace root,
 * which the core does not know; the LSP layer makes it a file URI (lsp/convert.ts
 * absoluteLinks). `#L7` is the fragment VS Code's link opener reads as a line.
 */
export function fileLineLink(file: string, line: number): string {
  const label = `${file}:${line}`.replace(/[[\]\\]/g, '\\$&');
  return `[${label}](${encodeURI(file).replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}#L${line})`;
}

/** Link targets fileLineLink writes: relative (no scheme), with a `#L<line>` fragment. */
export const relativeLineLink = /\]\((?![a-zA-Z][a-zA-Z0-9+.-]*:)([^()\s#]+)#L(\d+)\)/g;
