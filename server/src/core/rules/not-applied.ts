import { dirname } from '../flux/paths';
import { mapGet, rangeOf } from '../yaml/nodes';
import type { Rule } from './rule';

/**
 * NOT-APPLIED: a Flux Kustomization in a folder whose kustomization.yaml does not list its
 * file (usually an entry commented out). Flux never applies it, so Render Lens does not check
 * what it would render, and says so once instead of reporting on a tree nobody deploys.
 */
export const notApplied: Rule = {
  id: 'NOT-APPLIED',
  severity: 'hint',
  summary: 'A Flux Kustomization no kustomization.yaml lists: Flux does not apply it, so it is not checked.',
  docs: `# NOT-APPLIED

## What it does
Marks a file holding a Flux Kustomization when the kustomization.yaml of its folder, which a
cluster renders, does not list it: typically \`# - ./radio.yaml\`, an app switched off for now.
The file is reported once, at its first Kustomization.

## Why is this bad?
It is not, on purpose: Flux does not apply the Kustomization, so it renders nothing and its
variables never reach the cluster. Render Lens does not check the tree it would render (a
variable missing there would fail nothing today), and this hint says why those files are
quiet. If the file should be applied, list it.

## Example
\`\`\`yaml
# apps/kustomization.yaml
resources:
  - ./mosquitto.yaml
  # - ./radio.yaml
\`\`\`

## Fix
List the file in the folder's kustomization.yaml to have Flux apply it, or leave it as it is.
\`render-lens clusters\` lists every Kustomization that no cluster applies.
`,
  *check(context) {
    if (!context.fluxGraph().unlisted.includes(context.file)) return;
    const document = context.documents().find((d) => d.object?.kind === 'Kustomization' && d.object.apiVersion.startsWith('kustomize.toolkit.fluxcd.io/'));
    const range = rangeOf(mapGet(document?.document.contents, 'kind'));
    if (!range) return;
    const folder = dirname(context.file) || '.';
    yield { range, message: `No kustomization.yaml lists this file (the one in ${folder}/ does not), so Flux does not apply it: it is not checked as part of any cluster.` };
  },
};
