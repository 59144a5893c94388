/**
 * How variable values are shown to people: verbatim for ConfigMaps and inline values,
 * never for Secrets (a short hash identifies a value without revealing it).
 */
import type { Variable, VariableLayer } from '../flux/variables';
import { LineIndex } from '../positions';
import { sha256Hex } from '../sha256';

/**
 * A value as plain data, for JSON outputs (no Markdown): the text itself (newlines removed, as
 * Flux removes them), or what stands in for a value that is not shown or not known.
 */
export type ShownValue = string | { redacted: true; sha256: string } | { encrypted: true } | { unknown: string };

export function shownLayerValue(layer: VariableLayer): ShownValue {
  if (layer.encrypted) return { encrypted: true };
  if (layer.value === undefined) return { unknown: layer.via === 'external' ? 'set by another controller' : 'not readable from the repository' };
  if (layer.secret) return { redacted: true, sha256: sha256Hex(layer.value).slice(0, 12) };
  return layer.value.replace(/\n/g, '');
}

/** A shown value for people (Markdown): inline code, `*empty*`, or what stands in for it. */
export function displayShown(value: ShownValue): string {
  if (typeof value === 'string') return value === '' ? '*empty*' : codeSpan(value);
  if ('encrypted' in value) return 'encrypted';
  if ('redacted' in value) return `secret, sha256:${value.sha256}`;
  return value.unknown === 'set by another controller' ? 'set by another controller (unknown here)' : 'unknown';
}

export function displayLayerValue(layer: VariableLayer): string {
  return displayShown(shownLayerValue(layer));
}

/** A field under a Secret's `data` or `stringData`: what it holds after substitution is a secret too. */
export function isSecretData(kind: string | undefined, path: ReadonlyArray<string | number>): boolean {
  return kind === 'Secret' && (path[0] === 'data' || path[0] === 'stringData');
}

export function displayValue(variable: Variable): string {
  return variable.layers.length > 0 ? displayLayerValue(variable.layers[0]) : 'unknown';
}

/** `file:line` of a layer, 1-based, for provenance lines. */
export function layerLocation(layer: VariableLayer, textOf: (file: string) => string | undefined): string {
  const text = textOf(layer.file);
  const line = text === undefined ? undefined : new LineIndex(text).positionAt(layer.range.start).line + 1;
  return line === undefined ? layer.file : `${layer.file}:${line}`;
}

export function layerSource(layer: VariableLayer): string {
  if (layer.source === 'inline') return `postBuild.substitute of Kustomization ${layer.objectName}`;
  if (layer.source === 'declared') return 'declared in .render-lens.yaml (from outside the repository)';
  const how = layer.via === 'patch' ? ' (overlay patch)' : layer.via === 'generator' ? ' (generator)' : '';
  return `${layer.source} ${layer.objectName}${how}`;
}

/** Inline code that survives backticks and is kept short. */
export function codeSpan(text: string, max = 60): string {
  const short = text.length > max ? `${text.slice(0, max - 1)}…` : text;
  const fence = short.includes('`') ? '``' : '`';
  return `${fence}${short.includes('`') ? ` ${short} ` : short}${fence}`;
}
