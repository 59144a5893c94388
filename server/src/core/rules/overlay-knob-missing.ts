import { isMap } from 'yaml';
import { insertIntoBlockMap, lineEndingAt, parsedForEdit } from '../fixes';
import type { ObjectData } from '../flux/object-data';
import { mapGet, rangeOf } from '../yaml/nodes';
import type { Rule, RuleContext, RuleEdit, RuleFix, RuleReport } from './rule';
import { addedByOverlay, definitionsIn, instanceLabel, isSopsFile, keySpan, labelList, readElsewhere, usageOf, validName } from './variable-definitions';

/**
 * OVERLAY-KNOB-MISSING: an overlay patch sets a key of a variable ConfigMap or Secret that
 * its base does not have.
 *
 * Overlays exist to change the knobs a base defines. A key only the overlay has is a typo
 * (`replcas`) or a knob renamed in the base since: the overlay adds a new, unused variable
 * and the value it meant to change keeps the base's. Reported at the key in the patch file,
 * unless a Kustomization reading the object uses the name (then the overlay defines a
 * cluster-only variable on purpose) or something besides Flux reads the object.
 */
export const overlayKnobMissing: Rule = {
  id: 'OVERLAY-KNOB-MISSING',
  severity: 'error',
  summary: 'an overlay patches a variable the base ConfigMap lacks.',
  docs: `# OVERLAY-KNOB-MISSING

## What it does
Flags a key that a kustomize overlay patch sets on a ConfigMap or Secret used as Flux
variables (\`postBuild.substituteFrom\`) when the base object it patches has no such key —
a strategic-merge \`data:\` entry, or a JSON 6902 op on \`/data/KEY\`. It stays quiet when a
Kustomization that reads the object uses \`\${KEY}\` (the overlay then defines a variable for
its cluster on purpose), and when something other than Flux also reads the object.

## Why is this bad?
An overlay is meant to change the knobs its base defines. A key the base lacks is almost
always a typo (\`replcas\`) or a knob that was renamed in the base: kustomize happily adds it,
the build succeeds, and the variable the overlay meant to change keeps the base's value in
that cluster — production runs with staging's replica count and nothing fails.

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
\`KEY: ""\`, an empty value for the author to fill in).
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
      if (instances.some((instance) => usage(instance)?.has(name) ?? true)) continue;
      const span = keySpan(context.text, name, definition.range);
      if (!span) continue; // the patch replaces the whole map: what the base had is unknown
      const bases = [...new Map(readers.flatMap((r) => (r.object ? [[`${r.object.file}:${r.object.range.start}`, r.object] as const] : []))).values()];
      const object = bases[0];
      const knobs = [...new Set(bases.flatMap((b) => [...b.data].filter(([, layers]) => layers[0]?.via !== 'patch').map(([key]) => key)))];
      const near = closest(name, knobs);
      const fixes: RuleFix[] = [];
      if (near && !isSopsFile(context.text)) fixes.push({ title: `Change \`${name}\` to \`${near}\`, the base's knob`, edits: [{ range: span, newText: near.replace(/~/g, '~0').replace(/\//g, '~1') }], preferred: true });
      const add = addToBaseFix(context, name, bases);
      if (add) fixes.push({ ...add, preferred: fixes.length === 0 });
      const report: RuleReport = {
        range: span,
        message:
          `\`${name}\` is not a key of ${object.kind} ${object.name} in its base (${object.file}): this overlay adds a new variable instead of changing one, ` +
          `and no file substituted by ${labelList(instances.map(instanceLabel))} uses \`\${${name}}\`.` +
          (near ? ` Did you mean \`${near}\`?` : ''),
        related: bases.map((b) => ({ file: b.file, range: b.range, message: `base ${b.kind} ${b.name}` })),
        fixes,
      };
      yield report;
    }
  },
};

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

/** The one knob within a small edit distance (a typo), if exactly one is closest. */
function closest(name: string, knobs: readonly string[]): string | undefined {
  const limit = name.length <= 4 ? 1 : 2;
  let best: string | undefined;
  let bestDistance = Infinity;
  let tie = false;
  for (const knob of knobs) {
    const distance = knob.toLowerCase() === name.toLowerCase() ? 0.5 : editDistance(name, knob);
    if (distance > limit) continue;
    if (distance < bestDistance) [best, bestDistance, tie] = [knob, distance, false];
    else if (distance === bestDistance) tie = true;
  }
  return tie ? undefined : best;
}

/** Optimal string alignment distance: insertions, deletions, substitutions, adjacent swaps. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}
