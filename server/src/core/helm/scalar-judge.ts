/**
 * Judges a plain scalar built from template actions the way YAML will see it after rendering:
 * the whole scalar, literal text included. Actions that pass values through are replaced by
 * probe values (`true`, `8080`, and for a CronJob schedule `*\/5`); the scalar fails when one
 * probe makes go-yaml read it as something other than a string, or not read it at all.
 */
import { yamlToJson } from '../yaml/v2/yaml-to-json';
import { GoMap, type GoValue } from '../yaml/v2/value';
import type { FieldSlot } from './key-paths';
import { classifyOutput, type OutputClass } from './output-class';
import type { Pipeline } from './parse';
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
export function scalarPieces(slot: FieldSlot, analysis: TemplateAnalysis): ScalarPiece[] | undefined {
  const pieces: ScalarPiece[] = [];
  for (const part of slot.parts) {
    if (part.kind === 'text') {
      pieces.push({ kind: 'text', start: part.start, end: part.end });
      continue;
    }
    const node = analysis.tree.nodes.get(part.action.start);
    if (node?.type === 'comment') continue;
    if (node?.type !== 'output' || node.pipeline.declarations.length > 0) return undefined;
    pieces.push({ kind: 'action', start: part.action.start, end: part.action.end, pipeline: node.pipeline, output: classifyOutput(node.pipeline, analysis.rebound(part.action.start)) });
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

/** The text an action stands for when probing, or undefined when the scalar cannot be judged. */
function standIn(piece: ScalarPiece, probe: string): string | undefined {
  const output = piece.output!;
  switch (output.kind) {
    case 'value':
      return probe;
    case 'quoted':
      return output.squote ? "'x'" : '"x"';
    case 'literal':
      return output.text;
    case 'name':
      return 'release-name';
    case 'opaque':
      return 'YWJj';
    default:
      return undefined;
  }
}

/**
 * The first probe that breaks the scalar or makes it a non-string; undefined when every probe
 * keeps it a string or the scalar holds structured or block output. With several value
 * actions, each takes the probe in turn while the others print `1`.
 */
export function judgeScalar(text: string, pieces: readonly ScalarPiece[], probes: readonly string[]): ScalarFailure | undefined {
  const valueActions = pieces.filter((p) => p.output?.kind === 'value');
  const trials = valueActions.length === 0 ? [{ probe: probes[0], target: undefined }] : probes.flatMap((probe) => valueActions.map((target) => ({ probe, target })));
  for (const { probe, target } of trials) {
    let rendered = '';
    for (const piece of pieces) {
      const part = piece.kind === 'text' ? text.slice(piece.start, piece.end) : standIn(piece, piece === target ? probe : '1');
      if (part === undefined) return undefined;
      rendered += part;
    }
    const verdict = yamlVerdict(rendered);
    if (!verdict.ok || verdict.type !== 'string') return { probe, rendered, verdict, target };
  }
  return undefined;
}

/** The probes for a field: a CronJob schedule also meets `*\/5`. */
export function probesFor(slot: FieldSlot): string[] {
  const schedule = slot.kind === 'CronJob' && slot.path.length === 2 && slot.path[0] === 'spec' && slot.path[1] === 'schedule';
  return schedule ? ['*/5', 'true', '8080'] : ['true', '8080', '1.5'];
}
