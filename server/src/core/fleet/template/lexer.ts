/**
 * A lexer for Go's text/template with configurable delimiters, following the states of
 * text/template/parse/lex.go: text, delimiters with `-` trim markers, comments, and inside an
 * action spaces, fields, variables, strings, numbers, parentheses and keywords. It stops at
 * the first error, which it reports with Go's wording.
 *
 * Offsets are UTF-16 indices into the template text.
 */

export type ItemType =
  | 'error'
  | 'bool'
  | 'char'
  | 'charConstant'
  | 'comment'
  | 'declare'
  | 'assign'
  | 'eof'
  | 'field'
  | 'identifier'
  | 'leftDelim'
  | 'leftParen'
  | 'number'
  | 'pipe'
  | 'rawString'
  | 'rightDelim'
  | 'rightParen'
  | 'space'
  | 'string'
  | 'text'
  | 'variable'
  | 'dot'
  | 'nil'
  | 'keyword';

export interface Item {
  type: ItemType;
  /** Start offset of the item. */
  pos: number;
  end: number;
  /** The item's text; for an error, the message. */
  val: string;
}

export const keywords = new Set(['block', 'break', 'continue', 'define', 'else', 'end', 'if', 'range', 'template', 'with']);

const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\r' || c === '\n';
const isAlphaNumeric = (c: string | undefined) => c !== undefined && (c === '_' || /^[\p{L}\p{Nd}]$/u.test(c));

const leftComment = '/*';
const rightComment = '*/';

export function lex(input: string, leftDelim = '{{', rightDelim = '}}'): Item[] {
  const items: Item[] = [];
  let pos = 0;
  let start = 0;
  let parenDepth = 0;

  const emit = (type: ItemType) => {
    items.push({ type, pos: start, end: pos, val: input.slice(start, pos) });
    start = pos;
  };
  const fail = (message: string) => {
    items.push({ type: 'error', pos: start, end: Math.max(pos, start + 1), val: message });
  };
  const hasLeftTrim = (at: number) => input[at] === '-' && isSpace(input[at + 1]);
  const hasRightTrim = (at: number) => isSpace(input[at]) && input[at + 1] === '-';
  const atRightDelim = (): { delim: boolean; trim: boolean } => {
    if (hasRightTrim(pos) && input.startsWith(rightDelim, pos + 2)) return { delim: true, trim: true };
    return { delim: input.startsWith(rightDelim, pos), trim: false };
  };
  const atTerminator = () => {
    const c = input[pos];
    if (c === undefined || isSpace(c) || '.,|:)('.includes(c)) return true;
    return input.startsWith(rightDelim, pos);
  };
  const trimLeftSpace = () => {
    while (isSpace(input[pos])) pos++;
  };
  /** The text before `end`, without trailing spaces when a trim marker asks for it. */
  const textBefore = (end: number, trim: boolean) => {
    let cut = end;
    if (trim) while (cut > start && isSpace(input[cut - 1])) cut--;
    if (cut > start) items.push({ type: 'text', pos: start, end: cut, val: input.slice(start, cut) });
  };
  const charName = (c: string) => {
    const cp = c.codePointAt(0) ?? 0;
    return `U+${cp.toString(16).toUpperCase().padStart(4, '0')} '${c}'`;
  };

  // Each loop turn is one state of Go's lexer; `return` ends lexing after an error or EOF.
  for (;;) {
    // Text up to the next left delimiter.
    const next = input.indexOf(leftDelim, pos);
    if (next < 0) {
      pos = input.length;
      if (pos > start) emit('text');
      items.push({ type: 'eof', pos, end: pos, val: '' });
      return items;
    }
    const afterDelim = next + leftDelim.length;
    const trim = hasLeftTrim(afterDelim);
    textBefore(next, trim);
    start = next;
    pos = afterDelim;
    const afterMarker = trim ? 2 : 0;
    if (input.startsWith(leftComment, pos + afterMarker)) {
      // A comment must close right before the right delimiter.
      pos += afterMarker;
      start = next;
      const close = input.indexOf(rightComment, pos + leftComment.length);
      if (close < 0) return fail('unclosed comment'), items;
      pos = close + rightComment.length;
      const right = atRightDelim();
      if (!right.delim) return fail('comment ends before closing delimiter'), items;
      pos += (right.trim ? 2 : 0) + rightDelim.length;
      emit('comment');
      if (right.trim) trimLeftSpace();
      start = pos;
      continue;
    }
    items.push({ type: 'leftDelim', pos: next, end: afterDelim, val: leftDelim });
    pos += afterMarker;
    start = pos;
    parenDepth = 0;
    if (!lexAction()) return items;
  }

  /** Inside an action, up to and including the right delimiter; false after an error. */
  function lexAction(): boolean {
    for (;;) {
      const right = atRightDelim();
      if (right.delim) {
        if (parenDepth > 0) return fail('unclosed left paren'), false;
        if (right.trim) {
          pos += 2;
          start = pos;
        }
        pos += rightDelim.length;
        emit('rightDelim');
        if (right.trim) {
          trimLeftSpace();
          start = pos;
        }
        return true;
      }
      const c = input[pos];
      if (c === undefined) return fail('unclosed action'), false;
      pos++;
      if (isSpace(c)) {
        pos--;
        let spaces = 0;
        while (isSpace(input[pos])) {
          pos++;
          spaces++;
        }
        // A trim-marked right delimiter starts with a space: leave that space to it.
        if (hasRightTrim(pos - 1) && input.startsWith(rightDelim, pos + 1)) {
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
          if (input[pos] !== '=') return fail('expected :='), false;
          pos++;
          emit('declare');
          continue;
        case '|':
          emit('pipe');
          continue;
        case '"':
          if (!quoted('"', 'unterminated quoted string')) return false;
          emit('string');
          continue;
        case '`': {
          const close = input.indexOf('`', pos);
          if (close < 0) return (pos = input.length), fail('unterminated raw quoted string'), false;
          pos = close + 1;
          emit('rawString');
          continue;
        }
        case '$':
          if (!fieldOrVariable('variable')) return false;
          continue;
        case "'":
          if (!quoted("'", 'unterminated character constant')) return false;
          emit('charConstant');
          continue;
        case '(':
          parenDepth++;
          emit('leftParen');
          continue;
        case ')':
          parenDepth--;
          if (parenDepth < 0) return fail('unexpected right paren'), false;
          emit('rightParen');
          continue;
      }
      if (c === '.' && !(input[pos] !== undefined && input[pos] >= '0' && input[pos] <= '9')) {
        if (!fieldOrVariable('field')) return false;
        continue;
      }
      if (c === '.' || c === '+' || c === '-' || (c >= '0' && c <= '9')) {
        pos--;
        if (!number()) return false;
        continue;
      }
      if (isAlphaNumeric(c)) {
        while (isAlphaNumeric(input[pos])) pos++;
        const word = input.slice(start, pos);
        if (!atTerminator()) return fail(`bad character ${charName(input[pos] ?? '')}`), false;
        emit(keywords.has(word) ? 'keyword' : word === 'true' || word === 'false' ? 'bool' : word === 'nil' ? 'nil' : 'identifier');
        continue;
      }
      const code = c.charCodeAt(0);
      if (code >= 0x20 && code < 0x7f) {
        emit('char');
        continue;
      }
      return fail(`unrecognized character in action: ${charName(c)}`), false;
    }
  }

  /** After `.` or `$`: a name, or the bare `.`/`$`. */
  function fieldOrVariable(type: 'field' | 'variable'): boolean {
    if (atTerminator()) {
      emit(type === 'variable' ? 'variable' : 'dot');
      return true;
    }
    while (isAlphaNumeric(input[pos])) pos++;
    if (!atTerminator()) return fail(`bad character ${charName(input[pos] ?? '')}`), false;
    emit(type);
    return true;
  }

  function quoted(quote: string, unterminated: string): boolean {
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
  }

  /** Go's scanNumber: sign, base prefix, digits with `_`, fraction, exponent, `i`. */
  function number(): boolean {
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
  }
}

/** An item as Go's parser names it in "unexpected …" errors. */
export function describeItem(item: Item): string {
  if (item.type === 'eof') return 'EOF';
  if (item.type === 'error') return item.val;
  if (item.type === 'keyword') return `<${item.val}>`;
  const quoted = JSON.stringify(item.val);
  return item.val.length > 10 ? `${JSON.stringify(item.val.slice(0, 10))}...` : quoted;
}
