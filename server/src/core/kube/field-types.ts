/**
 * Which fields of a Kubernetes object must hold a string. The API server rejects an object
 * whose string field arrives as a bool, number or null, so a substitution that re-types such
 * a field is an error; in free-form values (HelmRelease `spec.values`) a changed type is a
 * warning, since the chart decides what it accepts.
 */
import type { NodePath } from '../yaml/scalar-sites';

export type FieldKind = 'string' | 'free-form' | 'other';

const containerLists = new Set(['containers', 'initContainers', 'ephemeralContainers']);

/** What the field at `path` (of an object of `kind`) must hold. */
export function fieldKind(kind: string | undefined, path: NodePath): FieldKind {
  const n = path.length;
  const at = (i: number) => (i >= 0 && i < n ? path[i] : undefined);
  const parent = at(n - 2);
  // Labels and annotations, on the object or on any embedded metadata (pod templates).
  if ((parent === 'labels' || parent === 'annotations') && at(n - 3) === 'metadata') return 'string';
  if (kind === 'ConfigMap' && n === 2 && (path[0] === 'data' || path[0] === 'binaryData')) return 'string';
  if (kind === 'Secret' && n === 2 && (path[0] === 'data' || path[0] === 'stringData')) return 'string';
  if (kind === 'CronJob' && n === 2 && path[0] === 'spec' && path[1] === 'schedule') return 'string';
  // env[].value, command and args of any container.
  if (at(n - 1) === 'value' && typeof at(n - 2) === 'number' && at(n - 3) === 'env') return 'string';
  if (typeof at(n - 1) === 'number' && (parent === 'command' || parent === 'args') && typeof at(n - 3) === 'number' && containerLists.has(String(at(n - 4)))) return 'string';
  if (parent === 'nodeSelector' || (parent === 'matchLabels' && at(n - 3) === 'selector')) return 'string';
  if (kind === 'Service' && n === 3 && path[0] === 'spec' && path[1] === 'selector') return 'string';
  if (at(n - 1) === 'value' && typeof at(n - 2) === 'number' && (at(n - 3) === 'tolerations' || at(n - 3) === 'taints')) return 'string';
  if (kind === 'HelmRelease' && path[0] === 'spec' && path[1] === 'values' && n > 2) return 'free-form';
  return 'other';
}

/** A readable name for the field, for messages: `env[].value`, `metadata.labels.app`. */
export function fieldName(path: NodePath): string {
  return path.map((p, i) => (typeof p === 'number' ? '[]' : i === 0 ? p : `.${p}`)).join('');
}
