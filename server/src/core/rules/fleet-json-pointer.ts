import { isScalar } from 'yaml';
import { comparePatchEntries, type PatchField } from '../fleet/compare-patches';
import { invalidPointerMessage, isJsonPointer, pointerFix, rootTrap } from '../fleet/json-pointer';
import { fleetDocuments, type FleetDocument } from '../fleet/options';
import { firstLineRange, nodeRange, rewriteScalar } from '../fleet/yaml';
import type { Rule, RuleReport } from './rule';

/**
 * FLEET-JSON-POINTER: a comparePatches `operations[].path` or `jsonPointers[]` entry that
 * is not a JSON pointer (empty, or without its leading `/`).
 *
 * json-patch cannot resolve it, and the agent only logs that at a verbosity nobody sees;
 * worse, a two-segment path such as `metadata/kind` does resolve — to the root key `kind`.
 */
export const fleetJsonPointer: Rule = {
  id: 'FLEET-JSON-POINTER',
  severity: 'error',
  summary: 'A Fleet comparePatches path or jsonPointers entry that is not a JSON pointer starting with `/`.',
  docs: `# FLEET-JSON-POINTER

## What it does
Checks every \`diff.comparePatches[].operations[].path\` (except for \`ignore\` operations, whose
path is never read) and every \`diff.comparePatches[].jsonPointers[]\` entry in fleet.yaml (top
level, \`targets[i]\`, \`targetCustomizations[i]\`) and in HelmOp resources. Each must be a
non-empty JSON pointer starting with \`/\`. Like Fleet, it does not check \`~\` escapes: \`~0\` and
\`~1\` stand for \`~\` and \`/\`, and json-patch leaves any other \`~\` alone, so \`/spec/a~2b\` is a
key named \`a~2b\`.

## Why is this bad?
A Kubernetes-style path (\`spec.replicas\`) is not a pointer: json-patch fails to resolve it, the
agent logs the failure at V(1) — filtered out by default — and the field keeps showing up as
drift. The two-segment case is worse than dead config: json-patch splits \`metadata/kind\` on
\`/\` and walks all but the first and last segments, which here is nothing, so the patch
addresses the key \`kind\` at the **root** of the resource, far from where you aimed. An empty
path is marshalled away (\`omitempty\`) and always fails with "operation missing path field".
Fleet versions with comparePatches validation reject the fleet.yaml with the message shown.

## Example
\`\`\`yaml
diff:
  comparePatches:
    - kind: Deployment
      name: web
      jsonPointers:
        - spec.replicas
      operations:
        - {"op": "remove", "path": "metadata/annotations"}
\`\`\`

## Fix
Write a pointer: \`/spec/replicas\`, \`/metadata/annotations\`. The quick fix turns a dotted path
into a pointer or adds the missing leading slash. It offers nothing when dots and slashes are
mixed (\`metadata.annotations.deployment.kubernetes.io/revision\` is one annotation key, whose
pointer is \`/metadata/annotations/deployment.kubernetes.io~1revision\`).
`,
  *check(context) {
    for (const doc of fleetDocuments(context.file, context.documents())) {
      for (const entry of comparePatchEntries(doc)) {
        for (const { op, path } of entry.operations) {
          // Fleet skips the path of an `ignore` operation: it drops the whole resource.
          if (op.value === 'ignore') continue;
          const report = check(doc, path, context.text);
          if (report) yield report;
        }
        for (const pointer of entry.pointers) {
          const report = check(doc, pointer, context.text);
          if (report) yield report;
        }
      }
    }
  },
};

function check(doc: FleetDocument, field: PatchField, text: string): RuleReport | undefined {
  const value = field.value;
  if (value === undefined || isJsonPointer(value)) return undefined;
  const node = field.node;
  const range = nodeRange(node) ?? nodeRange(field.pair?.key) ?? firstLineRange(text, field.owner);
  let message = `${field.where}: ${invalidPointerMessage(value)}`;
  const trap = rootTrap(value);
  if (trap !== undefined) message += `. Without the leading slash json-patch resolves it to the key "${trap}" at the root of the resource`;
  else if (node === undefined && field.pair === undefined) message += ' (the operation has no `path`)';
  const fixed = pointerFix(value);
  const site = isScalar(node) ? doc.sites.get(node) : undefined;
  const newText = fixed !== undefined && site ? rewriteScalar(site, fixed, text) : undefined;
  return { range, message, fixes: newText !== undefined ? [{ title: `Change to \`${fixed}\``, edits: [{ range, newText }], preferred: true }] : [] };
}
