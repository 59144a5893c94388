import { checkFleetYaml } from '../fleet/decode';
import { fleetDocuments } from '../fleet/options';
import type { Rule } from './rule';

/**
 * FLEET-FIELD: a fleet.yaml value that does not decode into Fleet's typed structs, changes
 * on the way, or sits under a key Fleet ignores.
 *
 * Fleet reads fleet.yaml with go-yaml v2 (YAML 1.1) into Go structs: `helm.version: 1.10` is
 * the number 1.1 and fails the bundle; a misspelt key is dropped without a word.
 */
export const fleetField: Rule = {
  id: 'FLEET-FIELD',
  severity: 'error',
  summary: 'A fleet.yaml value that does not decode into Fleet\'s types, or a key Fleet ignores.',
  docs: `# FLEET-FIELD

## What it does
Decodes fleet.yaml the way Fleet does — go-yaml v2 typing (YAML 1.1), then encoding/json into
Fleet's \`FleetYAML\` struct — and reports:
- **error**: a value of the wrong type, with the error Fleet stops on, e.g. \`helm.version: 1.10\`
  (a number where a string is required), \`paused: "true"\` (a string where a bool is required),
  \`helm.values\` written as a list;
- **warning**: a number or bool that Fleet quietly turns into a different string — \`name: 1.10\`
  becomes \`"1.1"\`, \`labels: {tier: yes}\` becomes \`"true"\`;
- **warning**: a key Fleet does not know, with the closest field name (\`targetNamespace\` is
  spelt \`namespace\` in fleet.yaml).

## Why is this bad?
YAML 1.1 reads \`1.10\` as the number 1.1, \`0755\` as 493 and \`yes\` as true. Below \`helm\`,
\`diff\`, \`targets\` and every other field fleet.yaml inherits from the bundle spec, nothing is
converted back, so Fleet fails the whole bundle with \`reading fleet.yaml: error unmarshaling
JSON: … json: cannot unmarshal number into Go struct field HelmOptions.helm.version of type
string\`. Where Fleet does convert (the bundle \`name\`, \`labels\`, a customization's \`name\` and
selectors), it keeps the YAML 1.1 number's text, not yours. Unknown keys are ignored: a
misspelt \`targetCustomisations\` deploys the same thing everywhere.

## Example
\`\`\`yaml
defaultNamspace: web
helm:
  chart: podinfo
  version: 6.10
  timeoutSeconds: "300"
\`\`\`

## Fix
Quote strings that look like numbers or bools (\`version: "6.10"\`), write bools and numbers
unquoted, and use the field names Fleet knows. The quick fixes do each of these.
`,
  *check(context) {
    for (const doc of fleetDocuments(context.file, context.documents())) {
      if (doc.source !== 'fleet.yaml') continue;
      for (const problem of checkFleetYaml(doc, context.text)) {
        const fixes = problem.fix ? [{ title: problem.fix.title, edits: [{ range: problem.fix.range, newText: problem.fix.newText }], preferred: true }] : [];
        yield { range: problem.range, severity: problem.severity, message: problem.message, fixes };
      }
    }
  },
};
