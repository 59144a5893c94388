/**
 * Executes a chart template over the chart's values, the way text/template does under Helm
 * (`missingkey=zero`, `<no value>` stripped), for the common subset charts use for values.
 * The output keeps a map back to the template, so a hover can show the rendered line and
 * the document go-yaml will read.
 *
 * What cannot be known statically (the release name, the cluster, an unevaluated function)
 * is an Unknown: it prints as `…`, and a condition on it runs every branch aside and keeps
 * only whether the result can span lines. `force` takes given branches whatever their
 * condition says: the hover uses it to evaluate an action behind a disabled `if`.
 */
import { GoFloat, GoInt, GoMap } from '../goyaml/v2/value';
import { templateName, type Chart } from './chart';
import { callFunction, type CallContext } from './functions';
import type { Command, Pipeline, Term } from '../gotemplate/ast';
import type { TemplateAction } from '../gotemplate/lexer';
import { helmDialect } from '../gotemplate/dialect';
import { buildTree, type TreeNode } from '../gotemplate/tree';
import { GoStruct, isTrue, printed, TemplateError, Unknown, type TValue } from './values';

export interface OutputPiece {
  outStart: number;
  outEnd: number;
  file: string;
  /** Template offset of the text or action that wrote this piece. */
  source: number;
  action: boolean;
  unknown?: 'one-line' | 'multi-line';
}

/** One execution of an output action. */
export interface ActionRun {
  file: string;
  action: number;
  value: TValue;
  text: string;
  /** Where it landed in the file's output (top-level runs only, not inside `include`). */
  outStart?: number;
  outEnd?: number;
}

export interface RenderFailure {
  /** Helm's error text. */
  message: string;
  file: string;
  offset: number;
}

export interface Rendered {
  text: string;
  pieces: OutputPiece[];
  runs: ActionRun[];
  failure?: RenderFailure;
  /** What the chart's own values say about the forced branches. */
  naturally: Map<TreeNode, 'taken' | 'not-taken' | 'unknown'>;
  /** The first value of each `if` / `with` / `range` condition, by its action's offset. */
  conditions: Map<number, TValue>;
}

export interface ExecuteOptions {
  force?: ReadonlyMap<TreeNode, number>;
}

class Out {
  text = '';
  pieces: OutputPiece[] = [];
  multiLineUnknown = false;
  oneLineUnknown = false;
  /** Why the first unknown piece is unknown. */
  reason: string | undefined;

  write(text: string, file: string, source: number, action: boolean, unknown?: 'one-line' | 'multi-line', reason?: string): { start: number; end: number } {
    const start = this.text.length;
    if (unknown) this.reason ??= reason;
    this.text += text;
    if (text !== '' || unknown) this.pieces.push({ outStart: start, outEnd: this.text.length, file, source, action, unknown });
    if (unknown === 'multi-line') this.multiLineUnknown = true;
    if (unknown === 'one-line') this.oneLineUnknown = true;
    return { start, end: this.text.length };
  }
}

class Located extends Error {
  constructor(readonly failure: RenderFailure) {
    super(failure.message);
  }
}
class BreakSignal {}
class ContinueSignal {}

interface Var {
  name: string;
  value: TValue;
}

interface Frame {
  file: string;
  /** The template being executed, for Go's `executing "<name>"`. */
  name: string;
  text: string;
}

const maxDepth = 100;
const UNKNOWN_TEXT = '…';

export function executeTemplate(chart: Chart, file: string, options: ExecuteOptions = {}): Rendered {
  const tree = chart.trees.get(file);
  if (!tree) throw new Error(`not a template of the chart: ${file}`);
  const exec = new Execution(chart, options);
  const out = new Out();
  const root = rootValue(chart, file);
  const frame = { file, name: templateName(chart, file), text: tree.text };
  const rendered: Rendered = { text: '', pieces: [], runs: exec.runs, naturally: exec.naturally, conditions: exec.conditions };
  if (tree.error) {
    rendered.failure = { message: parseErrorText(frame, tree.error), file, offset: tree.error.pos };
    return rendered;
  }
  try {
    exec.nodes(tree.body, root, [{ name: '$', value: root }], out, frame, true);
  } catch (error) {
    if (error instanceof Located) rendered.failure = error.failure;
    else throw error;
  }
  rendered.text = out.text;
  rendered.pieces = out.pieces;
  return rendered;
}

/** `the dependency chart \`common\`` or `one of the dependency charts \`a\`, \`b\``. */
function dependencyNames(names: readonly string[]): string {
  const list = names.map((n) => `\`${n}\``).join(', ');
  return names.length === 1 ? `the dependency chart ${list}` : `one of the dependency charts ${list}`;
}

function parseErrorText(frame: Frame, error: { pos: number; message: string }): string {
  const { line } = lineCol(frame.text, error.pos);
  return `parse error at (${frame.name}:${line}): ${error.message}`;
}

/** Go's line (1-based) and byte column (0-based) of an offset, as ErrorContext prints them. */
function lineCol(text: string, offset: number): { line: number; col: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, col: new TextEncoder().encode(before.slice(lineStart)).length };
}

/** The root object of a render: `.Values`, `.Chart`, `.Release`, `.Template`, … */
function rootValue(chart: Chart, file: string): GoMap {
  const root = new GoMap(true);
  root.set('Values', chart.values as never);
  root.set('Chart', chart.metadata as never);
  const release = new GoMap(true);
  release.set('Name', new Unknown('the release name is chosen at install', true) as never);
  release.set('Namespace', new Unknown('the release namespace is chosen at install', true) as never);
  release.set('Service', 'Helm');
  release.set('IsInstall', new Unknown('install or upgrade is decided at install', true) as never);
  release.set('IsUpgrade', new Unknown('install or upgrade is decided at install', true) as never);
  release.set('Revision', new Unknown('the release revision', true) as never);
  root.set('Release', release);
  const template = new GoMap(true);
  template.set('Name', templateName(chart, file));
  template.set('BasePath', `${chart.name}/templates`);
  root.set('Template', template);
  root.set('Capabilities', new Unknown("the cluster's capabilities") as never);
  root.set('Files', new Unknown('chart files are not read here') as never);
  root.set('Subcharts', new Unknown('subcharts are not evaluated here') as never);
  return root;
}

class Execution {
  readonly runs: ActionRun[] = [];
  readonly naturally = new Map<TreeNode, 'taken' | 'not-taken' | 'unknown'>();
  readonly conditions = new Map<number, TValue>();
  private depth = 0;
  /** Inside a speculative branch (unknown condition) or an include: runs are not recorded. */
  private recording = true;

  constructor(
    private readonly chart: Chart,
    private readonly options: ExecuteOptions,
  ) {}

  nodes(nodes: readonly TreeNode[], dot: TValue, vars: Var[], out: Out, frame: Frame, top: boolean): void {
    for (const node of nodes) this.node(node, dot, vars, out, frame, top);
  }

  private node(node: TreeNode, dot: TValue, vars: Var[], out: Out, frame: Frame, top: boolean): void {
    switch (node.type) {
      case 'text':
        out.write(frame.text.slice(node.start, node.end), frame.file, node.start, false);
        return;
      case 'output': {
        const value = this.pipeline(node.pipeline, dot, vars, frame);
        if (node.pipeline.declarations.length > 0) return;
        const known = value instanceof Unknown ? undefined : printed(value);
        const text = known ?? UNKNOWN_TEXT;
        const at = out.write(text, frame.file, node.action.start, true, value instanceof Unknown ? (value.oneLine ? 'one-line' : 'multi-line') : undefined, value instanceof Unknown ? value.reason : undefined);
        if (this.recording) this.runs.push({ file: frame.file, action: node.action.start, value, text, ...(top ? { outStart: at.start, outEnd: at.end } : {}) });
        return;
      }
      case 'cond':
        return this.cond(node, dot, vars, out, frame, top);
      case 'range':
        return this.range(node, dot, vars, out, frame, top);
      case 'template': {
        const data = node.pipeline ? this.pipeline(node.pipeline, dot, vars, frame) : null;
        if (!this.chart.defines.has(node.name) && this.chart.missingDependencies.length === 0) this.fail(frame, node.action.start, `template "${node.name}" not defined`, node.action);
        this.callDefine(node.name, data, out, node.action, frame);
        return;
      }
      case 'break':
        throw new BreakSignal();
      case 'continue':
        throw new ContinueSignal();
    }
  }

  private cond(node: Extract<TreeNode, { type: 'cond' }>, dot: TValue, vars: Var[], out: Out, frame: Frame, top: boolean): void {
    const mark = vars.length;
    const forced = this.options.force?.get(node);
    const evaluated: TValue[] = [];
    let natural: number | 'unknown' | 'none' = 'none';
    for (let b = 0; b < node.branches.length; b++) {
      const value = this.pipeline(node.branches[b].pipeline, dot, vars, frame);
      evaluated.push(value);
      this.noteCondition(node.branches[b].action.start, value);
      if (value instanceof Unknown) {
        natural = 'unknown';
        break;
      }
      if (isTrue(value)) {
        natural = b;
        break;
      }
    }
    const naturalIndex = natural === 'none' || natural === 'unknown' ? -1 : natural;
    const branchDot = (b: number): TValue => {
      if (node.branches[b].keyword !== 'with') return dot;
      const value = b < evaluated.length ? evaluated[b] : this.quietly(() => this.pipeline(node.branches[b].pipeline, dot, vars, frame));
      // Behind a false condition a `with` value is empty: what it holds is not known.
      return value instanceof Unknown || isTrue(value) ? value : new Unknown('the `with` value is empty with the chart values');
    };
    const body = (b: number) => (b === -1 ? (node.elseBody ?? []) : node.branches[b].body);
    if (forced !== undefined) {
      this.naturally.set(node, naturalIndex === forced ? 'taken' : natural === 'unknown' ? 'unknown' : 'not-taken');
      this.nodes(body(forced), forced === -1 ? dot : branchDot(forced), vars, out, frame, top);
    } else if (natural === 'unknown') {
      const first = evaluated.length - 1;
      const candidates = [];
      for (let b = first; b < node.branches.length; b++) candidates.push({ body: body(b), dot: node.branches[b].keyword === 'with' ? new Unknown((evaluated[first] as Unknown).reason) : dot });
      candidates.push({ body: body(-1), dot });
      this.speculate(candidates, vars, out, frame, node.action.start, `the condition: ${(evaluated[first] as Unknown).reason}`);
    } else this.nodes(body(naturalIndex), naturalIndex === -1 ? dot : branchDot(naturalIndex), vars, out, frame, top);
    vars.length = mark;
  }

  private noteCondition(action: number, value: TValue): void {
    if (this.recording && !this.conditions.has(action)) this.conditions.set(action, value);
  }

  /** Evaluates for a forced branch; an error there only makes the value unknown. */
  private quietly(evaluate: () => TValue): TValue {
    try {
      return evaluate();
    } catch (error) {
      if (error instanceof Located) return new Unknown(error.failure.message);
      throw error;
    }
  }

  private range(node: Extract<TreeNode, { type: 'range' }>, dot: TValue, vars: Var[], out: Out, frame: Frame, top: boolean): void {
    const mark = vars.length;
    const value = this.pipeline(node.pipeline, dot, vars, frame, true);
    vars.length = mark;
    this.noteCondition(node.action.start, value);
    const forced = this.options.force?.get(node);
    const decls = node.pipeline.declarations;
    const items: Array<[TValue, TValue]> = [];
    if (value instanceof Unknown) {
      if (forced !== undefined) this.naturally.set(node, 'unknown');
      if (forced === 0) return this.iterate(node, [[new Unknown(value.reason), new Unknown(value.reason)]], decls, vars, out, frame, top);
      return this.speculate([{ body: node.body, dot: new Unknown(value.reason) }, ...(node.elseBody ? [{ body: node.elseBody, dot }] : [])], vars, out, frame, node.action.start, `the range: ${value.reason}`);
    }
    if (Array.isArray(value)) value.forEach((v, i) => items.push([new GoInt(BigInt(i)), v]));
    else if (value instanceof GoMap) {
      for (const [k, v] of [...value.entries].sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : String(a[0]) > String(b[0]) ? 1 : 0))) items.push([k as TValue, v as TValue]);
    } else if (value instanceof GoInt) for (let i = 0n; i < value.value; i++) items.push([new GoInt(i), new GoInt(i)]);
    else if (value !== null) this.fail(frame, node.action.start, `range can't iterate over ${printed(value)}`, node.action);
    if (forced !== undefined) this.naturally.set(node, (items.length > 0 ? 0 : -1) === forced ? 'taken' : 'not-taken');
    if (forced === 0 && items.length === 0) items.push([new Unknown('an item of an empty list'), new Unknown('an item of an empty list')]);
    if (items.length === 0 || forced === -1) {
      if (node.elseBody) this.nodes(node.elseBody, dot, vars, out, frame, top);
      return;
    }
    this.iterate(node, items, decls, vars, out, frame, top);
  }

  private iterate(node: Extract<TreeNode, { type: 'range' }>, items: Array<[TValue, TValue]>, decls: readonly string[], vars: Var[], out: Out, frame: Frame, top: boolean): void {
    const mark = vars.length;
    for (const [key, item] of items) {
      if (decls.length === 1) vars.push({ name: decls[0], value: item });
      if (decls.length === 2) vars.push({ name: decls[0], value: key }, { name: decls[1], value: item });
      try {
        this.nodes(node.body, item, vars, out, frame, top);
      } catch (signal) {
        if (signal instanceof BreakSignal) break;
        if (!(signal instanceof ContinueSignal)) throw signal;
      } finally {
        vars.length = mark;
      }
    }
  }

  /** Runs candidate branches aside; writes one Unknown piece saying whether lines may change. */
  private speculate(candidates: Array<{ body: readonly TreeNode[]; dot: TValue }>, vars: Var[], out: Out, frame: Frame, source: number, reason: string): void {
    const recording = this.recording;
    this.recording = false;
    let multiLine = false;
    try {
      for (const candidate of candidates) {
        const aside = new Out();
        try {
          this.nodes(candidate.body, candidate.dot, vars.map((v) => ({ ...v })), aside, frame, false);
        } catch (error) {
          if (!(error instanceof Located || error instanceof BreakSignal || error instanceof ContinueSignal)) throw error;
        }
        if (aside.text.includes('\n') || aside.multiLineUnknown) multiLine = true;
      }
    } finally {
      this.recording = recording;
    }
    out.write(UNKNOWN_TEXT, frame.file, source, false, multiLine ? 'multi-line' : 'one-line', reason);
  }

  private callDefine(name: string, data: TValue, out: Out, action: TemplateAction, frame: Frame): void {
    const define = this.chart.defines.get(name);
    if (!define && this.chart.missingDependencies.length > 0) {
      // Not Helm's error: the template may well live in a dependency this workspace lacks.
      out.write(UNKNOWN_TEXT, frame.file, action.start, true, 'multi-line', `in "${name}": not defined in this chart, so it may come from ${dependencyNames(this.chart.missingDependencies)}, which is not in this repository`);
      return;
    }
    // `include` reports a missing template through its caller (`error calling include: …`).
    if (!define) throw new TemplateError(`template: no template "${name}" associated with template "gotpl"`);
    if (this.depth >= maxDepth) {
      out.write(UNKNOWN_TEXT, frame.file, action.start, true, 'multi-line', 'templates nest too deep to follow');
      return;
    }
    const tree = this.chart.trees.get(define.file);
    this.depth++;
    try {
      this.nodes(define.body, data, [{ name: '$', value: data }], out, { file: define.file, name, text: tree?.text ?? '' }, false);
    } finally {
      this.depth--;
    }
  }

  /** `include`: a define executed into a string; Unknown when parts of it are. */
  private include(name: string, data: TValue, frame: Frame, action: TemplateAction): TValue {
    const aside = new Out();
    const recording = this.recording;
    this.recording = false;
    try {
      this.callDefine(name, data, aside, action, frame);
    } finally {
      this.recording = recording;
    }
    // Name the innermost template only: nested includes would repeat the chain.
    const why = aside.reason?.startsWith('in "') ? aside.reason : `in "${name}", ${aside.reason ?? 'a part cannot be evaluated statically'}`;
    if (aside.multiLineUnknown) return new Unknown(why);
    if (aside.oneLineUnknown) return new Unknown(why, !aside.text.includes('\n'));
    return aside.text;
  }

  private tpl(text: string, data: TValue, frame: Frame, action: TemplateAction): TValue {
    const tree = buildTree(frame.file, text, helmDialect);
    if (tree.error) this.fail(frame, action.start, `error calling tpl: cannot parse template ${JSON.stringify(text)}: ${tree.error.message}`, action);
    const aside = new Out();
    const recording = this.recording;
    this.recording = false;
    try {
      this.nodes(tree.body, data, [{ name: '$', value: data }], aside, { file: frame.file, name: 'gotpl', text }, false);
    } finally {
      this.recording = recording;
    }
    if (aside.multiLineUnknown || aside.oneLineUnknown) return new Unknown(`in the \`tpl\` text, ${aside.reason ?? 'a part cannot be evaluated statically'}`, aside.oneLineUnknown && !aside.multiLineUnknown && !aside.text.includes('\n'));
    return aside.text;
  }

  pipeline(pipeline: Pipeline, dot: TValue, vars: Var[], frame: Frame, isRange = false): TValue {
    let value: TValue | undefined;
    for (const command of pipeline.commands) value = this.command(command, dot, vars, frame, value);
    const result = value ?? null;
    if (pipeline.assign) {
      const target = [...vars].reverse().find((v) => v.name === pipeline.declarations[0]);
      if (target) target.value = result;
    } else if (!isRange) for (const name of pipeline.declarations) vars.push({ name, value: result });
    return result;
  }

  private command(command: Command, dot: TValue, vars: Var[], frame: Frame, final: TValue | undefined): TValue {
    const [head, ...rest] = command.args;
    if (head.kind === 'function') {
      if (head.name === 'and' || head.name === 'or') return this.logic(head.name, rest, dot, vars, frame, final);
      const args = rest.map((arg) => this.arg(arg, dot, vars, frame));
      if (final !== undefined) args.push(final);
      return this.call(head, args, frame, command);
    }
    if (rest.length > 0 || final !== undefined) {
      if (head.kind === 'field' || head.kind === 'variable') this.fail(frame, head.start, `${head.path[head.path.length - 1] ?? head.kind} is not a method but has arguments`, head);
      this.fail(frame, head.start, `can't give argument to non-function ${frame.text.slice(head.start, head.end)}`, head);
    }
    return this.arg(head, dot, vars, frame);
  }

  /** `and` / `or` evaluate lazily and return the deciding operand (Go 1.18+). */
  private logic(name: 'and' | 'or', args: readonly Term[], dot: TValue, vars: Var[], frame: Frame, final: TValue | undefined): TValue {
    let value: TValue = null;
    const operands: Array<() => TValue> = args.map((arg) => () => this.arg(arg, dot, vars, frame));
    if (final !== undefined) operands.push(() => final);
    for (const operand of operands) {
      value = operand();
      if (value instanceof Unknown) return value;
      if (name === 'and' ? !isTrue(value) : isTrue(value)) return value;
    }
    return value;
  }

  /** Calls a function; errors point at the command, as Go's `evalCall` does. */
  private call(head: Extract<Term, { kind: 'function' }>, args: TValue[], frame: Frame, command: { start: number; end: number } = head): TValue {
    const context: CallContext = {
      include: (name, data) => this.include(name, data, frame, { start: head.start } as TemplateAction),
      tpl: (text, data) => this.tpl(text, data, frame, { start: head.start } as TemplateAction),
    };
    try {
      return callFunction(head.name, args, context);
    } catch (error) {
      if (error instanceof TemplateError) {
        if (error.userFailure) this.fail(frame, command.start, error.message, command, true);
        // Argument type errors come from text/template itself; the rest from the function.
        const own = /^(wrong type|invalid value|error calling)/.test(error.message);
        this.fail(frame, command.start, own ? error.message : `error calling ${head.name}: ${error.message}`, command);
      }
      throw error;
    }
  }

  private arg(term: Term, dot: TValue, vars: Var[], frame: Frame): TValue {
    switch (term.kind) {
      case 'field':
        return this.fields(dot, term.path, frame, term);
      case 'variable': {
        const found = [...vars].reverse().find((v) => v.name === term.name);
        if (!found) this.fail(frame, term.start, `undefined variable: ${term.name}`, term);
        return this.fields(found.value, term.path, frame, term);
      }
      case 'pipeline':
        return this.fields(this.pipeline(term.pipeline, dot, [...vars], frame), term.path, frame, term);
      case 'function':
        return this.call(term, [], frame);
      case 'string':
        return term.value;
      case 'bool':
        return term.value;
      case 'number':
        return term.isInt ? new GoInt(BigInt(Math.trunc(term.value))) : new GoFloat(term.value);
      case 'nil':
        this.fail(frame, term.start, 'nil is not a command', term);
    }
  }

  private fields(receiver: TValue, path: readonly string[], frame: Frame, term: Term): TValue {
    let value = receiver;
    for (const name of path) {
      if (value instanceof Unknown) return value;
      if (value instanceof GoMap) value = (value.get(name) ?? null) as TValue;
      else if (value instanceof GoStruct) {
        const field = value.fields.get(name);
        if (field === undefined) this.fail(frame, term.start, `can't evaluate field ${name} in type ${value.typeName}`, term);
        value = field;
      } else if (value === null) this.fail(frame, term.start, `nil pointer evaluating interface {}.${name}`, term);
      else this.fail(frame, term.start, `can't evaluate field ${name} in type ${typeof value === 'string' ? 'string' : value instanceof GoFloat ? 'float64' : value instanceof GoInt ? 'int' : typeof value === 'boolean' ? 'bool' : 'interface {}'}`, term);
    }
    return value;
  }

  /** Throws Helm's wording: `template: <file>:L:C: executing "<name>" at <node>: msg`. */
  private fail(frame: Frame, offset: number, message: string, node: { start: number; end?: number }, userFailure = false): never {
    const { line, col } = lineCol(frame.text, offset);
    const location = `${templateName(this.chart, frame.file)}:${line}:${col}`;
    const context = frame.text.slice(node.start, node.end ?? node.start);
    const text = userFailure ? `execution error at (${location}): ${message}` : `template: ${location}: executing "${frame.name}" at <${context}>: ${message}`;
    throw new Located({ message: text, file: frame.file, offset });
  }
}
