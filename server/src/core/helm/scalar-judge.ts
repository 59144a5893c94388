/**
 * Judges a plain scalar built from template actions the way YAML will see it after rendering:
 * the whole scalar, literal text included. Actions that pass values through are replaced by
 * probe values (`true`, `8080`, and for a CronJob schedule `*\/5`); the scalar fails when one
 * probe makes go-yaml read it as something other than a string, or not read it at all.
 */
import { yamlToJson } from '../goyaml/v2/yaml-to-json';
import { GoMap, type GoValue } from '../goyaml/v2/value';
import type { FieldSlot } from './key-paths';
import { classifyOutput, type OutputClass, type OutputScope } from './output-class';
import type { Pipeline } from '../gotemplate/ast';
import type { TemplateAnalysis } from './template-file';

export type YamlVerdict = { ok: true; type: 'string' | 'bool' | 'number' | 'null' | 'map' | 'list'; value: GoValue } | { ok: false; error: string };

export interface ScalarPiece {
  kind: 'text' | 'action';
  start: number;
  end: number;
  /** For actions. */
  pipeline?: Pipeline;
  output?: OutputClass;
}

export interface ScalarFailure {
  /** The probe given to every value action. */
  probe: string;
  rendered: string;
  verdict: YamlVerdict;
  /** The action that was given the probe (the others print `1`). */
  target?: ScalarPiece;
}

/** The scalar's parts with each action classified; undefined when control actions sit inside. */
export function scalarPieces(slot: FieldSlot, analysis: TemplateAnalysis, scope?: OutputScope): ScalarPiece[] | undefined {
  const pieces: ScalarPiece[] = [];
  for (const part of slot.parts) {
    if (part.kind === 'text') {
      pieces.push({ kind: 'text', start: part.start, end: part.end });
      continue;
    }
    const node = analysis.tree.nodes.get(part.action.start);
    if (node?.type === 'comment') continue;
    if (node?.type !== 'output' || node.pipeline.declarations.length > 0) return undefined;
    pieces.push({ kind: 'action', start: part.action.start, end: part.action.end, pipeline: node.pipeline, output: classifyOutput(node.pipeline, analysis.rebound(part.action.start), scope, part.action.start) });
  }
  return pieces;
}

/** What go-yaml v2 makes of `text` as the value of a one-key map (sigs.k8s.io/yaml, as Helm reads it). */
export function yamlVerdict(scalar: string): YamlVerdict {
  const read = yamlToJson(`k: ${scalar}\n`);
  if (!read.ok) return { ok: false, error: read.error };
  const value = read.value instanceof GoMap ? (read.value.get('k') ?? null) : null;
  return { ok: true, type: typeName(value), value };
}

export function typeName(value: GoValue): 'string' | 'bool' | 'number' | 'null' | 'map' | 'list' {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'string') return 'string';
  if (Array.isArray(value)) return 'list';
  if (value instanceof GoMap) return 'map';
  return 'number';
}

/** The texts an output may print when probing (several for `either`), or undefined when the scalar cannot be judged. */
export function standIns(output: OutputClass, probe: string): string[] | undefined {
  switch (output.kind) {
    case 'value':
      return [probe];
    case 'quoted':
      return [output.squote ? "'x'" : '"x"'];
    case 'literal':
      return [output.text];
    case 'format':
      return [formatWith(output.format, probe)];
    case 'either': {
      const all = output.options.map((o) => standIns(o, probe));
      return all.some((a) => a === undefined) ? undefined : all.flat() as string[];
    }
    case 'name':
      return ['release-name'];
    case 'opaque':
      return ['YWJj'];
    default:
      return undefined;
  }
}

/** A printf format with every operand printing `probe` (`%q` a quoted string, `%%` a percent). */
function formatWith(format: string, probe: string): string {
  return format.replace(/%[-+# 0]*(\d+|\*)?(\.(\d+|\*)?)?([a-zA-Z%])/g, (_, _w, _p, _pp, verb: string) => (verb === '%' ? '%' : verb === 'q' ? '"x"' : probe));
}

/** Whether an output's text depends on a value: it takes the probe. */
export function takesProbe(output: OutputClass | undefined): boolean {
  if (!output) return false;
  if (output.kind === 'value') return true;
  if (output.kind === 'format') return /%[^%]/.test(output.format.replace(/%%/g, ''));
  return output.kind === 'either' && output.options.some(takesProbe);
}

/** At most this many renderings of one scalar are judged per probe (each `either` multiplies them). */
const maxRenderings = 64;

/**
 * The first probe that breaks the scalar or makes it a non-string; undefined when every probe
 * keeps it a string or the scalar holds structured or block output. With several value
 * actions, each takes the probe in turn while the others print `1`; an action that may print
 * one of several texts is judged with each.
 */
export function judgeScalar(text: string, pieces: readonly ScalarPiece[], probes: readonly string[]): ScalarFailure | undefined {
  const valueActions = pieces.filter((p) => takesProbe(p.output));
  const trials = valueActions.length === 0 ? [{ probe: probes[0], target: undefined }] : probes.flatMap((probe) => valueActions.map((target) => ({ probe, target })));
  for (const { probe, target } of trials) {
    let renderings = [''];
    for (const piece of pieces) {
      const parts = piece.kind === 'text' ? [text.slice(piece.start, piece.end)] : standIns(piece.output!, piece === target ? probe : '1');
      if (parts === undefined) return undefined;
      renderings = renderings.flatMap((r) => parts.map((p) => r + p)).slice(0, maxRenderings);
    }
    for (const rendered of renderings) {
      const verdict = yamlVerdict(rendered);
      if (!verdict.ok || verdict.type !== 'string') return { probe, rendered, verdict, target };
    }
  }
  return undefined;
}

/** The probes for a field: a CronJob schedule also meets `*\/5`. */
export function probesFor(slot: FieldSlot): string[] {
  const schedule = slot.kind === 'CronJob' && slot.path.length === 2 && slot.path[0] === 'spec' && slot.path[1] === 'schedule';
  return schedule ? ['*/5', 'true', '8080'] : ['true', '8080', '1.5'];
}
