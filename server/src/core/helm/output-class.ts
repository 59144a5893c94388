/**
 * What kind of text an output action prints, judged from its pipeline alone (no values):
 * - `quoted`: the last command is `quote` / `squote`, so YAML reads a quoted string;
 * - `structured`: `toYaml` / `toJson` and friends keep the value's own YAML type on purpose;
 * - `block`: `indent` / `nindent` write whole lines;
 * - `name`: a named template (`include`) or release and chart names, which Helm and
 *   Kubernetes restrict to names; treating them as free values would flag every chart;
 * - `opaque`: digests and encodings whose alphabet YAML never re-types in practice;
 * - `literal`: constants only, with their printed text;
 * - `format`: `printf` with a constant format; `either`: one of several known outputs;
 * - `value`: anything that passes a value through (`.Values`, variables, the dot inside
 *   `with` / `range`, `tpl`, `toString`, `int`, …): YAML decides its type at render time.
 */
import { commandFunction, type Command, type Pipeline, type Term } from '../gotemplate/ast';

export type OutputClass =
  | { kind: 'quoted'; squote: boolean; command: Command }
  | { kind: 'structured' | 'block' | 'name' | 'opaque' }
  | { kind: 'literal'; text: string }
  /** `printf` with a constant format: the format's text is printed whatever the operands. */
  | { kind: 'format'; format: string }
  /** One of several (`ternary "a" "b" .x`, a variable assigned in two places). */
  | { kind: 'either'; options: OutputClass[] }
  | { kind: 'value' };

/**
 * What the template's variables and rebound dots are known to hold (output-scope.ts): a local
 * set from `printf` or `quote`, an item of a range over constants, a `.Chart` field.
 */
export interface OutputScope {
  /** What `name` holds where it is read, at `offset`. */
  variable(name: string, offset?: number): OutputClass | undefined;
  /** The dot at `offset` inside a `range` over constants. */
  dot(offset: number): OutputClass | undefined;
  /** `.Chart.<field>` as Chart.yaml sets it. */
  chartField(field: string): OutputClass | undefined;
  /** `.a.b` on the dot of the define around `offset`, as its callers set it. */
  callerField(path: readonly string[], offset: number): OutputClass | undefined;
}

const structured = new Set(['toYaml', 'toJson', 'toPrettyJson', 'toRawJson', 'mustToJson', 'mustToPrettyJson', 'mustToRawJson', 'toToml']);
const blocks = new Set(['indent', 'nindent']);
const opaque = new Set(['b64enc', 'b32enc', 'sha1sum', 'sha256sum', 'sha512sum', 'uuidv4', 'htpasswd', 'bcrypt', 'encryptAES', 'genPrivateKey', 'urlquery']);
/** Functions that pass a string through without making it a value of another type. */
const nameKeeping = new Set(['trunc', 'trimSuffix', 'trimPrefix', 'trimAll', 'lower', 'upper', 'trim', 'replace', 'printf', 'print', 'default', 'toString', 'kebabcase', 'snakecase', 'camelcase']);
/** Root fields holding names Helm validates (release, chart name, template path). */
const nameFields = ['Release.Name', 'Release.Namespace', 'Release.Service', 'Chart.Name', 'Template.Name', 'Template.BasePath'];
const value: OutputClass = { kind: 'value' };

/**
 * `rebound`: the action sits inside `with` / `range`, where `.x` is a field of a value rather
 * than of the root. `scope` knows the template's variables; `offset` is the action's.
 */
export function classifyOutput(pipeline: Pipeline, rebound: boolean, scope?: OutputScope, offset = pipeline.start): OutputClass {
  const last = pipeline.commands[pipeline.commands.length - 1];
  const fn = commandFunction(last);
  if (fn === 'quote' || fn === 'squote') return { kind: 'quoted', squote: fn === 'squote', command: last };
  if (fn && structured.has(fn)) return { kind: 'structured' };
  if (fn && blocks.has(fn)) return pipeline.commands.some((c) => structured.has(commandFunction(c) ?? '')) || fn === 'nindent' ? { kind: 'block' } : value;
  if (fn && opaque.has(fn)) return { kind: 'opaque' };
  if (fn === 'include' || fn === 'template') return { kind: 'name' };
  const literal = literalText(pipeline);
  if (literal !== undefined) return { kind: 'literal', text: literal };
  if (pipeline.commands.every((c) => namesOnly(c, rebound, scope))) return { kind: 'name' };
  if (scope && fn && reshaping.has(fn) && pipeline.commands.length > 1) {
    // `printf "%s-%d" … | trunc 63 | trimSuffix "-"` still prints the format's text around its operands.
    const before = classifyOutput({ ...pipeline, commands: pipeline.commands.slice(0, -1) }, rebound, scope, offset);
    if (before.kind === 'format' || before.kind === 'name') return before;
  }
  return (scope && derived(last, pipeline.commands.length > 1, rebound, scope, offset)) ?? value;
}

/** Functions that trim or re-case a string: the text around a format's operands stays. */
const reshaping = new Set(['trunc', 'trimSuffix', 'trimPrefix', 'trim', 'lower', 'upper']);

/**
 * The class of a command whose printed text the template itself decides: `printf` with a
 * constant format, `ternary` of two known outputs, `tpl` of a quoted string, a variable or a
 * dot the scope knows. `piped`: a previous command's output is the last operand.
 */
function derived(command: Command, piped: boolean, rebound: boolean, scope: OutputScope, offset: number): OutputClass | undefined {
  const fn = commandFunction(command);
  const args = command.args.slice(1);
  const known = (c: OutputClass | undefined) => (c === undefined || c.kind === 'value' ? undefined : c);
  if (fn === 'printf' && args[0]?.kind === 'string') return { kind: 'format', format: args[0].value };
  if (fn === 'ternary' && args.length >= 2) return either([termClass(args[0], rebound, scope, offset), termClass(args[1], rebound, scope, offset)]);
  if ((fn === 'tpl' || fn === 'print' || fn === 'toString') && args.length >= 1 && !piped) return known(termClass(args[0], rebound, scope, offset));
  if (fn === undefined && command.args.length === 1 && !piped) return known(termClass(command.args[0], rebound, scope, offset));
  return undefined;
}

/** The class of one operand. */
export function termClass(term: Term, rebound: boolean, scope: OutputScope | undefined, offset: number): OutputClass {
  switch (term.kind) {
    case 'string':
      return { kind: 'literal', text: term.value };
    case 'bool':
      return { kind: 'literal', text: String(term.value) };
    case 'number':
      return term.isInt ? { kind: 'literal', text: String(Math.trunc(term.value)) } : value;
    case 'variable':
      if (term.name === '$') return rootField(term.path, scope) ?? value;
      return term.path.length === 0 ? (scope?.variable(term.name, offset) ?? value) : value;
    case 'field':
      if (rebound) return term.path.length === 0 ? (scope?.dot(offset) ?? value) : value;
      return rootField(term.path, scope) ?? (term.path.length > 0 ? scope?.callerField(term.path, offset) : undefined) ?? value;
    case 'pipeline':
      return term.path.length === 0 ? classifyOutput(term.pipeline, rebound, scope, offset) : value;
    default:
      return value;
  }
}

function rootField(path: readonly string[], scope: OutputScope | undefined): OutputClass | undefined {
  if (nameFields.includes(path.join('.'))) return { kind: 'name' };
  return path.length === 2 && path[0] === 'Chart' ? scope?.chartField(path[1]) : undefined;
}

/**
 * One class for several: `value` when any may pass a value through or write structure, as
 * the judge cannot read those as one of several texts. Undefined options add nothing.
 */
export function either(options: ReadonlyArray<OutputClass | undefined>): OutputClass {
  const flat = options.flatMap((o) => (o === undefined ? [] : o.kind === 'either' ? o.options : [o]));
  if (flat.length === 0 || flat.some((o) => o.kind === 'value' || o.kind === 'structured' || o.kind === 'block')) return value;
  return flat.length === 1 ? flat[0] : { kind: 'either', options: flat };
}

/** A command that only reshapes release or chart names (`.Release.Name | trunc 63`). */
function namesOnly(command: Command, rebound: boolean, scope: OutputScope | undefined): boolean {
  const fn = commandFunction(command);
  if (fn === 'include') return true;
  if (fn !== undefined && !nameKeeping.has(fn)) return false;
  const args = fn === undefined ? command.args : command.args.slice(1);
  return args.every((arg) => isName(arg, rebound, scope) || arg.kind === 'string' || (arg.kind === 'number' && fn !== undefined) || (arg.kind === 'pipeline' && arg.path.length === 0 && arg.pipeline.commands.every((c) => namesOnly(c, rebound, scope))));
}

function isName(term: Term, rebound: boolean, scope: OutputScope | undefined): boolean {
  if (term.kind === 'field' && !rebound) return nameFields.includes(term.path.join('.'));
  if (term.kind === 'variable' && term.name === '$') return nameFields.includes(term.path.join('.'));
  if (term.kind === 'variable' && term.path.length === 0) return scope?.variable(term.name, term.start)?.kind === 'name';
  return false;
}

/** The printed text of a pipeline of constants only (`{{ "x" }}`, `{{ 8080 }}`, `{{ true }}`). */
function literalText(pipeline: Pipeline): string | undefined {
  if (pipeline.commands.length !== 1 || pipeline.commands[0].args.length !== 1) return undefined;
  const term = pipeline.commands[0].args[0];
  if (term.kind === 'string') return term.value;
  if (term.kind === 'bool') return String(term.value);
  if (term.kind === 'number') return term.isInt ? String(Math.trunc(term.value)) : undefined;
  return undefined;
}

/** Every `.Values…` path the pipeline reads directly (not through variables or the dot). */
export function valuesPaths(pipeline: Pipeline, rebound: boolean): string[][] {
  const out: string[][] = [];
  const visit = (p: Pipeline) => {
    for (const command of p.commands) {
      for (const arg of command.args) {
        if (arg.kind === 'field' && !rebound && arg.path[0] === 'Values') out.push(arg.path.slice(1));
        if (arg.kind === 'variable' && arg.name === '$' && arg.path[0] === 'Values') out.push(arg.path.slice(1));
        if (arg.kind === 'pipeline') visit(arg.pipeline);
      }
    }
  };
  visit(pipeline);
  return out;
}
