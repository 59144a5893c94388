/**
 * A template file as text/template's parser sees it: text runs (already trimmed by `{{-` and
 * `-}}`), output actions, and nested `if` / `with` / `range` blocks, with `define`d templates
 * lifted out under their names. The executor walks this tree; the key-path scanner uses the
 * `define` regions to know which lines are not part of the file's own output.
 */
import { parseAction, type ActionNode, type Pipeline } from './parse';
import { leadingSpace, scanActions, trailingSpace, type TemplateAction, type TemplateScan } from './scan';

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
  /** The first scan or parse error: Helm refuses the whole chart. */
  error?: { offset: number; message: string };
}

interface Frame {
  kind: 'root' | 'cond' | 'range' | 'define';
  node?: TreeNode;
  define?: DefinedTemplate;
  /** Where children go now: a branch body, the else body, a define body. */
  target: TreeNode[];
}

export function buildTree(file: string, text: string): TemplateTree {
  const scan = scanActions(text);
  const nodes = new Map<number, ActionNode>();
  const tree: TemplateTree = { file, text, scan, nodes, body: [], defines: [], error: scan.error };
  const stack: Frame[] = [{ kind: 'root', target: tree.body }];
  const top = () => stack[stack.length - 1];
  const fail = (offset: number, message: string) => {
    tree.error ??= { offset, message };
  };
  let textStart = 0;
  let trimNext = false;
  const flushText = (until: number, trimEnd: boolean) => {
    let start = textStart;
    let end = until;
    if (trimNext) start += leadingSpace(text, start, end);
    if (trimEnd) end -= trailingSpace(text, start, end);
    if (end > start) top().target.push({ type: 'text', start, end });
  };

  for (const action of scan.actions) {
    flushText(action.start, action.trimLeft);
    textStart = action.end;
    trimNext = action.trimRight;
    const node = parseAction(text, action);
    nodes.set(action.start, node);
    switch (node.type) {
      case 'comment':
        break;
      case 'error':
        // An action past Render Lens's bound is not followed; it does not make Helm fail.
        if (!node.limit) fail(node.offset, node.message);
        break;
      case 'output':
        top().target.push({ type: 'output', action, pipeline: node.pipeline });
        break;
      case 'if':
      case 'with': {
        const body: TreeNode[] = [];
        const cond: TreeNode = { type: 'cond', action, branches: [{ keyword: node.type, action, pipeline: node.pipeline, body }] };
        top().target.push(cond);
        stack.push({ kind: 'cond', node: cond, target: body });
        break;
      }
      case 'range': {
        const range: TreeNode = { type: 'range', action, pipeline: node.pipeline, body: [] };
        top().target.push(range);
        stack.push({ kind: 'range', node: range, target: range.body });
        break;
      }
      case 'else': {
        const frame = top();
        if (frame.kind === 'cond' && frame.node?.type === 'cond' && !frame.node.elseBody) {
          if (node.chain) {
            const body: TreeNode[] = [];
            frame.node.branches.push({ keyword: node.chain.type, action, pipeline: node.chain.pipeline, body });
            frame.target = body;
          } else {
            frame.node.elseBody = [];
            frame.node.elseAction = action;
            frame.target = frame.node.elseBody;
          }
        } else if (frame.kind === 'range' && frame.node?.type === 'range' && !frame.node.elseBody && !node.chain) {
          frame.node.elseBody = [];
          frame.node.elseAction = action;
          frame.target = frame.node.elseBody;
        } else fail(action.start, 'unexpected {{else}}');
        break;
      }
      case 'end': {
        const frame = stack.pop()!;
        if (frame.kind === 'root') {
          stack.push(frame);
          fail(action.start, 'unexpected {{end}}');
        } else if (frame.define) frame.define.end = action.start;
        break;
      }
      case 'define':
      case 'block': {
        const define: DefinedTemplate = { name: node.name, file, action, end: text.length, body: [] };
        tree.defines.push(define);
        if (node.type === 'block') top().target.push({ type: 'template', action, name: node.name, pipeline: node.pipeline });
        stack.push({ kind: 'define', define, target: define.body });
        break;
      }
      case 'template':
        top().target.push({ type: 'template', action, name: node.name, pipeline: node.pipeline });
        break;
      case 'break':
      case 'continue':
        if (!stack.some((f) => f.kind === 'range')) fail(action.start, `{{${node.type}}} outside {{range}}`);
        top().target.push({ type: node.type, action });
        break;
    }
  }
  flushText(text.length, false);
  if (stack.length > 1) fail(stack[stack.length - 1].node?.type === 'cond' ? (stack[stack.length - 1].node as { action: TemplateAction }).action.start : text.length, 'unexpected EOF');
  return tree;
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
