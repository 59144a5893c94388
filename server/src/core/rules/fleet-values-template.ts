import { fleetDocuments } from '../fleet/options';
import { analyzeTemplate, valuesTemplates } from '../fleet/values-template';
import type { Rule } from './rule';

/**
 * FLEET-VALUES-TEMPLATE: Fleet's `${ }` templating of `helm.values` would fail.
 *
 * Fleet renders the values of every cluster as one Go template with `missingkey=error`, so a
 * template that does not parse, a context field that does not exist or a function Fleet
 * removed fails the bundle for every cluster, long after the commit.
 */
export const fleetValuesTemplate: Rule = {
  id: 'FLEET-VALUES-TEMPLATE',
  severity: 'error',
  summary: 'Fleet `${ }` values templating that does not parse, reads a missing context field or calls a removed function.',
  docs: `# FLEET-VALUES-TEMPLATE

## What it does
Parses \`helm.values\` of fleet.yaml (top level, \`targets[i]\`, \`targetCustomizations[i]\`) and
of HelmOp resources the way Fleet does — as one Go text/template with \`\${\` \`}\` delimiters —
and each \`helm.templateValues\` entry on its own. It reports:
- a template that does not parse, with Go's message (\`unexpected EOF\`, \`unclosed action\`, …);
- a field that is not in Fleet's context: only \`.ClusterName\`, \`.ClusterNamespace\`,
  \`.ClusterLabels\`, \`.ClusterAnnotations\` and \`.ClusterValues\` exist (no \`.Values\`, \`.Release\`);
- a field read from a string (\`.ClusterName.x\`, \`.ClusterLabels.env.x\`);
- \`env\`, \`expandenv\`, \`include\`, \`tpl\` and \`getHostByName\`, which Fleet removes from the
  sprig functions, and any other function that does not exist.
- a shell or Flux variable such as \`\${HOME}\`, \`\${NAME:-default}\` or a Grafana \`\${instance}\`,
  which Fleet reads as a call of an undefined function.

Values are not checked where \`helm.disablePreProcess: true\` turns templating off. Hover over a
\`\${ … }\` to see what each lookup reads.

## Why is this bad?
Fleet templates values per cluster, in the controller, with \`missingkey=error\`: a parse error,
an unknown field or a removed function fails every BundleDeployment of the bundle with
\`failed to parse helm values template\` or \`failed to render helm values template\`, and
nothing in \`fleet apply\` or a Helm lint warns before that. Note that Fleet skips templating
for a cluster without exportable labels, so a broken template can even seem to work at first.

## Example
\`\`\`yaml
helm:
  values:
    region: \${ .ClusterLabels.region }
    host: \${ env "HOSTNAME" }
    replicas: \${ if eq .ClusterName "prod" }3\${ else }1
\`\`\`

## Fix
Use the five context fields (a cluster's own values live in \`.ClusterValues\`, from the
Cluster's \`spec.templateValues\`), close every \`if\`/\`range\`/\`with\` with \`\${ end }\`, and drop
the removed functions. To pass a literal \`\${HOME}\` through, write \`\`\${ \`\${\` }HOME}\`\` (the
quick fix does), or turn templating off with \`helm.disablePreProcess: true\`. A label some
clusters lack fails the render for those clusters: write
\`\${ get .ClusterLabels "region" }\` or \`\${ index .ClusterLabels "region" }\` to get "" instead.
`,
  *check(context) {
    for (const doc of fleetDocuments(context.file, context.documents())) {
      for (const source of valuesTemplates(doc)) {
        for (const problem of analyzeTemplate(source).problems) {
          const fixes = problem.fix ? [{ title: problem.fix.title, edits: [{ range: problem.fix.range, newText: problem.fix.newText }], preferred: true }] : [];
          yield { range: problem.range, message: problem.message, fixes, ...(problem.severity ? { severity: problem.severity } : {}) };
        }
      }
    }
  },
};
