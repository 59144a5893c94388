/**
 * How variable values are shown to people: verbatim for ConfigMaps and inline values,
 * never for Secrets (a short hash, when the value is long enough, identifies it: redaction.ts).
 */
import type { Variable, VariableLayer } from '../flux/variables';
import { fileLineLink } from '../links';
import { codeSpan } from '../markdown';
import { LineIndex } from '../positions';
import { minHashedLength, secretDigest } from './redaction';

/**
 * A value as plain data, for JSON outputs (no Markdown): the text itself (newlines removed, as
 * Flux removes them), or what stands in for a value that is not shown or not known. A secret
 * shows a hash only when it is long enough not to be guessed (redaction.ts), salted when the
 * repository sets a salt.
 */
export type ShownValue = string | { redacted: true; sha256?: string; salted?: true } | { encrypted: true } | { unknown: string };

/** `salt`: the repository's redaction salt (redaction.ts). */
export function shownLayerValue(layer: VariableLayer, salt?: string): ShownValue {
  if (layer.encrypted) return { encrypted: true };
  if (layer.value === undefined) return { unknown: layer.via === 'external' ? 'set by another controller' : 'not readable from the repository' };
  if (layer.secret) {
    const digest = secretDigest(layer.value, salt);
    return digest === undefined ? { redacted: true } : { redacted: true, sha256: digest.slice(digest.indexOf(':') + 1), ...(salt !== undefined ? { salted: true as const } : {}) };
  }
  return layer.value.replace(/\n/g, '');
}

/** A shown value for people (Markdown): inline code, `*empty*`, or what stands in for it. */
export function displayShown(value: ShownValue): string {
  if (typeof value === 'string') return value === '' ? '*empty*' : codeSpan(value);
  if ('encrypted' in value) return 'encrypted';
  if ('redacted' in value) return value.sha256 === undefined ? `secret (under ${minHashedLength} characters: no hash shown)` : `secret, ${value.salted ? 'salted ' : ''}sha256:${value.sha256}`;
  return value.unknown === 'set by another controller' ? 'set by another controller (unknown here)' : 'unknown';
}

export function displayLayerValue(layer: VariableLayer, salt?: string): string {
  return displayShown(shownLayerValue(layer, salt));
}

/** A field under a Secret's `data` or `stringData`: what it holds after substitution is a secret too. */
export function isSecretData(kind: string | undefined, path: ReadonlyArray<string | number>): boolean {
  return kind === 'Secret' && (path[0] === 'data' || path[0] === 'stringData');
}

export function displayValue(variable: Variable, salt: string | undefined): string {
  return variable.layers.length > 0 ? displayLayerValue(variable.layers[0], salt) : 'unknown';
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
  if (layer.source === 'declared') return 'declared in .render-lens.yaml (from outside the repository)';
  const how = layer.via === 'patch' ? ' (overlay patch)' : layer.via === 'generator' ? ' (generator)' : '';
  return `${layer.source} ${layer.objectName}${how}`;
}

