/**
 * Where a chart renders values that users commonly write as numbers or booleans: labels and
 * annotations, env values, container args and commands, ConfigMap and Secret data, a CronJob
 * schedule, selectors, taints and tolerations, and versions, tags and images (`1.10`
 * arrives as the float 1.1). HELM-UNQUOTED-STRING reports a bare action
 * only there (and only where the schema says the field is a string): a bare `name:` or
 * `mountPath:` is as unquoted, but nobody names a volume `true`, and flagging the thousand such
 * fields of a chart repository buries the ones that break.
 */
import type { NodePath } from '../yaml/scalar-sites';

const containerLists = new Set(['containers', 'initContainers', 'ephemeralContainers']);

export function holdsFreeText(kind: string | undefined, path: NodePath): boolean {
  const n = path.length;
  const at = (i: number) => (i >= 0 && i < n ? path[i] : undefined);
  const parent = at(n - 2);
  if ((parent === 'labels' || parent === 'annotations') && at(n - 3) === 'metadata') return true;
  if (kind === 'ConfigMap' && n === 2 && (path[0] === 'data' || path[0] === 'binaryData')) return true;
  if (kind === 'Secret' && n === 2 && (path[0] === 'data' || path[0] === 'stringData')) return true;
  if (kind === 'CronJob' && n === 2 && path[0] === 'spec' && path[1] === 'schedule') return true;
  if (at(n - 1) === 'value' && typeof at(n - 2) === 'number' && at(n - 3) === 'env') return true;
  if (typeof at(n - 1) === 'number' && (parent === 'command' || parent === 'args') && typeof at(n - 3) === 'number' && containerLists.has(String(at(n - 4)))) return true;
  if (parent === 'nodeSelector' || (parent === 'matchLabels' && at(n - 3) === 'selector')) return true;
  if (kind === 'Service' && n === 3 && path[0] === 'spec' && path[1] === 'selector') return true;
  if (typeof at(n - 1) === 'string' && valueLike.has(at(n - 1) as string)) return true;
  return at(n - 1) === 'value' && typeof at(n - 2) === 'number' && (at(n - 3) === 'tolerations' || at(n - 3) === 'taints');
}

/** Field names whose values are versions, tags or images: numbers in disguise (`1.10`, `2024`). */
const valueLike = new Set(['version', 'tag', 'image', 'appVersion']);
