/**
 * Go's text/template lexer (text/template/parse/lex.go) for any pair of delimiters.
 * `scanActions` finds the actions of a template with their positions the way the lexer
 * delimits them: `{{- ` and ` -}}` trim the whitespace around an action (the dash must touch a
 * space), `{{/* … *\/}}` is a comment that must close right before `}}`, and a delimiter inside
 * a quoted or raw string does not end the action. `lexAction` reads the tokens of one action
 * with Go's rules and messages. A token error (`bad number syntax`) spoils only its action;
 * an action whose end cannot be found (`unclosed action`) stops the scan, as in Go.
 *
 * Offsets are UTF-16 indices into the template text.
 */
import type { Dialect } from './dialect';

export interface TemplateAction {
  /** Offset of the left delimiter. */
  start: number;
  /** Offset just past the right delimiter. */
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

/** A place where a template does not parse, in Go's words. */
export interface TemplateError {
  message: string;
  pos: number;
  end: number;
  /** For "unexpected EOF": the keyword whose `end` is missing (the error points at it). */
  unclosed?: string;
  /** Past Render Lens's bound (limits.ts), not Go's error: the product may well parse it. */
  limit?: boolean;
}

export interface TemplateScan {
  actions: TemplateAction[];
  /** The action whose end cannot be found, and Go's error for it; scanning stops there. */
  error?: TemplateError & { action: { start: number; bodyStart: number; comment: boolean } };
}

export type TokenType =
  | 'error'
  | 'bool'
  | 'char'
  | 'charConstant'
  | 'declare'
  | 'assign'
  | 'field'
  | 'identifier'
  | 'leftParen'
  | 'number'
  | 'pipe'
  | 'rawString'
  | 'rightDelim'
  | 'rightParen'
  | 'space'
  | 'string'
  | 'variable'
  | 'dot'
  | 'nil'
  | 'keyword';

export interface Token {
  type: TokenType;
  pos: number;
  end: number;
  /** The token's text; for an error, the message. */
  val: string;
}

export const keywords = new Set(['block', 'break', 'continue', 'define', 'else', 'end', 'if', 'range', 'template', 'with']);

const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\r' || c === '\n';
const unicodeAlnum = /[\p{L}\p{Nd}]/u;
/** Go's identifier characters: letters, digits, `_` (ASCII checked without a regexp). */
function isAlphaNumeric(c: string | undefined): boolean {
  if (c === undefined) return false;
  const code = c.charCodeAt(0);
  if (code < 0x80) return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f;
  return unicodeAlnum.test(c);
}

/** `{{-` needs a space after the dash (`{{-3}}` is the number -3). */
const leftTrimAt = (text: string, at: number) => text[at] === '-' && isSpace(text[at + 1]);

/** Whether the right delimiter (or ` -` and the delimiter) starts at `at`; with the length of the closing text. */
function rightDelimAt(text: string, at: number, right: string): { length: number; trim: boolean } | undefined {
  if (isSpace(text[at]) && text[at + 1] === '-' && text.startsWith(right, at + 2)) return { length: 2 + right.length, trim: true };
  if (text.startsWith(right, at)) return { length: right.length, trim: false };
  return undefined;
}

/** With `tokens`, each action's tokens are handed over too (a comment's are empty), so that they need not be read twice. */
export function scanActions(text: string, dialect: Dialect, tokens?: Token[][]): TemplateScan {
  const { leftDelim: left, rightDelim: right } = dialect;
  const actions: TemplateAction[] = [];
  let at = 0;
  for (;;) {
    const start = text.indexOf(left, at);
    if (start < 0) return { actions };
    const trimLeft = leftTrimAt(text, start + left.length);
    const bodyStart = start + left.length + (trimLeft ? 1 : 0);
    // A comment may follow the trim marker's space.
    const afterSpace = trimLeft ? bodyStart + 1 : bodyStart;
    if (text.startsWith('/*', afterSpace)) {
      const close = text.indexOf('*/', afterSpace + 2);
      if (close < 0) return { actions, error: { message: 'unclosed comment', pos: start, end: afterSpace, action: { start, bodyStart, comment: true } } };
      const delim = rightDelimAt(text, close + 2, right);
      if (!delim) return { actions, error: { message: 'comment ends before closing delimiter', pos: start, end: close + 2, action: { start, bodyStart, comment: true } } };
      const end = close + 2 + delim.length;
      actions.push({ start, end, bodyStart: afterSpace, bodyEnd: close + 2, trimLeft, trimRight: delim.trim, comment: true });
      tokens?.push([]);
      at = end;
      continue;
    }
    const read = lexAction(text, bodyStart, dialect);
    const last = read[read.length - 1];
    // After a token error the action still ends where its right delimiter is: only it is spoilt.
    const close = last.type === 'rightDelim' ? closeOf(text, last, bodyStart, right) : actionClose(text, bodyStart, right);
    if (close === undefined) return { actions, error: { ...errorAt(last, start, left), action: { start, bodyStart, comment: false } } };
    actions.push({ start, end: close.at + close.length, bodyStart, bodyEnd: close.at, trimLeft, trimRight: close.trim, comment: false });
    tokens?.push(read);
    at = close.at + close.length;
  }
}

/** Where the right delimiter token starts, with its trim marker. */
function closeOf(text: string, token: Token, bodyStart: number, right: string): { at: number; length: number; trim: boolean } {
  const trimmed = token.pos - 2 >= bodyStart && rightDelimAt(text, token.pos - 2, right)?.trim === true;
  const at = trimmed ? token.pos - 2 : token.pos;
  return { at, length: token.end - at, trim: trimmed };
}

/**
 * A lexer error where the author can act on it: an action that does not close is shown at the
 * delimiter that opened it, other errors where the lexer stopped.
 */
export function errorAt(token: Token, actionStart: number, left: string): TemplateError {
  const opened = /^unclosed (action|left paren)$/.test(token.val) || token.val === 'unterminated raw quoted string';
  return opened ? { message: token.val, pos: actionStart, end: actionStart + left.length } : { message: token.val, pos: token.pos, end: token.end };
}

/** Walks an action's body to its right delimiter, stepping over strings and parentheses (after a token error). */
function actionClose(text: string, from: number, right: string): { at: number; length: number; trim: boolean } | undefined {
  let depth = 0;
  let i = from;
  while (i < text.length) {
    const delim = rightDelimAt(text, i, right);
    if (delim) return depth === 0 ? { at: i, ...delim } : undefined;
    const c = text[i];
    if (c === '"' || c === "'") {
      const end = quotedEnd(text, i, c);
      if (end < 0) return undefined;
      i = end;
      continue;
    }
    if (c === '`') {
      const end = text.indexOf('`', i + 1);
      if (end < 0) return undefined;
      i = end + 1;
      continue;
    }
    if (c === '(') depth++;
    else if (c === ')' && --depth < 0) return undefined;
    i++;
  }
  return undefined;
}

/** The offset past a `"…"` or `'…'` token starting at `at`, or -1 when it is not closed on its line. */
function quotedEnd(text: string, at: number, quote: string): number {
  for (let i = at + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && text[i + 1] !== undefined && text[i + 1] !== '\n') i++;
    else if (c === '\n' || c === '\\') return -1;
    else if (c === quote) return i + 1;
  }
  return -1;
}

const charName = (c: string) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')} '${c}'`;

/**
 * The tokens of one action from `from` (just past the left delimiter and trim marker), ending
 * with its `rightDelim` or with an `error` token carrying Go's message.
 */
export function lexAction(input: string, from: number, dialect: Dialect): Token[] {
  const right = dialect.rightDelim;
  const tokens: Token[] = [];
  let pos = from;
  let start = from;
  let parenDepth = 0;

  const emit = (type: TokenType) => {
    tokens.push({ type, pos: start, end: pos, val: input.slice(start, pos) });
    start = pos;
  };
  const fail = (message: string): Token[] => {
    tokens.push({ type: 'error', pos: start, end: Math.max(pos, start + 1), val: message });
    return tokens;
  };
  const atTerminator = () => {
    const c = input[pos];
    if (c === undefined || isSpace(c) || '.,|:)('.includes(c)) return true;
    return input.startsWith(right, pos);
  };

  /** After `.` or `$`: a name, or the bare `.`/`$`. */
  const fieldOrVariable = (type: 'field' | 'variable'): boolean => {
    if (atTerminator()) {
      emit(type === 'variable' ? 'variable' : 'dot');
      return true;
    }
    while (isAlphaNumeric(input[pos])) pos++;
    if (!atTerminator()) return fail(`bad character ${charName(input[pos] ?? '')}`), false;
    emit(type);
    return true;
  };

  const quoted = (quote: string, unterminated: string): boolean => {
    for (;;) {
      const c = input[pos++];
      if (c === '\\') {
        const escaped = input[pos++];
        if (escaped !== undefined && escaped !== '\n') continue;
      }
      if (c === undefined || c === '\n' || c === '\\') {
        pos = Math.min(pos, input.length);
        fail(unterminated);
        return false;
      }
      if (c === quote) return true;
    }
  };

  /** Go's scanNumber: sign, base prefix, digits with `_`, fraction, exponent, `i`. */
  const number = (): boolean => {
    const accept = (chars: string) => (input[pos] !== undefined && chars.includes(input[pos]) ? (pos++, true) : false);
    const acceptRun = (chars: string) => {
      while (input[pos] !== undefined && chars.includes(input[pos])) pos++;
    };
    const scan = (): boolean => {
      accept('+-');
      let digits = '0123456789_';
      if (accept('0')) {
        if (accept('xX')) digits = '0123456789abcdefABCDEF_';
        else if (accept('oO')) digits = '01234567_';
        else if (accept('bB')) digits = '01_';
      }
      acceptRun(digits);
      if (accept('.')) acceptRun(digits);
      if (digits.length === 11 && accept('eE')) {
        accept('+-');
        acceptRun('0123456789_');
      }
      if (digits.length === 23 && accept('pP')) {
        accept('+-');
        acceptRun('0123456789_');
      }
      accept('i');
      if (isAlphaNumeric(input[pos])) {
        pos++;
        return false;
      }
      return true;
    };
    if (!scan()) return fail(`bad number syntax: ${JSON.stringify(input.slice(start, pos))}`), false;
    if (input[pos] === '+' || input[pos] === '-') {
      if (!scan() || input[pos - 1] !== 'i') return fail(`bad number syntax: ${JSON.stringify(input.slice(start, pos))}`), false;
    }
    emit('number');
    return true;
  };

  for (;;) {
    const delim = rightDelimAt(input, pos, right);
    if (delim) {
      if (parenDepth > 0) return fail('unclosed left paren');
      // The token is the delimiter itself, after any trim marker.
      if (delim.trim) start = pos + 2;
      pos += delim.length;
      emit('rightDelim');
      return tokens;
    }
    const c = input[pos];
    if (c === undefined) return fail('unclosed action');
    pos++;
    if (isSpace(c)) {
      pos--;
      let spaces = 0;
      while (isSpace(input[pos])) {
        pos++;
        spaces++;
      }
      // A trim-marked right delimiter starts with a space: leave that space to it.
      if (input[pos - 1] !== undefined && isSpace(input[pos - 1]) && input[pos] === '-' && input.startsWith(right, pos + 1)) {
        pos--;
        if (spaces === 1) continue;
      }
      emit('space');
      continue;
    }
    switch (c) {
      case '=':
        emit('assign');
        continue;
      case ':':
        if (input[pos] !== '=') return fail('expected :=');
        pos++;
        emit('declare');
        continue;
      case '|':
        emit('pipe');
        continue;
      case '"':
        if (!quoted('"', 'unterminated quoted string')) return tokens;
        emit('string');
        continue;
      case '`': {
        const close = input.indexOf('`', pos);
        if (close < 0) return (pos = input.length), fail('unterminated raw quoted string');
        pos = close + 1;
        emit('rawString');
        continue;
      }
      case '$':
        if (!fieldOrVariable('variable')) return tokens;
        continue;
      case "'":
        if (!quoted("'", 'unterminated character constant')) return tokens;
        emit('charConstant');
        continue;
      case '(':
        parenDepth++;
        emit('leftParen');
        continue;
      case ')':
        if (--parenDepth < 0) return fail('unexpected right paren');
        emit('rightParen');
        continue;
    }
    if (c === '.' && !(input[pos] !== undefined && input[pos] >= '0' && input[pos] <= '9')) {
      if (!fieldOrVariable('field')) return tokens;
      continue;
    }
    if (c === '.' || c === '+' || c === '-' || (c >= '0' && c <= '9')) {
      pos--;
      if (!number()) return tokens;
      continue;
    }
    if (isAlphaNumeric(c)) {
      while (isAlphaNumeric(input[pos])) pos++;
      const word = input.slice(start, pos);
      if (!atTerminator()) return fail(`bad character ${charName(input[pos] ?? '')}`);
      emit(keywords.has(word) ? 'keyword' : word === 'true' || word === 'false' ? 'bool' : word === 'nil' ? 'nil' : 'identifier');
      continue;
    }
    const code = c.charCodeAt(0);
    if (code >= 0x20 && code < 0x7f) {
      emit('char');
      continue;
    }
    return fail(`unrecognized character in action: ${charName(c)}`);
  }
}

/** A token as Go's parser names it in "unexpected …" errors. */
export function describeToken(token: Token): string {
  if (token.type === 'error') return token.val;
  if (token.type === 'keyword') return `<${token.val}>`;
  const quoted = JSON.stringify(token.val);
  return token.val.length > 10 ? `${JSON.stringify(token.val.slice(0, 10))}...` : quoted;
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
