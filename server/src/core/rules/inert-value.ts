import type { VariableLayer } from '../flux/variables';
import { LineIndex } from '../positions';
import { standingsOf, type Standing } from '../render/layer-standing';
import { layerSource } from '../render/values';
import { instanceLabel, labelList, readElsewhere, definitionsIn, type Definition } from './support/variable-definitions';
import type { Rule, RuleContext } from './rule';

/**
 * INERT-VALUE: a variable value written in a ConfigMap, a Secret or an inline `substitute`
 * that no cluster receives, because a higher layer overrides it in every context that reads it.
 *
 * It is the value that looks authoritative and is not: people edit it, and nothing changes.
 * Reported at the losing value, naming the winner's file and line. A base default that the
 * overlays of the same object override is the knob contract of OVERLAY-KNOB-MISSING (every
 * knob has a default in the base), not an inert value; nor is a value of an object something
 * besides Flux reads (an `envFrom` receives it).
 */
export const inertValue: Rule = {
  id: 'INERT-VALUE',
  severity: 'warning',
  summary: 'A variable value that every context reading it overrides: editing it changes nothing.',
  docs: `# INERT-VALUE

## What it does
Flags a variable value — a key of a \`substituteFrom\` ConfigMap or Secret, or an inline
\`postBuild.substitute\` entry — that no cluster receives: in every render context that reads
it, a higher layer wins (a later \`substituteFrom\` entry, the inline \`substitute\`, which wins
over everything, or an overlay patch). The finding is at the losing value and names the
winner's file and line.

## The contract
A value is inert only when it loses **everywhere** it is read; one context where it wins keeps
it quiet. Two kinds of value are not inert: a base default that overlay patches of the same
object override (every knob has a default in the base, see OVERLAY-KNOB-MISSING), and a value
of an object that something besides Flux also reads (an \`envFrom\` receives it as written).
Hover on the key shows every context that reads it, where it wins and where it loses, and
\`render-lens export\` lists each variable's winner with the layers that lost (\`also_set_by\`).

## Why is this bad?
The value looks authoritative: it sits in the variables file, under the right name. People
edit it to change the cluster, the change is reviewed and merged, and nothing happens,
because an inline \`substitute\` or a later ConfigMap sets the same name.

## Example
\`\`\`yaml
# clusters/production/cluster-vars.yaml (substituteFrom)
data:
  replicas: "3"        # inert: apps.yaml's postBuild.substitute sets replicas: "5"
\`\`\`

## Fix
Change the value where it wins (the finding names the file and line), and delete the inert
one, or remove the overriding layer if this value is the one meant.
`,
  *check(context) {
    const elsewhere = readElsewhere(context);
    const graph = context.fluxGraph();
    for (const definition of definitionsIn(context, context.file)) {
      if (definition.via === 'generator' || definition.via === 'external') continue;
      const standings = standingsOf(graph, definition.name, definition.file, definition.range);
      if (standings.length === 0 || standings.some((s) => s.wins)) continue;
      if (definition.readers.some((r) => r.object && elsewhere(r.instance.cluster, r.object.name))) continue;
      if (isOverriddenBaseDefault(definition, standings)) continue;
      const winners = distinctWinners(standings);
      const where = winners.map(({ layer, labels }) => `${labelList(labels)}: ${layerSource(layer)} (${locationOf(context, layer)})`).join('; ');
      yield {
        range: valueLine(context.text, definition),
        message: `This value of \`${definition.name}\` is never received: every context that reads it takes another layer — ${where}. Editing it changes nothing.`,
        related: winners.map(({ layer, labels }) => ({ file: layer.file, range: layer.range, message: `wins for ${labelList(labels)}` })),
      };
    }
  },
};

/** A base `data` key whose every winner is an overlay patch of the same object. */
function isOverriddenBaseDefault(definition: Definition, standings: readonly Standing[]): boolean {
  if (definition.via !== 'data' && definition.via !== 'stringData') return false;
  const objects = new Set(definition.readers.map((r) => r.object?.name));
  return standings.every((s) => s.winner.via === 'patch' && s.winner.source !== 'inline' && objects.has(s.winner.objectName));
}

function distinctWinners(standings: readonly Standing[]): Array<{ layer: VariableLayer; labels: string[] }> {
  const byPlace = new Map<string, { layer: VariableLayer; labels: string[] }>();
  for (const { winner, instance } of standings) {
    const key = `${winner.file}\0${winner.range.start}`;
    const entry = byPlace.get(key) ?? { layer: winner, labels: [] };
    entry.labels.push(instanceLabel(instance));
    byPlace.set(key, entry);
  }
  return [...byPlace.values()];
}

function locationOf(context: RuleContext, layer: VariableLayer): string {
  const index = context.derived(layer.file, 'line index', (text) => new LineIndex(text));
  return index ? `${layer.file}:${index.positionAt(layer.range.start).line + 1}` : layer.file;
}

/** From the key to the end of its line: the key and the value written after it. */
function valueLine(text: string, definition: Definition): { start: number; end: number } {
  const newline = text.indexOf('\n', definition.range.start);
  const lineEnd = newline === -1 ? text.length : newline;
  const end = Math.max(definition.range.end, definition.range.start + text.slice(definition.range.start, lineEnd).trimEnd().length);
  return { start: definition.range.start, end: Math.min(end, Math.max(lineEnd, definition.range.end)) };
}
