import { isScalar } from 'yaml';
import { comparePatchEntries } from '../fleet/compare-patches';
import { fleetDocuments } from '../fleet/options';
import { isPatchOp, suggestPatchOp, unsupportedPatchOpMessage } from '../fleet/patch-ops';
import { firstLineRange, nodeRange, rewriteScalar } from '../fleet/yaml';
import type { Rule } from './rule';
import type { RuleFix } from '../model/rule-edits';

/**
 * FLEET-PATCH-OP: a Fleet comparePatches operation whose `op` Fleet cannot apply.
 *
 * Fleet turns each operation into a JSON patch; anything but add, ignore, remove, replace
 * and test (an empty op included) fails inside the agent, which only logs it, so the patch
 * silently does nothing. Fleet since PR #5669 rejects the fleet.yaml or HelmOp instead.
 */
export const fleetPatchOp: Rule = {
  id: 'FLEET-PATCH-OP',
  severity: 'error',
  summary: 'A Fleet `diff.comparePatches` operation with an `op` Fleet cannot apply.',
  docs: `# FLEET-PATCH-OP

## What it does
Checks every \`diff.comparePatches[].operations[].op\` in fleet.yaml (top level, each
\`targets[i]\` and each \`targetCustomizations[i]\`) and in HelmOp resources (\`spec\` and each
\`spec.targets[i]\`). The op must be one of \`add\`, \`ignore\`, \`remove\`, \`replace\`, \`test\`;
a missing or empty op is reported too. The message is Fleet's own.

## Why is this bad?
Fleet marshals each operation into a JSON patch and applies it before comparing the
deployed resource with the desired one. An op json-patch does not know — or \`copy\` and
\`move\`, which need a \`from\` field Fleet's operation does not have — fails inside the
agent, which only writes a log line: the drift you meant to ignore keeps the bundle
\`Modified\`, and the other operations of the same resource are dropped with it. Fleet
versions with comparePatches validation reject the whole fleet.yaml instead
(\`validating fleet.yaml: diff.comparePatches[0].operations[0].op: unsupported operation …\`).

## Example
\`\`\`yaml
diff:
  comparePatches:
    - apiVersion: apps/v1
      kind: Deployment
      name: web
      operations:
        - {"op": "delete", "path": "/spec/replicas"}
\`\`\`

## Fix
Use one of the five operations; \`remove\` is the usual one for fields that drift. The quick
fix corrects the case (\`Remove\` → \`remove\`) or a near miss (\`delete\` → \`remove\`); the editor
completes \`op:\` with the valid operations.
`,
  *check(context) {
    for (const doc of fleetDocuments(context.file, context.documents())) {
      for (const entry of comparePatchEntries(doc)) {
        for (const { op } of entry.operations) {
          if (op.value === undefined || isPatchOp(op.value)) continue;
          const valueNode = op.node;
          const range = nodeRange(valueNode) ?? nodeRange(op.pair?.key) ?? firstLineRange(context.text, op.owner);
          const fixes: RuleFix[] = [];
          const suggestion = suggestPatchOp(op.value);
          const site = isScalar(valueNode) ? doc.sites.get(valueNode) : undefined;
          const newText = suggestion && site ? rewriteScalar(site, suggestion, context.text) : undefined;
          if (newText !== undefined) fixes.push({ title: `Change to \`${suggestion}\``, edits: [{ range, newText }], preferred: true });
          const why = op.pair === undefined ? ' (the operation has no `op`)' : /^(copy|move)$/i.test(op.value) ? ' (Fleet\'s operations have no `from` field, so copy and move cannot work)' : '';
          yield { range, message: `${op.where}: ${unsupportedPatchOpMessage(op.value)}${why}`, fixes };
        }
      }
    }
  },
};
