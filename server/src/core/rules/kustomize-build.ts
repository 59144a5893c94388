import type { GraphProblem } from '../flux/graph';
import type { Severity } from '../model';
import type { Rule } from './rule';

/**
 * KUSTOMIZE-BUILD: what makes kustomize-controller's build of a Kustomization fail before any
 * substitution — a `spec.path`, `resources:`, `components:` or patch file that does not exist
 * in the repository, a reference that leaves it, a cycle — reported where it is written, for
 * Kustomizations on this repository's source only (another source's files are not here).
 */
export const kustomizeBuild: Rule = {
  id: 'KUSTOMIZE-BUILD',
  severity: 'error',
  summary: 'kustomize cannot build the Kustomization: a path that does not exist or leaves the repository, or a cycle.',
  docs: `# KUSTOMIZE-BUILD

## What it does
Reports, where it is written, what stops kustomize-controller from building a Flux
Kustomization on this repository's source:
- a \`spec.path\`, a \`resources:\` or \`components:\` entry, or a patch or generator file that does
  not exist in the repository (\`kustomization path not found\`, \`accumulating resources\`);
- a reference in a kustomization.yaml that leaves the repository (\`../../outside\`, an
  absolute path): kustomize refuses to read it;
- kustomizations that include each other;
- a parent's JSON 6902 patch op that cannot apply to a child Kustomization.

A \`spec.path\` that climbs above the source root is a warning: Flux reads it as a folder inside
the root, which is rarely what was meant. A \`spec.path\` with \`\${VAR}\` that Render Lens cannot
resolve (the value is not in the repository) is information: the path is not followed.
Kustomizations on another source (another repository, an OCI artifact) are never checked
here: their files are not in this repository. Where nothing in the repository says the
source is this repository (no bootstrap, no git remote, the GitRepository not defined), a
missing path is information: it may exist in the repository the source really reads. Remote resources (\`https://…\`) are not fetched
and not reported.

## Why is this bad?
The whole Kustomization fails to reconcile, and nothing it manages is updated, until the
path is fixed.

## Example
\`\`\`yaml
resources:
  - ./namespace.yaml
  - ./postgres      # renamed to ./postgresql last week
\`\`\`

## Fix
Point the entry at a folder or file that exists in the repository, or remove it.
`,
  *check(context) {
    const graph = context.fluxGraph();
    for (const problem of graph.problemsIn(context.file)) {
      // Where nothing says the source is this repository, a path missing here may exist there.
      const owner = graph.kustomizations.find((k) => k.id === problem.kustomization);
      const verdict = owner && graph.sourceOf(owner);
      const assumed = verdict?.kind === 'this' && verdict.assumed === true;
      const severity = assumed && problem.kind === 'missing' ? 'information' : severityOf(problem);
      if (severity) yield { range: problem.range, severity, message: `${capitalized(problem.message)}.` };
    }
  },
};

function severityOf(problem: GraphProblem): Severity | undefined {
  switch (problem.kind) {
    case 'missing':
      return problem.message.includes(' is not resolved: ') ? 'information' : 'error';
    case 'outside':
      return problem.message.includes('climbs above the source root') ? 'warning' : 'error';
    case 'cycle':
    case 'patch':
      return 'error';
    default:
      // Remote references are not fetched; hashed or namespace-less variable sources are MISSING-VAR-SOURCE's.
      return undefined;
  }
}

function capitalized(message: string): string {
  return message.charAt(0).toUpperCase() + message.slice(1);
}
