/**
 * A template file as text/template's parser sees it: text runs (already trimmed by `{{-` and
 * `-}}`), output actions, and nested `if` / `with` / `range` blocks, with `define`d templates
 * lifted out under their names. Go stops at the first error; this tree goes on, so that the
 * actions after a broken one are still analysed, and records the first error where Go
 * reports it. Variables are checked in Go's scopes, and calls of functions the product lacks
 * are collected up to that first error.
 */
import type { ActionNode, Pipeline } from './ast';
import type { Dialect } from './dialect';
import { leadingSpace, scanActions, trailingSpace, type TemplateAction, type TemplateError, type TemplateScan, type Token } from './lexer';
import { parseAction, type Scope } from './parser';

export type TreeNode =
  | { type: 'text'; start: number; end: number }
  | { type: 'output'; action: TemplateAction; pipeline: Pipeline }
  | { type: 'cond'; action: TemplateAction; branches: Branch[]; elseBody?: TreeNode[]; elseAction?: TemplateAction }
  | { type: 'range'; action: TemplateAction; pipeline: Pipeline; body: TreeNode[]; elseBody?: TreeNode[]; elseAction?: TemplateAction }
  | { type: 'template'; action: TemplateAction; name: string; pipeline?: Pipeline }
  | { type: 'break' | 'continue'; action: TemplateAction };

export interface Branch {
  keyword: 'if' | 'with';
  action: TemplateAction;
  pipeline: Pipeline;
  body: TreeNode[];
}

export interface DefinedTemplate {
  name: string;
  file: string;
  /** The `define` (or `block`) action and its `end`. */
  action: TemplateAction;
  end: number;
  body: TreeNode[];
}

export interface TemplateTree {
  file: string;
  text: string;
  scan: TemplateScan;
  /** Each action's parsed meaning, by the action's start offset. */
  nodes: Map<number, ActionNode>;
  body: TreeNode[];
  defines: DefinedTemplate[];
  /** The first parse error, where Go reports it: the product refuses the whole template. */
  error?: TemplateError;
  /** The first action past Render Lens's bound (limits.ts); not an error of the product. */
  limit?: TemplateError;
  /** Whichever of `error` and `limit` a parse that stops at its first problem meets first. */
  stop?: TemplateError;
  /** Calls of functions the product's table lacks, up to `stop`: each fails the parse. */
  unknownFunctions: Scope['unknownFunctions'];
  /** At `stop`: how many nodes of `body` and of `defines` were complete, all that Go had read. */
  beforeStop?: { body: number; defines: number };
}

interface Frame {
  kind: 'root' | 'cond' | 'range' | 'define';
  node?: TreeNode;
  define?: DefinedTemplate;
  /** Where children go now: a branch body, the else body, a define body. */
  target: TreeNode[];
  /** The keyword that opened the frame, for "unexpected EOF". */
  keyword?: { name: string; pos: number; end: number };
  /** The variables in scope before the frame: restored at its `end`. */
  vars?: string[];
}

/** The word at the start of an action's body (after `else ` when `skipElse`), with its offsets. */
function keywordOf(text: string, action: TemplateAction, skipElse = false): { name: string; pos: number; end: number } {
  let pos = action.bodyStart + leadingSpace(text, action.bodyStart, action.bodyEnd);
  if (skipElse) pos += 4 + leadingSpace(text, pos + 4, action.bodyEnd);
  let end = pos;
  while (end < action.bodyEnd && /[a-z]/.test(text[end])) end++;
  return { name: text.slice(pos, end), pos, end };
}

export function buildTree(file: string, text: string, dialect: Dialect): TemplateTree {
  const tokens: Token[][] = [];
  const scan = scanActions(text, dialect, tokens);
  const nodes = new Map<number, ActionNode>();
  const scope: Scope = { vars: ['$'], unknownFunctions: [] };
  const tree: TemplateTree = { file, text, scan, nodes, body: [], defines: [], unknownFunctions: scope.unknownFunctions };
  const stack: Frame[] = [{ kind: 'root', target: tree.body }];
  const top = () => stack[stack.length - 1];
  const record = (problem: TemplateError) => {
    if (problem.limit) tree.limit ??= problem;
    else tree.error ??= problem;
    if (!tree.stop) {
      tree.stop = problem;
      tree.unknownFunctions = [...scope.unknownFunctions];
      // The top-level block still open when the parse stops is not complete.
      const open = stack[1];
      const openInBody = open !== undefined && (open.kind !== 'define' || nodes.get(open.define!.action.start)?.type === 'block');
      tree.beforeStop = { body: tree.body.length - (openInBody ? 1 : 0), defines: tree.defines.length - (open?.kind === 'define' ? 1 : 0) };
    }
  };
  const fail = (message: string, at: { pos: number; end: number }, unclosed?: string) => record({ message, pos: at.pos, end: at.end, ...(unclosed ? { unclosed } : {}) });
  let textStart = 0;
  let trimNext = false;
  const flushText = (until: number, trimEnd: boolean) => {
    let start = textStart;
    let end = until;
    if (trimNext) start += leadingSpace(text, start, end);
    if (trimEnd) end -= trailingSpace(text, start, end);
    if (end > start) top().target.push({ type: 'text', start, end });
  };

  scan.actions.forEach((action, index) => {
    flushText(action.start, action.trimLeft);
    textStart = action.end;
    trimNext = action.trimRight;
    const before = scope.vars.length;
    const node = parseAction(text, action, dialect, scope, tokens[index]);
    nodes.set(action.start, node);
    switch (node.type) {
      case 'comment':
        break;
      case 'error':
        record({ message: node.message, pos: node.offset, end: node.end, ...(node.limit ? { limit: true } : {}) });
        break;
      case 'output':
        top().target.push({ type: 'output', action, pipeline: node.pipeline });
        break;
      case 'if':
      case 'with': {
        const body: TreeNode[] = [];
        const cond: TreeNode = { type: 'cond', action, branches: [{ keyword: node.type, action, pipeline: node.pipeline, body }] };
        top().target.push(cond);
        stack.push({ kind: 'cond', node: cond, target: body, keyword: keywordOf(text, action), vars: scope.vars.slice(0, before) });
        break;
      }
      case 'range': {
        const range: TreeNode = { type: 'range', action, pipeline: node.pipeline, body: [] };
        top().target.push(range);
        stack.push({ kind: 'range', node: range, target: range.body, keyword: keywordOf(text, action), vars: scope.vars.slice(0, before) });
        break;
      }
      case 'else':
        elseAction(action, node);
        break;
      case 'end': {
        const frame = stack.pop()!;
        if (frame.kind === 'root') {
          stack.push(frame);
          fail('unexpected {{end}}', keywordOf(text, action));
          break;
        }
        if (frame.define) frame.define.end = action.start;
        if (frame.vars) scope.vars.splice(0, scope.vars.length, ...frame.vars);
        break;
      }
      case 'define':
      case 'block': {
        // Go reads a `define` only between the top-level actions of a template.
        if (node.type === 'define' && stack.length > 1) fail('unexpected <define> in command', keywordOf(text, action));
        const define: DefinedTemplate = { name: node.name, file, action, end: text.length, body: [] };
        tree.defines.push(define);
        if (node.type === 'block') top().target.push({ type: 'template', action, name: node.name, pipeline: node.pipeline });
        // A defined template has variables of its own: only `$`.
        stack.push({ kind: 'define', define, target: define.body, keyword: keywordOf(text, action), vars: [...scope.vars] });
        scope.vars.splice(0, scope.vars.length, '$');
        break;
      }
      case 'template':
        top().target.push({ type: 'template', action, name: node.name, pipeline: node.pipeline });
        break;
      case 'break':
      case 'continue': {
        // A defined template is a template of its own: a `range` around its `define` does not count.
        let inRange = false;
        for (let i = stack.length - 1; i >= 0 && stack[i].kind !== 'define' && !inRange; i--) inRange = stack[i].kind === 'range';
        if (!inRange) fail(`{{${node.type}}} outside {{range}}`, keywordOf(text, action));
        top().target.push({ type: node.type, action });
        break;
      }
    }
  });
  flushText(text.length, false);
  if (scan.error) {
    // Go reads the broken action token by token: a grammar error may come before the lexer's.
    const { action, ...error } = scan.error;
    const node = action.comment ? undefined : parseAction(text, action, dialect, scope);
    record(node?.type === 'error' ? { message: node.message, pos: node.offset, end: node.end } : error);
  } else if (stack.length > 1) {
    const keyword = top().keyword!;
    fail('unexpected EOF', keyword, keyword.name);
  }
  return tree;

  function elseAction(action: TemplateAction, node: Extract<ActionNode, { type: 'else' }>): void {
    const frame = top();
    const at = keywordOf(text, action);
    if (frame.kind === 'root') return fail('unexpected {{else}}', at);
    if (frame.kind === 'define') return fail(`unexpected {{else}} in ${frame.keyword?.name} clause`, at);
    const owner = frame.node as Extract<TreeNode, { type: 'cond' | 'range' }>;
    if (owner.elseBody) return fail('expected end; found {{else}}', at);
    if (node.chain) {
      // `else if` continues an `if`, `else with` a `with`; anything else is a stray keyword.
      const keyword = owner.type === 'cond' ? owner.branches[0].keyword : 'range';
      if (owner.type !== 'cond' || node.chain.type !== keyword) return fail(`unexpected <${node.chain.type}> in input`, keywordOf(text, action, true));
      const body: TreeNode[] = [];
      owner.branches.push({ keyword: node.chain.type, action, pipeline: node.chain.pipeline, body });
      frame.target = body;
      return;
    }
    owner.elseBody = [];
    owner.elseAction = action;
    frame.target = owner.elseBody;
  }
}

/**
 * The control nodes (and which branch) that lead to the action at `offset`: an output action,
 * or the condition of an `if` / `else if` / `with` / `range`.
 */
export interface AncestorStep {
  node: Extract<TreeNode, { type: 'cond' | 'range' }>;
  /** For a `cond`: the branch index, or -1 for the else body. For a `range`: 0 body, -1 else. */
  branch: number;
}

export function ancestorsOf(body: readonly TreeNode[], offset: number): AncestorStep[] | undefined {
  for (const node of body) {
    if (node.type === 'output' && node.action.start === offset) return [];
    if (node.type === 'range' && node.action.start === offset) return [];
    if (node.type === 'cond') {
      if (node.branches.some((b) => b.action.start === offset)) return [];
      for (let b = 0; b < node.branches.length; b++) {
        const found = ancestorsOf(node.branches[b].body, offset);
        if (found) return [{ node, branch: b }, ...found];
      }
      const inElse = node.elseBody && ancestorsOf(node.elseBody, offset);
      if (inElse) return [{ node, branch: -1 }, ...inElse];
    }
    if (node.type === 'range') {
      const found = ancestorsOf(node.body, offset);
      if (found) return [{ node, branch: 0 }, ...found];
      const inElse = node.elseBody && ancestorsOf(node.elseBody, offset);
      if (inElse) return [{ node, branch: -1 }, ...inElse];
    }
  }
  return undefined;
}

/** How many `with` / `range` blocks rebind the dot around `offset`. */
export function dotRebound(body: readonly TreeNode[], offset: number): boolean {
  const steps = ancestorsOf(body, offset);
  return steps?.some((s) => s.node.type === 'range' ? s.branch === 0 : s.branch >= 0 && s.node.branches[s.branch].keyword === 'with') ?? false;
}
