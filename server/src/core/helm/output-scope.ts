/**
 * What a template's own text decides about its variables and dots, for output-class.ts: a
 * local set from `printf "%s-%d" …`, `quote` or `include`; an item of a range over `list "a"
 * "b"`; `.Chart.AppVersion` as Chart.yaml writes it. Everything else passes a value through.
 *
 * Variables are collected by name over the whole file (`:=` and `=` alike, every scope), and
 * a read sees every assignment written before it: a name assigned a value in any of them is a
 * value. That is coarser than Go's scoping (and a loop's later assignment is not seen by an
 * earlier read), and otherwise only errs towards judging more actions.
 */
import { either, termClass, classifyOutput, type OutputClass, type OutputScope } from './output-class';
import { commandFunction, type Pipeline, type Term } from '../gotemplate/ast';
import { ancestorsOf, type TemplateTree, type TreeNode } from '../gotemplate/tree';

/** `item`: a range variable, holding what the pipeline ranges over; `key`: a range's key. */
export type Assignment = { pipeline: Pipeline; role: 'set' | 'item' | 'key'; rebound: boolean; offset: number };

const value: OutputClass = { kind: 'value' };

/** What the chart around a template knows (chart-scope.ts). */
export interface ScopeChart {
  /** `.Chart.<name>`. */
  field(name: string): OutputClass | undefined;
  /** `.a.b` read on the dot inside `define "<define>"`: what the chart's callers pass. */
  callerField(define: string, path: readonly string[]): OutputClass | undefined;
}

export function outputScope(tree: TemplateTree, rebound: (offset: number) => boolean, chart: ScopeChart): OutputScope {
  const assignments = collectAssignments(tree, rebound);
  const pending = new Set<string>();
  /** The assignments of `name` made before `offset`: Go runs a template in text order. */
  const before = (name: string, offset: number) => (assignments.get(name) ?? []).filter((a) => a.offset < offset);
  const scope: OutputScope = {
    variable: (name, offset) => guarded(`var:${name}`, () => either(before(name, offset ?? Infinity).map(assigned))),
    dot: (offset) => {
      const steps = ancestorsOf(tree.body, offset) ?? ancestorsOf(tree.defines.find((d) => offset > d.action.start && offset < d.end)?.body ?? [], offset);
      // The innermost `range` or `with` decides the dot; only a range over constants is known.
      const step = steps?.filter((s) => (s.node.type === 'range' ? s.branch === 0 : s.branch >= 0 && s.node.branches[s.branch].keyword === 'with')).pop();
      if (step?.node.type !== 'range') return undefined;
      const at = step.node.action.start;
      return rangeClass(step.node.pipeline, 'item', rebound(at), at);
    },
    chartField: (name) => chart.field(name),
    callerField: (path, offset) => {
      const define = tree.defines.find((d) => offset > d.action.start && offset < d.end);
      return define && chart.callerField(define.name, path);
    },
  };
  function assigned(a: Assignment): OutputClass {
    return a.role === 'set' ? classifyOutput(a.pipeline, a.rebound, scope, a.offset) : rangeClass(a.pipeline, a.role, a.rebound, a.offset);
  }
  /**
   * A name met again while its class is being worked out (`$args = concat $args (list "x")`)
   * adds nothing: its other assignments decide.
   */
  function guarded(key: string, compute: () => OutputClass): OutputClass | undefined {
    if (pending.has(key)) return undefined;
    pending.add(key);
    try {
      return compute();
    } finally {
      pending.delete(key);
    }
  }
  /**
   * What a range over `pipeline` gives each time round, as its item or its key: items of
   * `list`, `tuple`, `concat`, `append` of known outputs, items and keys of a `dict`.
   */
  function rangeClass(pipeline: Pipeline, role: 'item' | 'key', isRebound: boolean, offset: number): OutputClass {
    if (pipeline.commands.length !== 1) return value;
    const command = pipeline.commands[0];
    const only = command.args.length === 1 ? command.args[0] : undefined;
    // `range $k, $v := (dict …)`: the parentheses change nothing.
    if (only?.kind === 'pipeline' && only.path.length === 0) return rangeClass(only.pipeline, role, isRebound, offset);
    const fn = commandFunction(command);
    const args = command.args.slice(1);
    const term = (t: Term) => termClass(t, isRebound, scope, offset);
    if (fn === 'dict') return either(args.filter((_, i) => i % 2 === (role === 'key' ? 0 : 1)).map(term));
    // A list's keys are indexes: numbers.
    if (role === 'key') return value;
    const itemsOf = (t: Term): OutputClass | undefined => {
      if (t.kind === 'variable' && t.path.length === 0 && t.name !== '$') return guarded(`items:${t.name}`, () => either(before(t.name, offset).map((a) => (a.role === 'set' ? rangeClass(a.pipeline, 'item', a.rebound, a.offset) : value))));
      return t.kind === 'pipeline' && t.path.length === 0 ? rangeClass(t.pipeline, 'item', isRebound, offset) : value;
    };
    if (fn === 'list' || fn === 'tuple') return either(args.map(term));
    if (fn === 'concat') return either(args.map(itemsOf));
    if (fn === 'append' && args.length === 2) return either([itemsOf(args[0]), term(args[1])]);
    if (fn === undefined && command.args.length === 1) return itemsOf(command.args[0]) ?? value;
    return value;
  }
  return scope;
}

/** Every `$x :=` / `$x =` and range variable of the file, defines included, by name. */
export function collectAssignments(tree: TemplateTree, rebound: (offset: number) => boolean): Map<string, Assignment[]> {
  const out = new Map<string, Assignment[]>();
  const add = (name: string, assignment: Assignment) => {
    const list = out.get(name);
    if (list) list.push(assignment);
    else out.set(name, [assignment]);
  };
  const stack: TreeNode[] = [...tree.body, ...tree.defines.flatMap((d) => d.body)];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'output') {
      for (const name of node.pipeline.declarations) add(name, { pipeline: node.pipeline, role: 'set', rebound: rebound(node.action.start), offset: node.action.start });
    } else if (node.type === 'cond') {
      for (const branch of node.branches) {
        for (const name of branch.pipeline.declarations) add(name, { pipeline: branch.pipeline, role: 'set', rebound: rebound(branch.action.start), offset: branch.action.start });
        stack.push(...branch.body);
      }
      if (node.elseBody) stack.push(...node.elseBody);
    } else if (node.type === 'range') {
      const [first, second] = node.pipeline.declarations;
      const at = { pipeline: node.pipeline, rebound: rebound(node.action.start), offset: node.action.start };
      if (second !== undefined) add(first, { ...at, role: 'key' });
      if (first !== undefined) add(second ?? first, { ...at, role: 'item' });
      stack.push(...node.body, ...(node.elseBody ?? []));
    }
  }
  return out;
}
