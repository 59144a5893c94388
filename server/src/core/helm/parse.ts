/**
 * Parses the body of one Go-template action: a control keyword (`if`, `with`, `range`,
 * `else`, `end`, `define`, `template`, `block`, `break`, `continue`) or a pipeline of
 * commands joined by `|`, following text/template's grammar. Every node keeps its source
 * offsets, so rules can point at a function name or append `| quote` after the last command.
 */
import { maxTemplateParenDepth } from '../limits';
import type { TemplateAction } from './scan';

export type Term =
  /** `.a.b`; a bare `.` has an empty path. */
  | { kind: 'field'; path: string[]; start: number; end: number }
  /** `$`, `$x`, `$x.a.b`. */
  | { kind: 'variable'; name: string; path: string[]; start: number; end: number }
  | { kind: 'function'; name: string; start: number; end: number }
  | { kind: 'string'; value: string; start: number; end: number }
  | { kind: 'number'; text: string; value: number; isInt: boolean; start: number; end: number }
  | { kind: 'bool'; value: boolean; start: number; end: number }
  | { kind: 'nil'; start: number; end: number }
  /** `( … )` with an optional field chain after it: `(.Values.a).b`. */
  | { kind: 'pipeline'; pipeline: Pipeline; path: string[]; start: number; end: number };

export interface Command {
  args: Term[];
  start: number;
  end: number;
}

export interface Pipeline {
  /** Variables declared (`:=`) or assigned (`=`); such a pipeline prints nothing. */
  declarations: string[];
  assign: boolean;
  commands: Command[];
  start: number;
  end: number;
}

export type ActionNode =
  | { type: 'output'; pipeline: Pipeline }
  | { type: 'if' | 'with' | 'range'; pipeline: Pipeline }
  | { type: 'else'; chain?: { type: 'if' | 'with'; pipeline: Pipeline } }
  | { type: 'end' | 'break' | 'continue' | 'comment' }
  | { type: 'define'; name: string }
  | { type: 'template' | 'block'; name: string; pipeline?: Pipeline }
  /** `limit`: Render Lens does not follow this action (limits.ts); Helm may well parse it. */
  | { type: 'error'; message: string; offset: number; limit?: boolean };

type Token =
  | { t: 'word' | 'field' | 'variable' | 'string' | 'number' | 'char' | 'punct'; text: string; start: number; end: number; spaced: boolean; value?: string }
  | { t: 'eof'; text: ''; start: number; end: number; spaced: boolean };

class ParseError extends Error {
  constructor(
    message: string,
    readonly offset: number,
    /** Past Render Lens's bound (limits.ts), not a Helm error. */
    readonly limit = false,
  ) {
    super(message);
  }
}

const alnum = /[\p{L}\p{Nd}_]/u;
/** Go's identifier characters: letters, digits, `_` (ASCII checked without a regexp). */
function isAlnum(c: string | undefined): boolean {
  if (c === undefined) return false;
  const code = c.charCodeAt(0);
  if (code < 0x80) return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f;
  return alnum.test(c);
}

function lex(source: string, from: number, to: number): Token[] {
  const tokens: Token[] = [];
  let i = from;
  let spaced = true;
  while (i < to) {
    const c = source[i];
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n') {
      i++;
      spaced = true;
      continue;
    }
    const start = i;
    const push = (t: Exclude<Token['t'], 'eof'>, end: number, value?: string) => {
      tokens.push({ t, text: source.slice(start, end), start, end, spaced, value });
      i = end;
      spaced = false;
    };
    if (c === ':' && source[i + 1] === '=') push('punct', i + 2);
    else if ('|(),='.includes(c)) push('punct', i + 1);
    else if (c === '"') {
      const end = quoteEnd(source, i, to);
      push('string', end, unquoteGo(source.slice(start + 1, end - 1), start));
    } else if (c === '`') {
      const close = source.indexOf('`', i + 1);
      if (close < 0 || close >= to) throw new ParseError('unterminated raw quoted string', i);
      push('string', close + 1, source.slice(start + 1, close).replace(/\r/g, ''));
    } else if (c === "'") {
      const end = quoteEnd(source, i, to);
      const value = unquoteGo(source.slice(start + 1, end - 1), start);
      push('char', end, String(value.codePointAt(0) ?? 0));
    } else if (c === '$') {
      let end = i + 1;
      while (isAlnum(source[end])) end++;
      push('variable', end);
    } else if (c === '.' && !/[0-9]/.test(source[i + 1] ?? '')) {
      let end = i + 1;
      while (isAlnum(source[end])) end++;
      push('field', end);
    } else if (/[0-9+\-.]/.test(c)) {
      const match = /^[+-]?(0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|[0-9][0-9_]*(\.[0-9_]*)?([eE][+-]?[0-9_]+)?|\.[0-9][0-9_]*([eE][+-]?[0-9_]+)?)i?/.exec(source.slice(i, to));
      if (!match || isAlnum(source[i + match[0].length])) throw new ParseError(`bad number syntax: "${source.slice(i, Math.min(to, i + 8)).split(/\s/)[0]}"`, i);
      push('number', i + match[0].length);
    } else if (isAlnum(c)) {
      let end = i + 1;
      while (isAlnum(source[end])) end++;
      push('word', end);
    } else throw new ParseError(`unrecognized character in action: ${JSON.stringify(c)}`, i);
  }
  tokens.push({ t: 'eof', text: '', start: to, end: to, spaced });
  return tokens;
}

function quoteEnd(source: string, at: number, to: number): number {
  const quote = source[at];
  for (let i = at + 1; i < to; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === '\n') break;
    else if (source[i] === quote) return i + 1;
  }
  throw new ParseError(quote === '"' ? 'unterminated quoted string' : 'unterminated character constant', at);
}

const simpleEscapes: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', '"': '"', "'": "'" };

/** Go's `strconv.Unquote` body for the escapes templates use. */
function unquoteGo(body: string, offset: number): string {
  return body.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{3}|.)/gs, (_, e: string) => {
    if (e.length === 1) {
      const out = simpleEscapes[e];
      if (out === undefined) throw new ParseError('invalid syntax', offset);
      return out;
    }
    if (/^[0-7]{3}$/.test(e)) return String.fromCharCode(parseInt(e, 8));
    return String.fromCodePoint(parseInt(e.slice(1), 16));
  });
}

const keywords = new Set(['if', 'else', 'end', 'range', 'with', 'define', 'template', 'block', 'break', 'continue']);

class Parser {
  private i = 0;
  private depth = 0;
  constructor(private readonly tokens: Token[]) {}

  peek(): Token {
    return this.tokens[this.i];
  }
  next(): Token {
    return this.tokens[this.i++] ?? this.tokens[this.tokens.length - 1];
  }
  expectEnd(): void {
    const token = this.peek();
    if (token.t !== 'eof') throw new ParseError(`unexpected "${token.text}" in ${this.context}`, token.start);
  }
  context = 'command';

  action(): ActionNode {
    const first = this.peek();
    if (first.t === 'word' && keywords.has(first.text)) {
      this.next();
      this.context = first.text;
      switch (first.text) {
        case 'if':
        case 'with':
        case 'range':
          return { type: first.text, pipeline: this.pipeline(true) };
        case 'else': {
          const chained = this.peek();
          if (chained.t === 'word' && (chained.text === 'if' || chained.text === 'with')) {
            this.next();
            return { type: 'else', chain: { type: chained.text, pipeline: this.pipeline(true) } };
          }
          this.expectEnd();
          return { type: 'else' };
        }
        case 'end':
        case 'break':
        case 'continue':
          this.expectEnd();
          return { type: first.text };
        case 'define': {
          const name = this.name();
          this.expectEnd();
          return { type: 'define', name };
        }
        default: {
          const name = this.name();
          const pipeline = this.peek().t === 'eof' ? undefined : this.pipeline(false);
          return { type: first.text as 'template' | 'block', name, pipeline };
        }
      }
    }
    return { type: 'output', pipeline: this.pipeline(true) };
  }

  private name(): string {
    const token = this.next();
    if (token.t !== 'string') throw new ParseError(`unexpected "${token.text}" in ${this.context} clause`, token.start);
    return token.value ?? '';
  }

  /** A pipeline up to the end of the action (or the closing paren when `nested`). */
  pipeline(allowDeclaration: boolean, nested = false): Pipeline {
    const start = this.peek().start;
    const declarations: string[] = [];
    let assign = false;
    if (allowDeclaration && this.peek().t === 'variable') {
      // `$x :=`, `$x =`, `$k, $v :=`: look ahead without consuming a plain `$x` operand.
      const save = this.i;
      const names = [this.next().text];
      if (this.peek().text === ',') {
        this.next();
        if (this.peek().t === 'variable') names.push(this.next().text);
      }
      const op = this.peek().text;
      if (op === ':=' || op === '=') {
        this.next();
        declarations.push(...names);
        assign = op === '=';
      } else this.i = save;
    }
    const commands: Command[] = [];
    for (;;) {
      commands.push(this.command(nested));
      const token = this.peek();
      if (token.text === '|' && token.t === 'punct') {
        this.next();
        continue;
      }
      if (nested && token.text === ')') break;
      if (token.t === 'eof') break;
      throw new ParseError(`unexpected "${token.text}" in ${this.context}`, token.start);
    }
    const end = commands[commands.length - 1].end;
    return { declarations, assign, commands, start, end };
  }

  private command(nested: boolean): Command {
    const args: Term[] = [];
    for (;;) {
      const token = this.peek();
      if (token.t === 'eof' || (token.t === 'punct' && (token.text === '|' || (nested && token.text === ')')))) break;
      args.push(this.operand());
    }
    if (args.length === 0) throw new ParseError(`missing value for ${this.context}`, this.peek().start);
    return { args, start: args[0].start, end: args[args.length - 1].end };
  }

  private operand(): Term {
    const term = this.term();
    // A field chain glued to a term: `$x.a`, `(…).a`.
    const chain: string[] = [];
    let end = term.end;
    while (this.peek().t === 'field' && !this.peek().spaced) {
      const field = this.next();
      chain.push(field.text.slice(1));
      end = field.end;
    }
    if (chain.length === 0) return term;
    if (term.kind === 'field' || term.kind === 'variable' || term.kind === 'pipeline') return { ...term, path: [...term.path, ...chain], end };
    throw new ParseError(`unexpected . after term "${this.tokens[this.i - chain.length - 1]?.text ?? ''}"`, term.end);
  }

  private term(): Term {
    const token = this.next();
    const { start, end } = token;
    switch (token.t) {
      case 'field':
        return { kind: 'field', path: token.text === '.' ? [] : [token.text.slice(1)], start, end };
      case 'variable':
        return { kind: 'variable', name: token.text, path: [], start, end };
      case 'string':
        return { kind: 'string', value: token.value ?? '', start, end };
      case 'char':
        return { kind: 'number', text: token.text, value: Number(token.value), isInt: true, start, end };
      case 'number': {
        const text = token.text.replace(/_/g, '').replace(/i$/, '');
        const isInt = !/[.eE]/.test(text) || /^[+-]?0[xX]/.test(text);
        const value = /^[+-]?0[xXoObB]/.test(text) ? parsePrefixed(text) : Number(text);
        return { kind: 'number', text: token.text, value, isInt, start, end };
      }
      case 'word':
        if (token.text === 'true' || token.text === 'false') return { kind: 'bool', value: token.text === 'true', start, end };
        if (token.text === 'nil') return { kind: 'nil', start, end };
        if (keywords.has(token.text)) throw new ParseError(`unexpected <${token.text}> in ${this.context}`, start);
        return { kind: 'function', name: token.text, start, end };
      case 'punct':
        if (token.text === '(') {
          if (this.depth >= maxTemplateParenDepth) throw new ParseError(`parentheses nest more than ${maxTemplateParenDepth} deep here, more than Render Lens follows`, start, true);
          this.depth++;
          try {
            const pipeline = this.pipeline(true, true);
            const close = this.next();
            if (close.text !== ')') throw new ParseError('unclosed left paren', start);
            return { kind: 'pipeline', pipeline, path: [], start, end: close.end };
          } finally {
            this.depth--;
          }
        }
        break;
    }
    throw new ParseError(`unexpected "${token.text}" in ${this.context}`, start);
  }
}

function parsePrefixed(text: string): number {
  const negative = text.startsWith('-');
  const body = text.replace(/^[+-]/, '');
  const base = /^0[xX]/.test(body) ? 16 : /^0[oO]/.test(body) ? 8 : 2;
  const value = parseInt(body.slice(2), base);
  return negative ? -value : value;
}

/** The action's meaning; lexical and grammar errors come back as an `error` node. */
export function parseAction(source: string, action: TemplateAction): ActionNode {
  if (action.comment) return { type: 'comment' };
  try {
    const parser = new Parser(lex(source, action.bodyStart, action.bodyEnd));
    const node = parser.action();
    if (parser.peek().t !== 'eof') throw new ParseError(`unexpected "${parser.peek().text}"`, parser.peek().start);
    return node;
  } catch (error) {
    if (error instanceof ParseError) return error.limit ? { type: 'error', message: error.message, offset: error.offset, limit: true } : { type: 'error', message: error.message, offset: error.offset };
    throw error;
  }
}

/** The function a command calls (its first word), if it is a function call. */
export function commandFunction(command: Command): string | undefined {
  const head = command.args[0];
  return head?.kind === 'function' ? head.name : undefined;
}
