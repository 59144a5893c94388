/**
 * A parser for Go's text/template, after text/template/parse/parse.go: the same grammar,
 * the same checks at parse time (declared variables, known functions, empty pipelines,
 * `break` outside `range`, stray `end`/`else`) and the same messages. Go stops at the first
 * error; so does this parser, except that unknown functions are collected and parsing goes
 * on, so every removed function can be shown at once.
 */
import { maxTemplateParenDepth } from '../../limits';
import { describeItem, lex, type Item, type ItemType } from './lexer';

export interface Segment {
  name: string;
  pos: number;
  end: number;
}

export type Arg =
  | { type: 'field'; pos: number; end: number; segments: Segment[] }
  /** `$` or `$x`, with any fields after it (`$.ClusterName`). */
  | { type: 'variable'; pos: number; end: number; name: string; segments: Segment[] }
  | { type: 'chain'; pos: number; end: number; node: Arg; segments: Segment[] }
  | { type: 'identifier'; pos: number; end: number; name: string }
  | { type: 'pipe'; pos: number; end: number; pipe: Pipe }
  | { type: 'dot' | 'nil' | 'bool' | 'number' | 'string'; pos: number; end: number };

export interface Command {
  args: Arg[];
}

export interface Pipe {
  pos: number;
  decl: string[];
  cmds: Command[];
}

export type TemplateNode =
  | { type: 'text' | 'comment' | 'break' | 'continue'; pos: number }
  | { type: 'action'; pos: number; pipe: Pipe }
  | { type: 'if' | 'range' | 'with'; pos: number; pipe: Pipe; list: TemplateNode[]; elseList: TemplateNode[] }
  | { type: 'template'; pos: number; pipe: Pipe | undefined }
  | { type: 'define' | 'block'; pos: number; pipe: Pipe | undefined; list: TemplateNode[] };

export interface TemplateError {
  message: string;
  pos: number;
  end: number;
  /** For "unexpected EOF": the keyword whose `end` is missing (the error points at it). */
  unclosed?: string;
  /** Past Render Lens's bound (limits.ts), not Go's error: Fleet may well parse it. */
  limit?: boolean;
}

export interface ParseResult {
  root: TemplateNode[];
  /** Go's parse error, if any: the template does not parse. */
  error: TemplateError | undefined;
  /** Calls of functions that are not in the function set, each with its position. */
  unknownFunctions: Array<{ name: string; pos: number; end: number }>;
}

class Failure {
  constructor(readonly error: TemplateError) {}
}

type End = { kind: 'end' | 'else'; pos: number; end: number };

export function parseTemplate(input: string, hasFunction: (name: string) => boolean, delims: [string, string] = ['{{', '}}']): ParseResult {
  const items = lex(input, delims[0], delims[1]);
  let index = 0;
  let vars: string[] = ['$'];
  let rangeDepth = 0;
  let parenDepth = 0;
  let actionStart = 0;
  /** Open `if`/`range`/`with`/`define`/`block` keywords, innermost last. */
  const open: Item[] = [];
  const unknownFunctions: ParseResult['unknownFunctions'] = [];
  const root: TemplateNode[] = [];

  const peek = (): Item => items[Math.min(index, items.length - 1)];
  const next = (): Item => items[Math.min(index++, items.length - 1)];
  const backup = (n = 1) => {
    index -= n;
  };
  const nextNonSpace = (): Item => {
    let item = next();
    while (item.type === 'space') item = next();
    return item;
  };
  const peekNonSpace = (): Item => {
    const item = nextNonSpace();
    backup();
    return item;
  };
  const fail = (message: string, at: { pos: number; end: number }): never => {
    throw new Failure({ message, pos: at.pos, end: Math.max(at.end, at.pos + 1) });
  };
  const unexpected = (item: Item, context: string): never => {
    // A lexer error points at where the lexer stopped; an unclosed action is better shown
    // at the delimiter that opened it.
    if (item.type === 'error') {
      const opened = /^unclosed (action|left paren)$/.test(item.val) || item.val === 'unterminated raw quoted string';
      return fail(item.val, opened ? { pos: actionStart, end: actionStart + delims[0].length } : item);
    }
    return fail(`unexpected ${describeItem(item)} in ${context}`, item);
  };
  const expect = (type: ItemType, context: string, keyword?: string): Item => {
    const item = nextNonSpace();
    if (item.type !== type || (keyword !== undefined && item.val !== keyword)) unexpected(item, context);
    return item;
  };

  try {
    while (peek().type !== 'eof') {
      if (peek().type === 'leftDelim') {
        const delim = next();
        const keyword = nextNonSpace();
        if (keyword.type === 'keyword' && keyword.val === 'define') {
          actionStart = delim.pos;
          open.push(keyword);
          root.push(definition(delim.pos));
          open.pop();
          continue;
        }
        index = items.indexOf(delim);
      }
      const node = textOrAction();
      if ('kind' in node) fail(`unexpected {{${node.kind}}}`, node);
      root.push(node as TemplateNode);
    }
    return { root, error: undefined, unknownFunctions };
  } catch (error) {
    if (error instanceof Failure) return { root, error: error.error, unknownFunctions };
    throw error;
  }

  function definition(pos: number): TemplateNode {
    const context = 'define clause';
    const name = nextNonSpace();
    if (name.type !== 'string' && name.type !== 'rawString') unexpected(name, context);
    expect('rightDelim', context);
    const saved = vars;
    vars = ['$'];
    const [list, end] = itemList();
    vars = saved;
    if (end.kind !== 'end') fail(`unexpected {{${end.kind}}} in ${context}`, end);
    return { type: 'define', pos, pipe: undefined, list };
  }

  function itemList(): [TemplateNode[], End] {
    const list: TemplateNode[] = [];
    while (peekNonSpace().type !== 'eof') {
      const node = textOrAction();
      if ('kind' in node) return [list, node];
      list.push(node);
    }
    const unclosed = open[open.length - 1];
    if (unclosed) throw new Failure({ message: 'unexpected EOF', pos: unclosed.pos, end: unclosed.end, unclosed: unclosed.val });
    return fail('unexpected EOF', peek());
  }

  function textOrAction(): TemplateNode | End {
    const token = nextNonSpace();
    switch (token.type) {
      case 'text':
        return { type: 'text', pos: token.pos };
      case 'comment':
        return { type: 'comment', pos: token.pos };
      case 'leftDelim':
        actionStart = token.pos;
        return action();
      default:
        return unexpected(token, 'input');
    }
  }

  function action(): TemplateNode | End {
    const token = nextNonSpace();
    if (token.type === 'keyword') {
      switch (token.val) {
        case 'block': {
          open.push(token);
          const node = block(token.pos);
          open.pop();
          return node;
        }
        case 'break':
        case 'continue': {
          const close = nextNonSpace();
          if (close.type !== 'rightDelim') unexpected(close, `{{${token.val}}}`);
          if (rangeDepth === 0) fail(`{{${token.val}}} outside {{range}}`, token);
          return { type: token.val, pos: token.pos };
        }
        case 'else': {
          const after = peekNonSpace();
          if (after.type === 'keyword' && (after.val === 'if' || after.val === 'with')) return { kind: 'else', pos: token.pos, end: token.end };
          expect('rightDelim', 'else');
          return { kind: 'else', pos: token.pos, end: token.end };
        }
        case 'end':
          expect('rightDelim', 'end');
          return { kind: 'end', pos: token.pos, end: token.end };
        case 'if':
        case 'range':
        case 'with': {
          open.push(token);
          const node = control(token.val, token.pos);
          open.pop();
          return node;
        }
        case 'template': {
          const context = 'template clause';
          const name = nextNonSpace();
          if (name.type !== 'string' && name.type !== 'rawString') unexpected(name, context);
          let pipe: Pipe | undefined;
          if (nextNonSpace().type !== 'rightDelim') {
            backup();
            pipe = pipeline(context, 'rightDelim');
          }
          return { type: 'template', pos: token.pos, pipe };
        }
        case 'define':
          return fail('unexpected <define> in command', token);
      }
    }
    backup();
    return { type: 'action', pos: token.pos, pipe: pipeline('command', 'rightDelim') };
  }

  function block(pos: number): TemplateNode {
    const context = 'block clause';
    const name = nextNonSpace();
    if (name.type !== 'string' && name.type !== 'rawString') unexpected(name, context);
    const pipe = pipeline(context, 'rightDelim');
    const saved = vars;
    vars = ['$'];
    const [list, end] = itemList();
    vars = saved;
    if (end.kind !== 'end') fail(`unexpected {{${end.kind}}} in ${context}`, end);
    return { type: 'block', pos, pipe, list };
  }

  function control(context: 'if' | 'range' | 'with', pos: number): TemplateNode {
    const depth = vars.length;
    const pipe = pipeline(context, 'rightDelim');
    if (context === 'range') rangeDepth++;
    let [list, next] = itemList();
    if (context === 'range') rangeDepth--;
    let elseList: TemplateNode[] = [];
    if (next.kind === 'else') {
      // `else if` / `else with` is `else` + a nested `if`/`with` whose `end` is shared.
      const after = peekNonSpace();
      if ((context === 'if' && after.type === 'keyword' && after.val === 'if') || (context === 'with' && after.type === 'keyword' && after.val === 'with')) {
        const keyword = nextNonSpace();
        elseList = [control(context, keyword.pos)];
      } else {
        [elseList, next] = itemList();
        if (next.kind !== 'end') fail(`expected end; found {{${next.kind}}}`, next);
      }
    }
    vars = vars.slice(0, depth);
    return { type: context, pos, pipe, list, elseList };
  }

  function pipeline(context: string, end: ItemType): Pipe {
    const pipe: Pipe = { pos: peekNonSpace().pos, decl: [], cmds: [] };
    declarations: for (;;) {
      const v = peekNonSpace();
      if (v.type !== 'variable') break;
      const at = index;
      nextNonSpace();
      const following = peekNonSpace();
      if (following.type === 'assign' || following.type === 'declare') {
        nextNonSpace();
        pipe.decl.push(v.val);
        vars.push(v.val);
      } else if (following.type === 'char' && following.val === ',') {
        nextNonSpace();
        pipe.decl.push(v.val);
        vars.push(v.val);
        if (context === 'range' && pipe.decl.length < 2) {
          const third = peekNonSpace();
          if (third.type === 'variable' || third.type === 'rightDelim' || third.type === 'rightParen') continue declarations;
          fail('range can only initialize variables', third);
        }
        fail(`too many declarations in ${context}`, following);
      } else {
        // `$x` is an argument, not a declaration: give it back.
        index = at;
      }
      break;
    }
    for (;;) {
      const token = nextNonSpace();
      if (token.type === end) {
        if (pipe.cmds.length === 0) fail(`missing value for ${context}`, token);
        pipe.cmds.slice(1).forEach((cmd, i) => {
          const first = cmd.args[0];
          if (first && ['bool', 'dot', 'nil', 'number', 'string'].includes(first.type)) fail(`non executable command in pipeline stage ${i + 2}`, first);
        });
        return pipe;
      }
      switch (token.type) {
        case 'bool':
        case 'charConstant':
        case 'dot':
        case 'field':
        case 'identifier':
        case 'number':
        case 'nil':
        case 'rawString':
        case 'string':
        case 'variable':
        case 'leftParen':
          backup();
          pipe.cmds.push(command());
          continue;
        default:
          unexpected(token, context);
      }
    }
  }

  function command(): Command {
    const cmd: Command = { args: [] };
    for (;;) {
      peekNonSpace();
      const arg = operand();
      if (arg) cmd.args.push(arg);
      const token = next();
      if (token.type === 'space') continue;
      if (token.type === 'rightDelim' || token.type === 'rightParen') backup();
      else if (token.type !== 'pipe') unexpected(token, 'operand');
      break;
    }
    if (cmd.args.length === 0) fail('empty command', peek());
    return cmd;
  }

  function operand(): Arg | undefined {
    const node = term();
    if (!node || peek().type !== 'field') return node;
    const segments: Segment[] = [];
    while (peek().type === 'field') {
      const field = next();
      segments.push({ name: field.val.slice(1), pos: field.pos + 1, end: field.end });
    }
    const end = segments[segments.length - 1].end;
    switch (node.type) {
      case 'field':
        return { ...node, end, segments: [...node.segments, ...segments] };
      case 'variable':
        return { ...node, end, segments: [...node.segments, ...segments] };
      case 'bool':
      case 'string':
      case 'number':
      case 'nil':
      case 'dot':
        return fail(`unexpected . after term ${JSON.stringify(input.slice(node.pos, node.end))}`, segments[0]);
      default:
        return { type: 'chain', pos: node.pos, end, node, segments };
    }
  }

  function term(): Arg | undefined {
    const token = nextNonSpace();
    const at = { pos: token.pos, end: token.end };
    switch (token.type) {
      case 'identifier':
        if (!hasFunction(token.val)) unknownFunctions.push({ name: token.val, ...at });
        return { type: 'identifier', name: token.val, ...at };
      case 'dot':
        return { type: 'dot', ...at };
      case 'nil':
        return { type: 'nil', ...at };
      case 'variable': {
        const name = token.val;
        if (!vars.includes(name)) fail(`undefined variable ${JSON.stringify(name)}`, token);
        return { type: 'variable', name, segments: [], ...at };
      }
      case 'field':
        return { type: 'field', segments: [{ name: token.val.slice(1), pos: token.pos + 1, end: token.end }], ...at };
      case 'bool':
        return { type: 'bool', ...at };
      case 'charConstant':
      case 'number':
        return { type: 'number', ...at };
      case 'leftParen': {
        if (parenDepth >= maxTemplateParenDepth) throw new Failure({ message: `parentheses nest more than ${maxTemplateParenDepth} deep here, more than Render Lens follows`, pos: token.pos, end: token.end, limit: true });
        parenDepth++;
        try {
          const pipe = pipeline('parenthesized pipeline', 'rightParen');
          return { type: 'pipe', pos: token.pos, end: items[index - 1].end, pipe };
        } finally {
          parenDepth--;
        }
      }
      case 'string':
      case 'rawString':
        if (token.type === 'string' && !validGoString(token.val)) fail('invalid syntax', token);
        return { type: 'string', ...at };
    }
    backup();
    return undefined;
  }
}

/** The escapes strconv.Unquote accepts in a double-quoted Go string. */
function validGoString(literal: string): boolean {
  return /^"(?:[^"\\\n]|\\(?:[abfnrtv\\'"]|[0-7]{3}|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}))*"$/.test(literal);
}
