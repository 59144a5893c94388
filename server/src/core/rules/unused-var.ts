import type { Rule, RuleReport } from './rule';
import { addedByOverlay, definitionsIn, firstLine, instanceLabel, keySpan, labelList, readElsewhere, usageOf, validName } from './support/variable-definitions';

/**
 * UNUSED-VAR: a variable that no file substituted by the Kustomizations reading it uses.
 *
 * Reported at the key (inline `substitute`, or a key of a `substituteFrom` ConfigMap or
 * Secret) when no Kustomization that reads that written definition mentions `${NAME…}` in
 * any file it renders. A key in a shared ConfigMap is unused only when every reader leaves
 * it alone. Keys the repository cannot judge are left alone: a reader with remote or missing
 * resources, an object that something else also reads, names the controller rejects
 * (INVALID-VAR-NAME) and keys only an overlay adds (OVERLAY-KNOB-MISSING).
 */
export const unusedVar: Rule = {
  id: 'UNUSED-VAR',
  severity: 'hint',
  summary: 'a variable no substituted file uses.',
  docs: `# UNUSED-VAR

## What it does
Flags a variable definition — a key of \`postBuild.substitute\`, or a key of a ConfigMap or
Secret listed in \`postBuild.substituteFrom\` — when no file rendered by any Kustomization
that reads it contains \`\${NAME}\` (or any other form that reads NAME: \`\${NAME:=x}\`,
\`\${#NAME}\`, …). A key of a ConfigMap shared by several Kustomizations counts as used when
any of them uses it.

It stays quiet when the repository cannot tell: when a reader renders remote or missing
resources, or when the ConfigMap or Secret is also read by something other than Flux (an
\`envFrom\`, a volume, a HelmRelease \`valuesFrom\` that names it).

## Why is this bad?
An unused variable is usually a leftover of a rename (\`\${app_host}\` became
\`\${app_hostname}\` in the manifests but not in the cluster's ConfigMap) or a value that
was meant for a Kustomization that does not read this source. Either way, changing it
changes nothing, which is surprising on the day someone relies on it.

## Example
\`\`\`yaml
  postBuild:
    substitute:
      cluster_region: eu-west-1   # no manifest of this Kustomization uses \${cluster_region}
\`\`\`

## Fix
Remove the key, or use it where it was meant to be used. If it is meant for another
Kustomization, list the source there.
`,
  *check(context) {
    const usage = usageOf(context);
    const elsewhere = readElsewhere(context);
    for (const definition of definitionsIn(context, context.file)) {
      const { name, readers } = definition;
      if (!validName.test(name) || readers.some(addedByOverlay)) continue;
      if (readers.some((r) => r.object && elsewhere(r.instance.cluster, r.object.name))) continue;
      const instances = [...new Set(readers.map((r) => r.instance))];
      if (instances.some((instance) => usage(instance)?.has(name) ?? true)) continue;
      const span = keySpan(context.text, name, definition.range);
      if (!span && definition.via === 'generator') continue; // a whole file as the value
      const report: RuleReport = {
        range: span ?? firstLine(context.text, definition.range),
        message: `\`${name}\` is not used: no file substituted by ${labelList(instances.map(instanceLabel))} mentions \`\${${name}}\`, so its value changes nothing.`,
      };
      const related = new Map<string, NonNullable<RuleReport['related']>[number]>();
      for (const { instance, ref } of readers) {
        if (ref) related.set(`${instanceLabel(instance)}:${ref.file}:${ref.range.start}`, { file: ref.file, range: ref.range, message: `read as variables by Kustomization ${instance.kustomization.name} in cluster ${instance.cluster.name}` });
      }
      if (related.size > 0) report.related = [...related.values()];
      yield report;
    }
  },
};
