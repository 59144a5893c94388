/**
 * How variable values are shown to people: verbatim for ConfigMaps and inline values,
 * never for Secrets (a short hash identifies a value without revealing it).
 */
import type { Variable, VariableLayer } from '../flux/variables';
import { fileLineLink } from '../links';
import { LineIndex } from '../positions';
import { sha256Hex } from '../sha256';

export function displayLayerValue(layer: VariableLayer): string {
  if (layer.encrypted) return 'encrypted';
  if (layer.value === undefined) return layer.via === 'external' ? 'set by another controller (unknown here)' : 'unknown';
  if (layer.secret) return `secret, sha256:${sha256Hex(layer.value).slice(0, 12)}`;
  return layer.value === '' ? '*empty*' : codeSpan(layer.value.replace(/\n/g, ''));
}

/** A field under a Secret's `data` or `stringData`: what it holds after substitution is a secret too. */
export function isSecretData(kind: string | undefined, path: ReadonlyArray<string | number>): boolean {
  return kind === 'Secret' && (path[0] === 'data' || path[0] === 'stringData');
}

export function displayValue(variable: Variable): string {
  return variable.layers.length > 0 ? displayLayerValue(variable.layers[0]) : 'unknown';
}

/** `file:line` of a layer, 1-based, for provenance lines; with `link`, as a markdown link that opens it (links.ts). */
export function layerLocation(layer: VariableLayer, textOf: (file: string) => string | undefined, link = false): string {
  const text = textOf(layer.file);
  const line = text === undefined ? undefined : new LineIndex(text).positionAt(layer.range.start).line + 1;
  if (line === undefined) return layer.file;
  return link ? fileLineLink(layer.file, line) : `${layer.file}:${line}`;
}

export function layerSource(layer: VariableLayer): string {
  if (layer.source === 'inline') return `postBuild.substitute of Kustomization ${layer.objectName}`;
  const how = layer.via === 'patch' ? ' (overlay patch)' : layer.via === 'generator' ? ' (generator)' : '';
  return `${layer.source} ${layer.objectName}${how}`;
}

/** Inline code that survives backticks and is kept short. */
export function codeSpan(text: string, max = 60): string {
  const short = text.length > max ? `${text.slice(0, max - 1)}…` : text;
  const fence = short.includes('`') ? '``' : '`';
  return `${fence}${short.includes('`') ? ` ${short} ` : short}${fence}`;
}
