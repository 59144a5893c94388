/** What the LSP tests and the bench add to a generated Flux repository. */
import { FIRST_APP_BASE, SECOND_APP_BASE } from './generate';

/**
 * The LSP bench repositories: the first app's base lists `scripts.yaml` (the measured manifest)
 * and the second app's `warmup.yaml` (opened first in a warm run). Neither is on disk: the
 * editor's text is the first the server sees of them.
 */
export const LSP_REPO_KEY = 'scripts+warmup';

export function lspExtra(): Record<string, string> {
  const base = (extra: string) =>
    `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - deployment.yaml\n  - service.yaml\n  - configmap.yaml\n  - hpa.yaml\n  - ingress.yaml\n  - ${extra}\n`;
  return { [`${FIRST_APP_BASE}/kustomization.yaml`]: base('scripts.yaml'), [`${SECOND_APP_BASE}/kustomization.yaml`]: base('warmup.yaml') };
}
