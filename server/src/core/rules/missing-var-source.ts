import type { SubstituteFrom } from '../flux/flux-kustomization';
import type { Cluster, FluxGraph, KustomizationInstance } from '../flux/graph';
import { mapGet, scalarText } from '../yaml/nodes';
import { instanceItemsByFile, perGraph } from './support/per-graph';
import type { Rule, RuleContext, RuleReport } from './rule';
import { firstLine, labelList, mentions } from './support/variable-definitions';

/**
 * MISSING-VAR-SOURCE: a `substituteFrom` entry, not optional, whose ConfigMap or Secret the
 * cluster does not receive.
 *
 * kustomize-controller looks the object up in the Kustomization's namespace before it builds
 * anything; when it is not there the reconcile fails and nothing the Kustomization manages is
 * updated. The object may be created outside the repository (by hand, Terraform, a bootstrap
 * script), so this is a warning, reported per cluster at the entry.
 */
export const missingVarSource: Rule = {
  id: 'MISSING-VAR-SOURCE',
  severity: 'warning',
  summary: '`substituteFrom` names a ConfigMap or Secret the cluster does not receive: the reconcile fails.',
  docs: `# MISSING-VAR-SOURCE

## What it does
Flags an entry of \`postBuild.substituteFrom\` without \`optional: true\` whose ConfigMap or
Secret is not among the objects the cluster receives from the repository — nor anywhere in
the workspace outside a cluster — in the namespace where Flux looks for it: the
Kustomization's own. A Kustomization that serves several clusters is checked in each, and
the message says where the object is missing. It also points out the usual near misses: the
object in another namespace, of the other kind, or generated with a content-hash suffix.

## Why is this bad?
The controller fetches every \`substituteFrom\` object before it substitutes anything. When
one is missing and not optional, the whole Kustomization fails and nothing it manages is
updated:

\`\`\`
post build failed for '…': substitute from 'ConfigMap/cluster-vars' error: configmaps "cluster-vars" not found
\`\`\`

Typical causes: a typo in the name, a cluster where the variables file was never added, a
ConfigMap in another namespace, a \`configMapGenerator\` that appends a hash to the name.

## Example
\`\`\`yaml
  postBuild:
    substituteFrom:
      - kind: ConfigMap
        name: cluster-vars   # no such ConfigMap in flux-system for this cluster
\`\`\`

## Fix
Add the object to the cluster (in the Kustomization's namespace), or correct the name. If
the object is created outside the repository, suppress the finding with a reviewed comment
(\`# render-lens-disable MISSING-VAR-SOURCE -- created by terraform\`). Only mark the entry
\`optional: true\` when the Kustomization really works without it: a missing optional source
counts as empty, so its variables silently become empty (or fail in strict mode).
`,
  *check(context) {
    const missing = new Map<string, { ref: SubstituteFrom; where: Array<{ instance: KustomizationInstance; note: string | undefined }>; found: string[] }>();
    for (const { instance, source } of sourcesIn(context.fluxGraph(), context.file)) {
      const { ref, object, note } = source;
      if (ref.optional || (ref.kind !== 'ConfigMap' && ref.kind !== 'Secret') || ref.name === '' || ref.name.includes('${')) continue;
      const key = `${ref.range.start}:${ref.range.end}`;
      const entry = missing.get(key) ?? { ref, where: [], found: [] };
      missing.set(key, entry);
      const cluster = instance.cluster;
      if (object) entry.found.push(cluster.name);
      else if (!producedByOperator(context, cluster, ref)) entry.where.push({ instance, note });
    }
    for (const { ref, where, found } of missing.values()) {
      if (where.length === 0) continue;
      const clusters = labelList(where.map((w) => w.instance.cluster.name));
      const namespaces = [...new Set(where.map((w) => w.instance.namespace))];
      const kustomizations = labelList(where.map((w) => w.instance.kustomization.name));
      const hints = [...new Set(where.flatMap(({ instance, note }) => note ?? nearMiss(instance, ref) ?? []))];
      const foundIn = found.filter((c) => !where.some((w) => w.instance.cluster.name === c));
      const report: RuleReport = {
        range: nameSpan(context.text, ref) ?? firstLine(context.text, ref.range),
        message:
          `${ref.kind} \`${ref.name}\` is not in ${clusters} (Flux looks in namespace ${namespaces.join(', ')}): Kustomization ${kustomizations} fails there before applying anything — ` +
          `substitute from '${ref.kind}/${ref.name}' error: ${ref.kind.toLowerCase()}s "${ref.name}" not found — unless the object is created outside this repository.` +
          (foundIn.length > 0 ? ` It is found in ${labelList(foundIn)}.` : '') +
          hints.map((h) => ` ${h}.`).join(''),
      };
      yield report;
    }
  },
};

type Source = KustomizationInstance['variables']['sources'][number];

/** The substituteFrom entries written in `file`, with their instances, in graph order. */
function sourcesIn(graph: FluxGraph, file: string): ReadonlyArray<{ instance: KustomizationInstance; source: Source }> {
  const byFile = perGraph(graph, 'substituteFrom entries by file', (g) => instanceItemsByFile(g, (instance) => instance.variables.sources.map((source) => ({ file: source.ref.file, item: { instance, source } }))));
  return byFile.get(file) ?? [];
}

/** The `name:` value of the entry, when it is written plainly inside the entry's range. */
function nameSpan(text: string, ref: SubstituteFrom): { start: number; end: number } | undefined {
  const source = text.slice(ref.range.start, ref.range.end);
  const match = /(^|[\s{,])name:\s*(["']?)/m.exec(source);
  if (!match) return undefined;
  const start = ref.range.start + match.index + match[0].length;
  return text.startsWith(ref.name, start) ? { start, end: start + ref.name.length } : undefined;
}

/** The same name in another namespace, or of the other kind, in the cluster. */
function nearMiss(instance: KustomizationInstance, ref: SubstituteFrom): string | undefined {
  const cluster = instance.cluster;
  for (const object of cluster.objects.named(ref.name)) {
    if (object.kind === ref.kind && object.namespace !== instance.namespace) {
      return `In ${cluster.name} it is in namespace ${object.namespace ?? '(none)'} (${object.file}), but Flux looks in ${instance.namespace}, the Kustomization's namespace`;
    }
    if (object.kind !== ref.kind && object.namespace === instance.namespace) return `${cluster.name} has a ${object.kind} named ${ref.name} (${object.file}): should the entry say \`kind: ${object.kind}\``;
  }
  return undefined;
}

/**
 * A resource that makes a Secret of this name at runtime (SealedSecret, Vault or 1Password
 * operators, …): its keys are unknown, but the Secret will exist, so the entry is not flagged.
 */
function producedByOperator(context: RuleContext, cluster: Cluster, ref: SubstituteFrom): boolean {
  if (ref.kind !== 'Secret') return false;
  for (const instance of cluster.instances) {
    for (const rendered of instance.tree.files.values()) {
      if (rendered.role !== 'resource' || !mentions(context, rendered.file, ref.name)) continue;
      const parsed = context.parsedFile(rendered.file);
      if (!parsed) continue;
      for (const document of parsed.documents) {
        const kind = scalarText(mapGet(document.contents, 'kind')) ?? '';
        if (kind === 'Secret' || !/Secret|OnePasswordItem/.test(kind)) continue;
        const name = scalarText(mapGet(document.contents, 'spec', 'target', 'name')) ?? scalarText(mapGet(document.contents, 'spec', 'destination', 'name')) ?? scalarText(mapGet(document.contents, 'metadata', 'name'));
        if (name === ref.name) return true;
      }
    }
  }
  return false;
}
