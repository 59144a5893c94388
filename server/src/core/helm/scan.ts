/**
 * Finds the actions of a Go template (`{{ … }}`) with their positions, the way text/template's
 * lexer delimits them: `{{- ` and ` -}}` trim the whitespace around an action (the dash must
 * touch a space), `{{/* … *\/}}` is a comment that must close right before `}}`, and `}}`
 * inside a quoted or raw string does not end the action. Since Go 1.16 an action may span lines.
 */

export interface TemplateAction {
  /** Offset of `{{`. */
  start: number;
  /** Offset just past `}}`. */
  end: number;
  /** The text between the delimiters and trim markers. */
  bodyStart: number;
  bodyEnd: number;
  /** `{{-`: the whitespace before the action is removed. */
  trimLeft: boolean;
  /** `-}}`: the whitespace after the action is removed. */
  trimRight: boolean;
  comment: boolean;
}

export interface TemplateScan {
  actions: TemplateAction[];
  /** The first lexical error, as text/template words it; scanning stops there. */
  error?: { offset: number; message: string };
}

const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\r' || c === '\n';

/** `{{-` needs a space after the dash (`{{-3}}` is the number -3). */
function trimMarkerAfter(text: string, at: number): boolean {
  return text[at] === '-' && isSpace(text[at + 1]);
}

/** Whether `}}` (or ` -}}`) starts at `at`; returns the length of the closing text. */
function rightDelimAt(text: string, at: number): { length: number; trim: boolean } | undefined {
  if (isSpace(text[at]) && text[at + 1] === '-' && text.startsWith('}}', at + 2)) return { length: 4, trim: true };
  if (text.startsWith('}}', at)) return { length: 2, trim: false };
  return undefined;
}

export function scanActions(text: string): TemplateScan {
  const actions: TemplateAction[] = [];
  let at = 0;
  for (;;) {
    const start = text.indexOf('{{', at);
    if (start < 0) return { actions };
    const trimLeft = trimMarkerAfter(text, start + 2);
    const body = start + 2 + (trimLeft ? 1 : 0);
    // A comment may follow the trim marker's space.
    const afterSpace = trimLeft ? body + 1 : body;
    if (text.startsWith('/*', afterSpace)) {
      const close = text.indexOf('*/', afterSpace + 2);
      if (close < 0) return { actions, error: { offset: start, message: 'unclosed comment' } };
      const delim = rightDelimAt(text, close + 2);
      if (!delim) return { actions, error: { offset: start, message: 'comment ends before closing delimiter' } };
      const end = close + 2 + delim.length;
      actions.push({ start, end, bodyStart: afterSpace, bodyEnd: close + 2, trimLeft, trimRight: delim.trim, comment: true });
      at = end;
      continue;
    }
    const closed = findClose(text, body);
    if ('error' in closed) return { actions, error: { offset: start, message: closed.error } };
    const delim = closed.delim;
    actions.push({ start, end: closed.at + delim.length, bodyStart: body, bodyEnd: closed.at, trimLeft, trimRight: delim.trim, comment: false });
    at = closed.at + delim.length;
  }
}

/** Walks an action's body to its closing delimiter, stepping over strings and parentheses. */
function findClose(text: string, from: number): { at: number; delim: { length: number; trim: boolean } } | { error: string } {
  let depth = 0;
  let i = from;
  while (i < text.length) {
    const delim = rightDelimAt(text, i);
    if (delim) {
      if (depth === 0) return { at: i, delim };
      return { error: 'unclosed left paren' };
    }
    const c = text[i];
    if (c === '"' || c === "'") {
      const end = quotedEnd(text, i, c);
      if (end < 0) return { error: c === '"' ? 'unterminated quoted string' : 'unterminated character constant' };
      i = end;
      continue;
    }
    if (c === '`') {
      const end = text.indexOf('`', i + 1);
      if (end < 0) return { error: 'unterminated raw quoted string' };
      i = end + 1;
      continue;
    }
    if (c === '(') depth++;
    else if (c === ')') {
      if (depth === 0) return { error: `unexpected right paren` };
      depth--;
    }
    i++;
  }
  return { error: 'unclosed action' };
}

/** The offset past a `"…"` or `'…'` token starting at `at`, or -1 when it is not closed on its line. */
function quotedEnd(text: string, at: number, quote: string): number {
  for (let i = at + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '\n') return -1;
    if (c === quote) return i + 1;
  }
  return -1;
}

/** The action whose delimiters enclose `offset` (end exclusive), if any. */
export function actionAt(actions: readonly TemplateAction[], offset: number): TemplateAction | undefined {
  return actions.find((a) => offset >= a.start && offset < a.end);
}

/** Length of the whitespace run Go's trim markers remove (space, tab, CR, LF). */
export function leadingSpace(text: string, from: number, to: number): number {
  let i = from;
  while (i < to && isSpace(text[i])) i++;
  return i - from;
}

export function trailingSpace(text: string, from: number, to: number): number {
  let i = to;
  while (i > from && isSpace(text[i - 1])) i--;
  return to - i;
}
