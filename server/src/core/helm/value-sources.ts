/**
 * Where an action's printed value comes from, evaluated in one values world (values-worlds.ts):
 * `.Values.a.b` read directly, through a local (`$svc := .Values.service` … `$svc.port`),
 * the dot of a `with` or a `range`, a named template's `dict` argument as the chart's
 * `include` calls pass it, or a `default` / `or` chain, each function run as Helm runs it
 * (functions.ts). Every result keeps the values entry it comes from.
 *
 * What the template cannot show is an open candidate: an `include`, a function not evaluated
 * here, the release name, and a values path no values file sets that no default catches —
 * its value is whatever users pass.
 */
import { GoFloat, GoInt, GoMap } from '../goyaml/v2/value';
import { includeSitesOf, type ChartReader } from './include-sites';
import { callFunction } from './functions';
import { collectAssignments, type Assignment } from './output-scope';
import { commandFunction, type Command, type Pipeline, type Term } from '../gotemplate/ast';
import { analyzeTemplate, type TemplateAnalysis } from './template-file';
import { ancestorsOf } from '../gotemplate/tree';
import { isTrue, TemplateError, Unknown, type TValue } from './values';
import { entryFile, type ValuesEntry, type ValuesWorld } from './values-worlds';

export interface Candidate {
  /** Unknown when the template does not show it. */
  value: TValue;
  /** The values entry that supplies the value. */
  entry?: ValuesEntry;
  /** Read from a values path nothing sets, with no default: users decide. */
  unset?: boolean;
}

/** Where a term is read: the file and the action's offset. */
export interface Place {
  file: string;
  offset: number;
}

/** At most this many candidates per term: a range over a long list is judged on its first items. */
const maxCandidates = 32;
const maxDepth = 24;
const rootFields = new Set(['Values', 'Chart', 'Release', 'Capabilities', 'Template', 'Files', 'Subcharts']);
const open = (reason: string): Candidate[] => [{ value: new Unknown(reason) }];
/** The root object (`.` at the top of a template, `$`), kept as a marker. */
const root = Symbol('root');

export class ValueSources {
  private readonly analyses = new Map<string, TemplateAnalysis | undefined>();
  private readonly assignments = new Map<string, Map<string, Assignment[]>>();
  private depth = 0;
  private readonly pending = new Set<string>();

  constructor(
    private readonly context: ChartReader,
    private readonly dir: string,
    private readonly world: ValuesWorld,
  ) {}

  /** What the pipeline of the action at `place` may print, each with its source. */
  action(pipeline: Pipeline, place: Place): Candidate[] {
    return this.pipeline(pipeline, place).map((c) => ((c.value as unknown) === root ? { value: new Unknown('the root object') } : c));
  }

  private pipeline(pipeline: Pipeline, place: Place): Candidate[] {
    return this.deeper(() => {
      let piped: Candidate[] | undefined;
      for (const command of pipeline.commands) piped = this.command(command, place, piped);
      return piped ?? open('an empty pipeline');
    });
  }

  /**
   * One more step from the action to where its value is set (a pipeline, a local, a caller):
   * a define that includes itself with its own fields would otherwise never end.
   */
  private deeper(follow: () => Candidate[]): Candidate[] {
    if (this.depth >= maxDepth) return open('the value is passed through too many steps to follow');
    this.depth++;
    try {
      return follow().slice(0, maxCandidates);
    } finally {
      this.depth--;
    }
  }

  /** The values paths a condition needs to be true: `if .Values.x`, `with $x`, `if and .a .b`. */
  truthyPaths(pipeline: Pipeline, place: Place): string[] {
    if (pipeline.commands.length !== 1) return [];
    const command = pipeline.commands[0];
    const fn = commandFunction(command);
    const operands = fn === 'and' ? command.args.slice(1) : fn === undefined && command.args.length === 1 ? command.args : [];
    return operands.flatMap((term) => this.term(term, place).flatMap((c) => (c.entry ? [c.entry.path.join('.')] : [])));
  }

  private command(command: Command, place: Place, piped: Candidate[] | undefined): Candidate[] {
    const [head, ...rest] = command.args;
    if (head.kind !== 'function') return piped === undefined && rest.length === 0 ? this.term(head, place) : open('a value given arguments');
    const name = head.name;
    if (name === 'include' || name === 'template' || name === 'tpl') return open(`\`${name}\` output is judged where it is defined`);
    const sets = rest.map((arg) => this.term(arg, place));
    if (piped) sets.push(piped);
    const out: Candidate[] = [];
    for (const args of product(sets)) {
      out.push(name === 'and' || name === 'or' ? logic(name, args) : name === 'dig' ? dig(args) : call(name, args));
      if (out.length >= maxCandidates) break;
    }
    return out;
  }

  private term(term: Term, place: Place): Candidate[] {
    switch (term.kind) {
      case 'string':
      case 'bool':
        return [{ value: term.value }];
      case 'number':
        return [{ value: term.isInt ? new GoInt(BigInt(Math.trunc(term.value))) : new GoFloat(term.value) }];
      case 'nil':
        return open('nil');
      case 'function':
        return this.command({ args: [term], start: term.start, end: term.end }, place, undefined);
      case 'pipeline':
        return this.fields(this.pipeline(term.pipeline, place), term.path);
      case 'variable':
        if (term.name === '$') return this.root(term.path);
        return this.fields(this.deeper(() => this.variable(term.name, place)), term.path);
      case 'field':
        return this.field(term.path, place);
    }
  }

  private field(path: readonly string[], place: Place): Candidate[] {
    const analysis = this.analysis(place.file);
    if (!analysis) return open('the template cannot be read');
    if (analysis.rebound(place.offset)) return this.fields(this.dot(analysis, place), path);
    if (path.length === 0 || rootFields.has(path[0])) return this.root(path);
    const define = analysis.tree.defines.find((d) => place.offset > d.action.start && place.offset < d.end);
    return define ? this.callers(define.name, path) : open(`\`.${path.join('.')}\` is not a field of the root`);
  }

  private root(path: readonly string[]): Candidate[] {
    // `$root := .` then `$root.Values.x`: the root travels as a marker, read when a path follows.
    if (path.length === 0) return [{ value: root as unknown as TValue }];
    if (path[0] !== 'Values') return open(path[0] === 'Chart' ? 'a `.Chart` field, judged from Chart.yaml' : 'install-time data');
    return [this.valuesAt(path.slice(1))];
  }

  /** `.Values.a.b`: what the world holds there, or an unset entry. */
  private valuesAt(path: readonly string[]): Candidate {
    let value: TValue = this.world.values;
    for (let i = 0; i < path.length; i++) {
      if (value instanceof Unknown) return { value };
      if (!(value instanceof GoMap)) return { value: new Unknown(`\`.Values.${path.slice(0, i).join('.')}\` is not a map`) };
      const next = value.get(path[i]) as TValue | undefined;
      if (next === undefined) return { value: null, unset: true, entry: { file: this.world.base, path } };
      value = next;
    }
    return { value, entry: { file: entryFile(this.world, path), path } };
  }

  /** The dot inside the innermost `with` or `range` around `place`. */
  private dot(analysis: TemplateAnalysis, place: Place): Candidate[] {
    const define = analysis.tree.defines.find((d) => place.offset > d.action.start && place.offset < d.end);
    const steps = ancestorsOf(define ? define.body : analysis.tree.body, place.offset) ?? [];
    for (let i = steps.length - 1; i >= 0; i--) {
      const { node, branch } = steps[i];
      if (node.type === 'range' && branch === 0) return items(this.pipeline(node.pipeline, { file: place.file, offset: node.action.start }), 'item');
      if (node.type === 'cond' && branch >= 0 && node.branches[branch].keyword === 'with') {
        const b = node.branches[branch];
        // The body runs only when the value is not empty.
        return this.pipeline(b.pipeline, { file: place.file, offset: b.action.start }).filter((c) => c.value instanceof Unknown || isTrue(c.value));
      }
    }
    return open('the dot');
  }

  /** `$name` where it is read: every assignment written before it. */
  private variable(name: string, place: Place): Candidate[] {
    const analysis = this.analysis(place.file);
    if (!analysis) return open('the template cannot be read');
    let byName = this.assignments.get(place.file);
    if (!byName) this.assignments.set(place.file, (byName = collectAssignments(analysis.tree, analysis.rebound)));
    const before = (byName.get(name) ?? []).filter((a) => a.offset < place.offset);
    if (before.length === 0) return open(`\`$${name}\` is set where it cannot be seen`);
    return before.flatMap((a) => {
      const at = { file: place.file, offset: a.offset };
      if (a.role === 'set') return this.pipeline(a.pipeline, at);
      return items(this.pipeline(a.pipeline, at), a.role);
    });
  }

  /** `.a.b` inside a define: what each `include "<define>" (dict "a" …)` of the chart passes. */
  private callers(define: string, path: readonly string[]): Candidate[] {
    // A define that includes itself with its own field: its other callers decide.
    const key = `${define}\u0000${path.join('.')}`;
    if (this.pending.has(key)) return [];
    this.pending.add(key);
    try {
      return this.deeper(() => this.callerValues(define, path));
    } finally {
      this.pending.delete(key);
    }
  }

  private callerValues(define: string, path: readonly string[]): Candidate[] {
    const sites = includeSitesOf(this.dir, this.context, (file) => this.analysis(file)).get(define) ?? [];
    if (sites.length === 0) return open(`no template of the chart includes "${define}"`);
    return sites.flatMap((site): Candidate[] => {
      const data = site.data;
      const command = data?.kind === 'pipeline' && data.path.length === 0 && data.pipeline.commands.length === 1 ? data.pipeline.commands[0] : undefined;
      if (!command || commandFunction(command) !== 'dict') return open(`what an \`include "${define}"\` passes`);
      const args = command.args.slice(1);
      const at = args.findIndex((a, i) => i % 2 === 0 && a.kind === 'string' && a.value === path[0]);
      // A key the dict lacks is nil: it prints nothing.
      if (at < 0 || args[at + 1] === undefined) return [{ value: null }];
      return this.fields(this.term(args[at + 1], { file: site.file, offset: site.offset }), path.slice(1));
    });
  }

  private fields(candidates: Candidate[], path: readonly string[]): Candidate[] {
    return fields(candidates, path, (p) => this.root(p));
  }

  private analysis(file: string): TemplateAnalysis | undefined {
    if (!this.analyses.has(file)) {
      const text = file === this.context.file ? this.context.text : this.context.derived(file, 'text', (t) => t);
      this.analyses.set(file, text === undefined ? undefined : analyzeTemplate(file, text));
    }
    return this.analyses.get(file);
  }
}

/** `.a.b` read on each candidate. */
function fields(candidates: Candidate[], path: readonly string[], fromRoot: (path: readonly string[]) => Candidate[]): Candidate[] {
  if (path.length === 0) return candidates;
  return candidates.flatMap((c) => {
    if ((c.value as unknown) === root) return fromRoot(path);
    let value = c.value;
    for (const name of path) {
      if (value instanceof Unknown) return { value };
      if (!(value instanceof GoMap)) return { value: new Unknown(`\`.${name}\` of a value that is not a map`) };
      const next = value.get(name) as TValue | undefined;
      if (next === undefined) return { value: null, ...(c.entry ? { unset: true, entry: { file: c.entry.file, path: [...c.entry.path, ...path] } } : {}) };
      value = next;
    }
    return { value, ...(c.entry ? { entry: { file: c.entry.file, path: [...c.entry.path, ...path] } } : {}), ...(c.unset ? { unset: true } : {}) };
  });
}

/** What a `range` over each candidate gives each time round: its items, or its keys. */
function items(candidates: Candidate[], role: 'item' | 'key'): Candidate[] {
  const out: Candidate[] = [];
  const at = (c: Candidate, step: string | number) => (c.entry ? { entry: { file: c.entry.file, path: [...c.entry.path, step] } } : {});
  for (const c of candidates) {
    const value = c.value;
    if (value instanceof Unknown) out.push({ value });
    // A list's index is a number the template prints itself, mostly behind `kindIs "map"`: not judged.
    else if (Array.isArray(value)) value.forEach((v, i) => out.push(role === 'key' ? { value: new Unknown('a list index') } : { value: v, ...at(c, i) }));
    else if (value instanceof GoMap) for (const [k, v] of value.entries) out.push({ value: role === 'key' ? String(k) : (v as TValue), ...at(c, String(k)) });
    else if (value instanceof GoInt) out.push({ value: new Unknown('a count') });
  }
  return out.slice(0, maxCandidates);
}

/** Every combination of one candidate per argument, at most maxCandidates of them. */
function product(sets: Candidate[][]): Candidate[][] {
  let out: Candidate[][] = [[]];
  for (const set of sets) out = out.flatMap((prefix) => set.map((c) => [...prefix, c])).slice(0, maxCandidates);
  return out;
}

/**
 * A function run on one combination; the result keeps the source of the argument it is
 * (`default` returns one of its arguments) or else of the first argument read from values.
 */
function call(name: string, args: Candidate[]): Candidate {
  if (args.some((a) => (a.value as unknown) === root)) return { value: new Unknown(`\`${name}\` of the root object`) };
  let value: TValue;
  try {
    value = callFunction(name, args.map((a) => a.value), { include: () => new Unknown('include'), tpl: () => new Unknown('tpl') });
  } catch (error) {
    if (error instanceof TemplateError) return { value: new Unknown(`\`${name}\` fails here`) };
    throw error;
  }
  const same = args.find((a) => a.entry && a.value === value) ?? args.find((a) => a.value === value);
  const source = same ?? args.find((a) => a.entry);
  return { value, ...(source?.entry ? { entry: source.entry } : {}), ...(source?.unset ? { unset: true } : {}) };
}

/** sprig's `dig "a" "b" default map`: the nested value, or the default when a key is missing. */
function dig(args: Candidate[]): Candidate {
  const keys = args.slice(0, -2);
  const fallback = args[args.length - 2];
  const map = args[args.length - 1];
  if (!map || keys.some((k) => typeof k.value !== 'string')) return { value: new Unknown('`dig` with keys that are not strings') };
  let value: TValue = map.value;
  for (const key of keys) {
    if (value instanceof Unknown) return { value };
    const next: TValue | undefined = value instanceof GoMap ? (value.get(key.value as string) as TValue | undefined) : undefined;
    if (next === undefined) return fallback;
    value = next;
  }
  return { value, ...(map.entry ? { entry: { file: map.entry.file, path: [...map.entry.path, ...keys.map((k) => k.value as string)] } } : {}) };
}

/** `and` / `or` return the deciding operand (Go 1.18+). */
function logic(name: 'and' | 'or', args: Candidate[]): Candidate {
  for (const arg of args) {
    if (arg.value instanceof Unknown) return arg;
    if (name === 'and' ? !isTrue(arg.value) : isTrue(arg.value)) return arg;
  }
  return args[args.length - 1] ?? { value: null };
}
