import { isMap } from 'yaml';
import { insertIntoBlockMap, lineEndingAt, parsedForEdit } from '../fixes';
import type { FluxGraph } from '../flux/graph';
import type { ObjectData } from '../flux/object-data';
import { mapGet, rangeOf } from '../yaml/nodes';
import { closestName } from './support/near-names';
import type { Rule, RuleContext, RuleReport } from './rule';
import type { RuleEdit, RuleFix } from '../model/rule-edits';
import { addedByOverlay, definitionsIn, instanceLabel, isSopsFile, keySpan, labelList, readElsewhere, usageOf, validName } from './support/variable-definitions';

/**
 * OVERLAY-KNOB-MISSING: an overlay patch sets a key of a variable ConfigMap or Secret that
 * its base does not have.
 *
 * The contract: every knob an overlay patches exists in the base first, with a default. That
 * ordering closes the define-then-use race: production adds `DB_HOST` in its overlay, a
 * manifest starts using it, and staging renders it empty. A key only the overlay has is
 * reported whether or not something uses it: unused, it is a typo (`replcas`) or a knob
 * renamed since; used, the message names the clusters that lack it today. Only an object
 * that something besides Flux also reads (an `envFrom`) is left alone: its keys are not
 * only knobs.
 */
export const overlayKnobMissing: Rule = {
  id: 'OVERLAY-KNOB-MISSING',
  severity: 'error',
  summary: 'an overlay patches a variable the base ConfigMap lacks.',
  docs: `# OVERLAY-KNOB-MISSING

## What it does
Flags a key that a kustomize overlay patch sets on a ConfigMap or Secret used as Flux
variables (\`postBuild.substituteFrom\`) when the base object it patches has no such key —
a strategic-merge \`data:\` entry, or a JSON 6902 op on \`/data/KEY\`. It stays quiet only
when something other than Flux also reads the object (an \`envFrom\`): its keys are then not
only variables.

## The contract
Every knob an overlay patches exists in the *base* ConfigMap: a knob is added to the base,
with a default, *before* any overlay or manifest uses it. The finding is reported whether
or not the knob is used. When a substituted file uses \`\${KEY}\`, the message names the
clusters that read the base and lack the knob today; when nothing uses it, it says so.

## Why is this bad?
A knob only an overlay defines is a race between defining and using it: production adds
\`DB_HOST\` in its overlay, a manifest starts using \`\${DB_HOST}\`, and staging — whose overlay
was not touched — renders it empty (or fails the reconcile in strict mode). When nothing uses
the key it is almost always a typo (\`replcas\`) or a knob renamed in the base: kustomize adds
it, the build succeeds, and the variable the overlay meant to change keeps the base's value.

## Example
\`\`\`yaml
# clusters/production/cluster-vars-patch.yaml
apiVersion: v1
kind: ConfigMap
metadata:
  name: cluster-vars
  namespace: flux-system
data:
  replcas: "5"      # the base defines replicas
\`\`\`

## Fix
Correct the key to the base's knob (offered, and preferred, when one is a close match), or
add the knob to the base ConfigMap so every cluster defines it (the quick fix adds
\`KEY: ""\` to the base, a placeholder default for the author to fill in).
`,
  *check(context) {
    const usage = usageOf(context);
    const elsewhere = readElsewhere(context);
    for (const definition of definitionsIn(context, context.file)) {
      const { name } = definition;
      if (definition.via !== 'patch') continue;
      const readers = definition.readers.filter(addedByOverlay);
      if (readers.length === 0 || readers.some((r) => r.object && elsewhere(r.instance.cluster, r.object.name))) continue;
      const instances = [...new Set(readers.map((r) => r.instance))];
      const used = instances.some((instance) => usage(instance)?.has(name) ?? false);
      // Some files are out of sight (a remote resource, a missing path): "nothing uses it" cannot be said.
      const unseen = !used && instances.some((instance) => usage(instance) === undefined);
      const span = keySpan(context.text, name, definition.range);
      if (!span) continue; // the patch replaces the whole map: what the base had is unknown
      const bases = [...new Map(readers.flatMap((r) => (r.object ? [[`${r.object.file}:${r.object.range.start}`, r.object] as const] : []))).values()];
      const object = bases[0];
      const knobs = [...new Set(bases.flatMap((b) => [...b.data].filter(([, layers]) => layers[0]?.via !== 'patch').map(([key]) => key)))];
      const near = used ? undefined : closestName(name, knobs);
      const fixes: RuleFix[] = [];
      if (near && !isSopsFile(context.text)) fixes.push({ title: `Change \`${name}\` to \`${near}\`, the base's knob`, edits: [{ range: span, newText: near.replace(/~/g, '~0').replace(/\//g, '~1') }], preferred: true });
      const add = addToBaseFix(context, name, bases);
      if (add) fixes.push({ ...add, preferred: fixes.length === 0 });
      const notInBase = `\`${name}\` is not a key of ${object.kind} ${object.name} in its base (${object.file}): this overlay adds a new variable instead of changing one`;
      const lacking = used ? clustersLacking(context.fluxGraph(), name, bases) : [];
      const report: RuleReport = {
        range: span,
        message: used
          ? `${notInBase}, and files substituted by ${labelList(instances.map(instanceLabel))} use \`\${${name}}\`. ` +
            (lacking.length > 0
              ? `${labelList(lacking)} ${lacking.length === 1 ? 'reads' : 'read'} the base without it today: \`\${${name}}\` is undefined there. `
              : 'Every cluster that reads the base defines it today; the next one will not. ') +
            'Add the knob to the base, with a default, before an overlay or a manifest uses it.'
          : unseen
            ? `${notInBase}; Render Lens cannot see every file ${labelList(instances.map(instanceLabel))} substitutes, so whether \`\${${name}}\` is used is unknown. Add the knob to the base, with a default.` + (near ? ` Did you mean \`${near}\`?` : '')
            : `${notInBase}, and no file substituted by ${labelList(instances.map(instanceLabel))} uses \`\${${name}}\`.` + (near ? ` Did you mean \`${near}\`?` : ''),
        related: bases.map((b) => ({ file: b.file, range: b.range, message: `base ${b.kind} ${b.name}` })),
        fixes,
      };
      yield report;
    }
  },
};

/**
 * The clusters where a Kustomization reads one of the base objects (a placed copy of it) and
 * does not receive `name` from any layer: where `${name}` is undefined today.
 */
function clustersLacking(graph: FluxGraph, name: string, bases: readonly ObjectData[]): string[] {
  const at = new Set(bases.map((b) => `${b.file}\0${b.range.start}`));
  const lacking = new Set<string>();
  for (const cluster of graph.clusters) {
    for (const instance of cluster.instances) {
      const readsBase = instance.variables.sources.some((s) => s.object && at.has(`${s.object.file}\0${s.object.range.start}`));
      if (readsBase && !instance.variables.opaque && !instance.variables.vars.has(name)) lacking.add(cluster.name);
    }
  }
  return [...lacking].sort();
}

/** Inserts `KEY: ""` into each base ConfigMap's `data` (creating `data:` if needed). */
function addToBaseFix(context: RuleContext, name: string, bases: readonly ObjectData[]): RuleFix | undefined {
  const edits: RuleEdit[] = [];
  const key = validName.test(name) ? name : JSON.stringify(name);
  for (const base of bases) {
    if (base.kind !== 'ConfigMap') return undefined;
    const parsed = parsedForEdit(context.parsedFile(base.file));
    const document = parsed?.documents.find((d) => rangeOf(d.contents)?.start === base.range.start);
    if (!parsed || !document) return undefined;
    const data = mapGet(document.contents, 'data');
    let edit: { offset: number; newText: string } | undefined;
    if (isMap(data)) edit = insertIntoBlockMap(parsed.text, data, key, '""');
    else if (data === undefined && isMap(document.contents)) {
      const parent = insertIntoBlockMap(parsed.text, document.contents, 'data', '');
      if (parent) edit = { offset: parent.offset, newText: `${parent.newText}${' '.repeat(parent.indent + 2)}${key}: ""${lineEndingAt(parsed.text, parent.offset)}` };
    }
    if (!edit) return undefined;
    edits.push({ file: base.file, range: { start: edit.offset, end: edit.offset }, newText: edit.newText });
  }
  if (edits.length === 0) return undefined;
  return { title: `Add the knob \`${name}\` to the base ${bases[0].kind} ${bases[0].name} (${[...new Set(edits.map((e) => e.file))].join(', ')}) with an empty value`, edits };
}
