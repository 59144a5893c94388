/**
 * Field names for messages. Which type a field holds comes from the Kubernetes schema
 * (schema-types.ts).
 */
import type { NodePath } from '../yaml/scalar-sites';

/** A readable name for the field, for messages: `env[].value`, `metadata.labels.app`. */
export function fieldName(path: NodePath): string {
  return path.map((p, i) => (typeof p === 'number' ? '[]' : i === 0 ? p : `.${p}`)).join('');
}
