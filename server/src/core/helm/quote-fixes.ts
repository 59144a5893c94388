/**
 * Edits that make an action's output a quoted YAML string with Helm's own `quote`, whose Go
 * escaping (`\"`, `\\`, `\n`) always re-reads as the same string.
 */
import type { RuleEdit } from '../model/rule-edits';
import { commandFunction, type Pipeline } from '../gotemplate/ast';
import type { ScalarPiece } from './scalar-judge';
import type { TemplateAction } from '../gotemplate/lexer';

/** `{{ .Values.x }}` → `{{ .Values.x | quote }}`. */
export function appendQuote(pipeline: Pipeline): RuleEdit {
  return { range: { start: pipeline.end, end: pipeline.end }, newText: ' | quote' };
}

/** `"{{ .Values.x }}"` → `{{ .Values.x | quote }}`: the action with its pipeline quoted, no hand quotes. */
export function replaceWithQuoted(text: string, range: { start: number; end: number }, action: TemplateAction, pipeline: Pipeline): RuleEdit {
  const fn = commandFunction(pipeline.commands[pipeline.commands.length - 1]);
  const quoted = fn === 'quote' ? text.slice(action.start, action.end) : text.slice(action.start, pipeline.end) + ' | quote' + text.slice(pipeline.end, action.end);
  return { range, newText: quoted };
}

/**
 * A scalar of literal text and actions rebuilt as one action:
 * `{{ .Values.m }} * * * *` → `{{ printf "%v * * * *" .Values.m | quote }}`. Undefined when
 * a part cannot be carried over (escapes in a quoted scalar's literal text).
 */
export function printfQuoted(text: string, range: { start: number; end: number }, pieces: readonly ScalarPiece[]): RuleEdit | undefined {
  let format = '';
  const args: string[] = [];
  for (const piece of pieces) {
    if (piece.kind === 'text') {
      const literal = text.slice(piece.start, piece.end);
      if (/[\\'"]/.test(literal)) return undefined;
      format += literal.replace(/%/g, '%%');
      continue;
    }
    format += '%v';
    args.push(argument(text, piece.pipeline!));
  }
  const first = pieces[0];
  const last = pieces[pieces.length - 1];
  const open = first.kind === 'action' && text.startsWith('{{-', first.start) && /\s/.test(text[first.start + 3]) ? '{{- ' : '{{ ';
  const close = last.kind === 'action' && /\s-}}$/.test(text.slice(last.start, last.end)) ? ' -}}' : ' }}';
  return { range, newText: `${open}printf "${format}" ${args.join(' ')} | quote${close}` };
}

/** A pipeline as one printf argument, without a trailing `quote` (printf and `| quote` take over). */
function argument(text: string, pipeline: Pipeline): string {
  let commands = pipeline.commands;
  const lastFn = commandFunction(commands[commands.length - 1]);
  if ((lastFn === 'quote' || lastFn === 'squote') && commands.length > 1) commands = commands.slice(0, -1);
  else if ((lastFn === 'quote' || lastFn === 'squote') && commands[0].args.length === 2) {
    const only = commands[0].args[1];
    return text.slice(only.start, only.end);
  }
  const source = text.slice(commands[0].start, commands[commands.length - 1].end);
  return commands.length === 1 && commands[0].args.length === 1 ? source : `(${source})`;
}
