/**
 * A whole-workspace check (`render-lens check` without the printing) of each generated
 * repository kind: Flux, Helm charts, Fleet. Figures only; the budgets are elsewhere.
 */
import * as path from 'path';
import { Engine } from '../core/engine';
import { NodeHost } from '../node-host';
import { generateFleetRepo, generateFluxRepo, generateHelmRepo, type GeneratedRepo } from './generate';
import { benchDir } from '../dev/project-paths';
import { ms, table, timeMs, type BenchOptions, type Row } from './report';

export async function benchRepos(options: BenchOptions): Promise<string[]> {
  const repos: Array<[string, GeneratedRepo]> = [
    ['Flux, 200 files', generateFluxRepo(path.join(benchDir, 'flux-200'), { files: 200 })],
    ['Flux, 2,000 files', generateFluxRepo(path.join(benchDir, 'flux-2000'), { files: 2_000 })],
    ['Helm charts', generateHelmRepo(path.join(benchDir, 'helm'), options.quick ? 20 : 60)],
    ['Fleet', generateFleetRepo(path.join(benchDir, 'fleet'), options.quick ? 30 : 100)],
  ];
  const rows: Row[] = [];
  for (const [what, repo] of repos) {
    let summary = '';
    const time = timeMs(() => {
      const engine = new Engine(new NodeHost(repo.root));
      const result = engine.analyzeWorkspace();
      summary = `${result.files} files checked, ${result.fields} fields, ${result.findings.length} findings`;
    });
    rows.push({ what: `${what}: check the workspace (cold)`, value: ms(time), note: `${repo.files} files on disk; ${summary}` });
  }
  return table(rows);
}
