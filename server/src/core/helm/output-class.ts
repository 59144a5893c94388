/**
 * What kind of text an output action prints, judged from its pipeline alone (no values):
 * - `quoted`: the last command is `quote` / `squote`, so YAML reads a quoted string;
 * - `structured`: `toYaml` / `toJson` and friends keep the value's own YAML type on purpose;
 * - `block`: `indent` / `nindent` write whole lines;
 * - `name`: a named template (`include`) or release and chart names, which Helm and
 *   Kubernetes restrict to names; treating them as free values would flag every chart;
 * - `opaque`: digests and encodings whose alphabet YAML never re-types in practice;
 * - `literal`: constants only, with their printed text;
 * - `value`: anything that passes a value through (`.Values`, variables, the dot inside
 *   `with` / `range`, `tpl`, `toString`, `int`, …): YAML decides its type at render time.
 */
import { commandFunction, type Command, type Pipeline, type Term } from './parse';

export type OutputClass =
  | { kind: 'quoted'; squote: boolean; command: Command }
  | { kind: 'structured' | 'block' | 'name' | 'opaque' }
  | { kind: 'literal'; text: string }
  | { kind: 'value' };

const structured = new Set(['toYaml', 'toJson', 'toPrettyJson', 'toRawJson', 'mustToJson', 'mustToPrettyJson', 'mustToRawJson', 'toToml']);
const blocks = new Set(['indent', 'nindent']);
const opaque = new Set(['b64enc', 'b32enc', 'sha1sum', 'sha256sum', 'sha512sum', 'uuidv4', 'htpasswd', 'bcrypt', 'encryptAES', 'genPrivateKey', 'urlquery']);
/** Functions that pass a string through without making it a value of another type. */
const nameKeeping = new Set(['trunc', 'trimSuffix', 'trimPrefix', 'trimAll', 'lower', 'upper', 'trim', 'replace', 'printf', 'print', 'default', 'toString', 'kebabcase', 'snakecase', 'camelcase']);
/** Root fields holding names Helm validates (release, chart name, template path). */
const nameFields = ['Release.Name', 'Release.Namespace', 'Release.Service', 'Chart.Name', 'Template.Name', 'Template.BasePath'];

/**
 * `rebound`: the action sits inside `with` / `range`, where `.x` is a field of a value rather
 * than of the root.
 */
export function classifyOutput(pipeline: Pipeline, rebound: boolean): OutputClass {
  const last = pipeline.commands[pipeline.commands.length - 1];
  const fn = commandFunction(last);
  if (fn === 'quote' || fn === 'squote') return { kind: 'quoted', squote: fn === 'squote', command: last };
  if (fn && structured.has(fn)) return { kind: 'structured' };
  if (fn && blocks.has(fn)) return pipeline.commands.some((c) => structured.has(commandFunction(c) ?? '')) || fn === 'nindent' ? { kind: 'block' } : { kind: 'value' };
  if (fn && opaque.has(fn)) return { kind: 'opaque' };
  if (fn === 'include' || fn === 'template') return { kind: 'name' };
  const literal = literalText(pipeline);
  if (literal !== undefined) return { kind: 'literal', text: literal };
  if (pipeline.commands.every((c) => namesOnly(c, rebound))) return { kind: 'name' };
  return { kind: 'value' };
}

/** A command that only reshapes release or chart names (`.Release.Name | trunc 63`). */
function namesOnly(command: Command, rebound: boolean): boolean {
  const fn = commandFunction(command);
  if (fn === 'include') return true;
  if (fn !== undefined && !nameKeeping.has(fn)) return false;
  const args = fn === undefined ? command.args : command.args.slice(1);
  return args.every((arg) => isName(arg, rebound) || arg.kind === 'string' || (arg.kind === 'number' && fn !== undefined) || (arg.kind === 'pipeline' && arg.path.length === 0 && arg.pipeline.commands.every((c) => namesOnly(c, rebound))));
}

function isName(term: Term, rebound: boolean): boolean {
  if (term.kind === 'field' && !rebound) return nameFields.includes(term.path.join('.'));
  if (term.kind === 'variable' && term.name === '$') return nameFields.includes(term.path.join('.'));
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
