/** What the server found in each workspace folder, for the output channel and "Show Clusters". */
import { describeClusters, formatClusters } from '../core';
import type { ClustersResult } from '../protocol';
import type { Logger } from './logger';
import type { Workspace } from './workspace';

/** One line per folder: the clusters and how they were found, and what is left out of them. */
export function logModel(workspaces: readonly Workspace[], log: Logger): void {
  for (const { host, engine } of workspaces) {
    const started = Date.now();
    const report = describeClusters(engine);
    const clusters = report.clusters.map((c) => `${c.name} (${c.kustomizations} Kustomizations, from a ${c.found} at ${c.root.file}:${c.root.line})`);
    log.info(
      `${host.root}: ${engine.index.files().length} files, ${report.clusters.length} cluster(s)${clusters.length > 0 ? `: ${clusters.join('; ')}` : ''}; ` +
        `${report.external.length} Kustomization(s) on other sources, ${report.unapplied.length} applied by no cluster; ${Date.now() - started} ms. ` +
        'A file no cluster renders is not substituted ("Render Lens: Show Clusters" has the details).',
    );
  }
}

/** The answer to "Show Clusters": the report of every folder, and what each holds in numbers. */
export function clustersResult(workspaces: readonly Workspace[]): ClustersResult {
  const reports = workspaces.map(({ host, engine }) => ({ root: host.root, files: engine.index.files().length, report: describeClusters(engine) }));
  return {
    text: reports.map(({ root, report }) => `# ${root}\n\n${formatClusters(report)}`).join('\n'),
    folders: reports.map(({ root, files, report }) => ({ root, files, clusters: report.clusters.map((c) => c.name) })),
  };
}
