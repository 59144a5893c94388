/**
 * Go's text/template grammar (text/template/parse/parse.go) for one action: a control keyword
 * (`if`, `with`, `range`, `else`, `end`, `define`, `template`, `block`, `break`, `continue`) or
 * a pipeline of commands joined by `|`, with Go's checks and messages. How actions nest is the
 * tree's business (tree.ts); it passes a scope so that variables are checked where Go checks
 * them and calls of functions the product lacks are collected.
 */
import { maxTemplateParenDepth } from '../limits';
import type { ActionNode, Command, Pipeline, Term } from './ast';
import type { Dialect } from './dialect';
import { describeToken, errorAt, lexAction, type TemplateAction, type TemplateError, type Token, type TokenType } from './lexer';

/** What the actions before this one declared, and what calls they made to missing functions. */
export interface Scope {
  vars: string[];
  unknownFunctions: Array<{ name: string; pos: number; end: number }>;
}

class Failure {
  constructor(readonly error: TemplateError) {}
}

const operandStarts = new Set<TokenType>(['bool', 'charConstant', 'dot', 'field', 'identifier', 'number', 'nil', 'rawString', 'string', 'variable', 'leftParen']);

class Parser {
  private index = 0;
  private parenDepth = 0;

  constructor(
    private readonly source: string,
    private readonly tokens: Token[],
    private readonly actionStart: number,
    private readonly dialect: Dialect,
    private readonly scope: Scope | undefined,
  ) {}

  private peek(): Token {
    return this.tokens[Math.min(this.index, this.tokens.length - 1)];
  }
  private next(): Token {
    return this.tokens[Math.min(this.index++, this.tokens.length - 1)];
  }
  private backup(): void {
    this.index--;
  }
  private nextNonSpace(): Token {
    let token = this.next();
    while (token.type === 'space') token = this.next();
    return token;
  }
  private peekNonSpace(): Token {
    const token = this.nextNonSpace();
    this.backup();
    return token;
  }
  private lastNonSpaceBefore(index: number): Token | undefined {
    let i = index - 1;
    while (i >= 0 && this.tokens[i].type === 'space') i--;
    return this.tokens[i];
  }
  private fail(message: string, at: { pos: number; end: number }): never {
    throw new Failure({ message, pos: at.pos, end: Math.max(at.end, at.pos + 1) });
  }
  private unexpected(token: Token, context: string): never {
    if (token.type === 'error') throw new Failure(errorAt(token, this.actionStart, this.dialect.leftDelim));
    return this.fail(`unexpected ${describeToken(token)} in ${context}`, token);
  }
  private expect(type: TokenType, context: string): Token {
    const token = this.nextNonSpace();
    if (token.type !== type) this.unexpected(token, context);
    return token;
  }

  action(): ActionNode {
    const token = this.nextNonSpace();
    if (token.type === 'keyword') {
      switch (token.val) {
        case 'block':
        case 'template': {
          const context = `${token.val} clause`;
          const name = this.templateName(context);
          if (token.val === 'block') return { type: 'block', name, pipeline: this.pipeline(context, 'rightDelim') };
          if (this.nextNonSpace().type === 'rightDelim') return { type: 'template', name };
          this.backup();
          return { type: 'template', name, pipeline: this.pipeline(context, 'rightDelim') };
        }
        case 'define': {
          const name = this.templateName('define clause');
          this.expect('rightDelim', 'define clause');
          return { type: 'define', name };
        }
        case 'break':
        case 'continue': {
          const close = this.nextNonSpace();
          if (close.type !== 'rightDelim') this.unexpected(close, `{{${token.val}}}`);
          return { type: token.val };
        }
        case 'else': {
          // `else if` / `else with` is an `else` and an `if` / `with` sharing one `end`.
          const after = this.peekNonSpace();
          if (after.type === 'keyword' && (after.val === 'if' || after.val === 'with')) {
            this.nextNonSpace();
            return { type: 'else', chain: { type: after.val, pipeline: this.pipeline(after.val, 'rightDelim') } };
          }
          this.expect('rightDelim', 'else');
          return { type: 'else' };
        }
        case 'end':
          this.expect('rightDelim', 'end');
          return { type: 'end' };
        case 'if':
        case 'range':
        case 'with':
          return { type: token.val, pipeline: this.pipeline(token.val, 'rightDelim') };
      }
    }
    this.backup();
    return { type: 'output', pipeline: this.pipeline('command', 'rightDelim') };
  }

  private templateName(context: string): string {
    const token = this.nextNonSpace();
    if (token.type === 'rawString') return token.val.slice(1, -1).replace(/\r/g, '');
    if (token.type === 'string') return this.unquote(token);
    return this.unexpected(token, context);
  }

  /** A pipeline up to `end`: the right delimiter, or the closing paren of a nested one. */
  private pipeline(context: string, end: 'rightDelim' | 'rightParen'): Pipeline {
    const start = this.peekNonSpace().pos;
    const declarations: string[] = [];
    let assign = false;
    declarations: for (;;) {
      const v = this.peekNonSpace();
      if (v.type !== 'variable') break;
      const at = this.index;
      this.nextNonSpace();
      const following = this.peekNonSpace();
      if (following.type === 'assign' || following.type === 'declare') {
        this.nextNonSpace();
        assign = following.type === 'assign';
        declarations.push(v.val);
        this.scope?.vars.push(v.val);
      } else if (following.type === 'char' && following.val === ',') {
        this.nextNonSpace();
        declarations.push(v.val);
        this.scope?.vars.push(v.val);
        if (context === 'range' && declarations.length < 2) {
          const third = this.peekNonSpace();
          if (third.type === 'variable' || third.type === 'rightDelim' || third.type === 'rightParen') continue declarations;
          this.fail('range can only initialize variables', third);
        }
        this.fail(`too many declarations in ${context}`, following);
      } else {
        // `$x` is an argument, not a declaration: give it back.
        this.index = at;
      }
      break;
    }
    const commands: Command[] = [];
    for (;;) {
      const token = this.nextNonSpace();
      if (token.type === end) {
        // Nothing before the end, or nothing after the last `|`.
        if (commands.length === 0 || this.lastNonSpaceBefore(this.index - 1)?.type === 'pipe') this.fail(`missing value for ${context}`, token);
        commands.slice(1).forEach((command, i) => {
          const first = command.args[0];
          const literal = first.kind === 'bool' || first.kind === 'nil' || first.kind === 'number' || first.kind === 'string' || (first.kind === 'field' && first.path.length === 0);
          if (literal) this.fail(`non executable command in pipeline stage ${i + 2}`, { pos: first.start, end: first.end });
        });
        return { declarations, assign, commands, start, end: commands[commands.length - 1].end };
      }
      if (!operandStarts.has(token.type)) this.unexpected(token, context);
      this.backup();
      commands.push(this.command());
    }
  }

  private command(): Command {
    const args: Term[] = [];
    for (;;) {
      this.peekNonSpace();
      const arg = this.operand();
      if (arg) args.push(arg);
      const token = this.next();
      if (token.type === 'space') continue;
      if (token.type === 'rightDelim' || token.type === 'rightParen') this.backup();
      else if (token.type !== 'pipe') this.unexpected(token, 'operand');
      break;
    }
    if (args.length === 0) this.fail('empty command', this.peek());
    return { args, start: args[0].start, end: args[args.length - 1].end };
  }

  /** A term and the field chain glued to it: `$x.a`, `(…).a`. */
  private operand(): Term | undefined {
    const term = this.term();
    if (!term || this.peek().type !== 'field') return term;
    const names: string[] = [];
    let end = term.end;
    let first: Token | undefined;
    while (this.peek().type === 'field') {
      const field = this.next();
      first ??= field;
      names.push(field.val.slice(1));
      end = field.end;
    }
    switch (term.kind) {
      case 'variable':
      case 'pipeline':
        return { ...term, path: [...term.path, ...names], end };
      case 'field':
        if (term.path.length > 0) return { ...term, path: [...term.path, ...names], end };
        break;
      case 'function': {
        const pipeline: Pipeline = { declarations: [], assign: false, commands: [{ args: [term], start: term.start, end: term.end }], start: term.start, end: term.end };
        return { kind: 'pipeline', pipeline, path: names, start: term.start, end };
      }
    }
    return this.fail(`unexpected . after term ${JSON.stringify(this.source.slice(term.start, term.end))}`, { pos: first!.pos + 1, end: first!.end });
  }

  private term(): Term | undefined {
    const token = this.nextNonSpace();
    const start = token.pos;
    const end = token.end;
    switch (token.type) {
      case 'identifier':
        if (!this.dialect.hasFunction(token.val)) this.scope?.unknownFunctions.push({ name: token.val, pos: start, end });
        return { kind: 'function', name: token.val, start, end };
      case 'dot':
        return { kind: 'field', path: [], start, end };
      case 'nil':
        return { kind: 'nil', start, end };
      case 'variable':
        if (this.scope && !this.scope.vars.includes(token.val)) this.fail(`undefined variable ${JSON.stringify(token.val)}`, token);
        return { kind: 'variable', name: token.val, path: [], start, end };
      case 'field':
        return { kind: 'field', path: [token.val.slice(1)], start, end };
      case 'bool':
        return { kind: 'bool', value: token.val === 'true', start, end };
      case 'charConstant':
        return { kind: 'number', text: token.val, value: this.unquote(token).codePointAt(0) ?? 0, isInt: true, start, end };
      case 'number':
        return numberTerm(token);
      case 'string':
        return { kind: 'string', value: this.unquote(token), start, end };
      case 'rawString':
        return { kind: 'string', value: token.val.slice(1, -1).replace(/\r/g, ''), start, end };
      case 'leftParen': {
        if (this.parenDepth >= maxTemplateParenDepth) {
          throw new Failure({ message: `parentheses nest more than ${maxTemplateParenDepth} deep here, more than Render Lens follows`, pos: start, end, limit: true });
        }
        this.parenDepth++;
        try {
          const pipeline = this.pipeline('parenthesized pipeline', 'rightParen');
          return { kind: 'pipeline', pipeline, path: [], start, end: this.tokens[this.index - 1].end };
        } finally {
          this.parenDepth--;
        }
      }
    }
    this.backup();
    return undefined;
  }

  /** Go's `strconv.Unquote` of a `"…"` or `'…'` token. */
  private unquote(token: Token): string {
    return token.val.slice(1, -1).replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{3}|.)/gs, (_, e: string) => {
      if (e.length === 1) {
        const out = simpleEscapes[e];
        if (out === undefined) this.fail('invalid syntax', token);
        return out;
      }
      if (/^[0-7]{3}$/.test(e)) return String.fromCharCode(parseInt(e, 8));
      return String.fromCodePoint(parseInt(e.slice(1), 16));
    });
  }
}

const simpleEscapes: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', '"': '"', "'": "'" };

function numberTerm(token: Token): Term {
  const text = token.val.replace(/_/g, '').replace(/i$/, '');
  const isInt = !/[.eE]/.test(text) || /^[+-]?0[xX]/.test(text);
  const value = /^[+-]?0[xXoObB]/.test(text) ? parsePrefixed(text) : Number(text);
  return { kind: 'number', text: token.val, value, isInt, start: token.pos, end: token.end };
}

function parsePrefixed(text: string): number {
  const negative = text.startsWith('-');
  const body = text.replace(/^[+-]/, '');
  const base = /^0[xX]/.test(body) ? 16 : /^0[oO]/.test(body) ? 8 : 2;
  const value = parseInt(body.slice(2), base);
  return negative ? -value : value;
}

/**
 * The action's meaning; lexical and grammar errors come back as an `error` node. Without a
 * scope (one action read on its own) variables are not checked. `tokens` are the action's,
 * when the scan has read them already.
 */
export function parseAction(source: string, action: Pick<TemplateAction, 'start' | 'bodyStart' | 'comment'>, dialect: Dialect, scope?: Scope, tokens?: Token[]): ActionNode {
  if (action.comment) return { type: 'comment' };
  try {
    return new Parser(source, tokens ?? lexAction(source, action.bodyStart, dialect), action.start, dialect, scope).action();
  } catch (error) {
    if (!(error instanceof Failure)) throw error;
    const { message, pos, end, limit } = error.error;
    return limit ? { type: 'error', message, offset: pos, end, limit } : { type: 'error', message, offset: pos, end };
  }
}
