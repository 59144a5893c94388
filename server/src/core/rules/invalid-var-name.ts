import type { KustomizationInstance } from '../flux/graph';
import type { Rule, RuleContext, RuleReport } from './rule';
import type { RuleFix } from '../model/rule-edits';
import { definitionsIn, definitionsNamed, firstLine, instanceLabel, isSopsFile, keySpan, labelList, namePattern, readElsewhere, textOf, validName, type Definition } from './support/variable-definitions';

/**
 * INVALID-VAR-NAME: a variable key the controller rejects.
 *
 * Before substituting anything, kustomize-controller checks every key of the merged
 * variables (inline `substitute` and every `substituteFrom` ConfigMap and Secret) against
 * `^[_[:alpha:]][_[:alpha:][:digit:]]*$`, ASCII only. One bad key, used or not, fails every
 * resource of the Kustomization. Reported where the key is written; the fix renames a key
 * no `${…}` can reference (`app.domain` → `app_domain`) everywhere it is written.
 */
export const invalidVarName: Rule = {
  id: 'INVALID-VAR-NAME',
  severity: 'error',
  summary: 'a variable key the controller rejects: every resource of the Kustomization fails.',
  docs: `# INVALID-VAR-NAME

## What it does
Flags a variable name that kustomize-controller rejects: a key of \`postBuild.substitute\`,
or a key of a ConfigMap or Secret that some Kustomization lists in \`postBuild.substituteFrom\`
(in its base, an overlay patch or a generator), that does not match
\`^[_[:alpha:]][_[:alpha:][:digit:]]*$\` — ASCII letters, digits and \`_\`, not starting with a
digit. The finding is on the key, in the file where it is written, and names the
Kustomizations that fail.

## Why is this bad?
The controller checks **every** key of the merged variables before it substitutes anything,
whether a manifest uses it or not. One key such as \`app.domain\`, \`app-domain\`, \`1st_zone\`
or \`région\` fails every resource of every Kustomization that reads it:

\`\`\`
post build failed for '…': envsubst error: 'app.domain' var name is invalid, must match '^[_[:alpha:]][_[:alpha:][:digit:]]*$'
\`\`\`

Kubernetes accepts these keys in a ConfigMap (\`.\` and \`-\` are allowed there), and
\`kustomize build\` and \`flux build\` do not complain, so the failure first shows up in the
cluster. A ConfigMap that starts life as application configuration and is later reused as a
variable source is the usual way in.

## Example
\`\`\`yaml
apiVersion: v1
kind: ConfigMap
metadata:
  name: cluster-vars
  namespace: flux-system
data:
  app.domain: example.com
\`\`\`

## Fix
Rename the key to a valid name (\`app_domain\`) wherever it is written — the base object,
overlay patches, inline \`substitute\` — and use \`\${app_domain}\` in manifests. The quick fix
does this when no \`\${…}\` can refer to the old name (it contains \`.\`, \`-\` or another
character envsubst does not read as part of a name) and the new name is free. When the
ConfigMap also serves other readers (an \`envFrom\`, a HelmRelease \`valuesFrom\`), the rename is
offered but not preferred: move the variables to a ConfigMap of their own instead.
`,
  *check(context) {
    const elsewhere = readElsewhere(context);
    for (const definition of definitionsIn(context, context.file)) {
      if (validName.test(definition.name)) continue;
      const instances = [...new Set(definition.readers.map((r) => r.instance))];
      const span = keySpan(context.text, definition.name, definition.range) ?? firstLine(context.text, definition.range);
      const fix = renameFix(context, definition, elsewhere);
      const report: RuleReport = {
        range: span,
        message: `\`${definition.name}\` is not a valid variable name: Flux fails every resource of ${labelList(instances.map(instanceLabel))} with '${definition.name}' var name is invalid, must match '${namePattern}'.`,
        related: relatedReaders(definition),
      };
      if (fix) report.fixes = [fix];
      yield report;
    }
  },
};

/** Where each reader lists the object (or holds the inline key). */
function relatedReaders(definition: Definition): NonNullable<RuleReport['related']> {
  const related: NonNullable<RuleReport['related']> = [];
  const seen = new Set<string>();
  for (const { instance, ref } of definition.readers) {
    const label = instanceLabel(instance);
    if (!ref || seen.has(label)) continue;
    seen.add(label);
    related.push({ file: ref.file, range: ref.range, message: `read as variables by Kustomization ${instance.kustomization.name} in cluster ${instance.cluster.name}` });
  }
  return related;
}

/**
 * `app.domain` → `app_domain`, at every place the key is written for the Kustomizations that
 * read it (and, transitively, for the others those places serve). Only for names no `${…}`
 * can reference, so no manifest needs to change.
 */
function renameFix(context: RuleContext, definition: Definition, elsewhere: ReturnType<typeof readElsewhere>): RuleFix | undefined {
  const name = definition.name;
  if (!/^[\x20-\x7e]+$/.test(name) || /^[\p{L}\p{Nd}_]+$/u.test(name)) return undefined;
  const renamed = name.replace(/[^A-Za-z0-9_]/g, '_');
  if (!validName.test(renamed)) return undefined;

  // Every definition of the name that shares a reader with this one, until nothing new joins.
  const all = definitionsNamed(context, name);
  const group = new Set<Definition>([definition]);
  const instances = new Set<KustomizationInstance>(definition.readers.map((r) => r.instance));
  for (let grew = true; grew; ) {
    grew = false;
    for (const other of all) {
      if (group.has(other) || !other.readers.some((r) => instances.has(r.instance))) continue;
      group.add(other);
      for (const r of other.readers) instances.add(r.instance);
      grew = true;
    }
  }
  if ([...instances].some((i) => i.variables.vars.has(renamed))) return undefined;

  const edits: Array<{ file: string; range: { start: number; end: number }; newText: string }> = [];
  for (const member of group) {
    const text = textOf(context, member.file);
    const span = text === undefined ? undefined : keySpan(text, name, member.range);
    if (!span || isSopsFile(text!)) return undefined;
    // A generated key is renamed only where it is written as `KEY=`, never inside a file path.
    if (member.via === 'generator' && text![span.end] !== '=') return undefined;
    edits.push({ file: member.file, range: span, newText: renamed });
  }
  const files = [...new Set(edits.map((e) => e.file))];
  const shared = [...group].some((d) => d.readers.some((r) => r.object && elsewhere(r.instance.cluster, r.object.name)));
  return {
    title: `Rename \`${name}\` to \`${renamed}\`${files.length > 1 ? ` in ${files.join(', ')}` : ''}`,
    edits: edits.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.range.start - b.range.start)),
    preferred: !shared,
  };
}
