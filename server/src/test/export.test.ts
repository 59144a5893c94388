import * as assert from 'assert/strict';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { fixturesDir, projectRoot } from './support/paths';
import { testCompileCache } from './support/temp-workspace';

const cli = path.join(projectRoot, 'dist', 'cli.js');

function exportOf(repo: string, json: boolean): string {
  const args = [cli, 'export', '--root', path.join(fixturesDir, 'flux', repo), ...(json ? ['--json'] : [])];
  const result = spawnSync(process.execPath, args, { cwd: projectRoot, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', RENDER_LENS_CACHE_DIR: testCompileCache } });
  assert.equal(result.status, 0, result.stderr);
  return result.stdout;
}

/** Compares with a golden file; UPDATE_GOLDENS=1 rewrites it instead. */
function golden(name: string, actual: string): void {
  const file = path.join(fixturesDir, 'cli', name);
  if (process.env.UPDATE_GOLDENS === '1') fs.writeFileSync(file, actual);
  assert.equal(actual, fs.readFileSync(file, 'utf8'), `output differs from test-fixtures/cli/${name}`);
}

interface Exported {
  contexts: Array<{ cluster: string; kustomization: { namespace: string; name: string }; variables: Array<{ name: string; layer: string; value: unknown; write_to: object; also_set_by: Array<{ layer: string; value: unknown }> }> }>;
}

suite('cli: export', () => {
  test('every context, variable, layer and loser, as text and JSON goldens', () => {
    golden('export-variable-sources.txt', exportOf('variable-sources', false));
    golden('export-variable-sources.json', exportOf('variable-sources', true));
    golden('export-parent-patches.txt', exportOf('parent-patches', false));
    golden('export-overlay-patches.json', exportOf('overlay-patches', true));
  });

  test('a Secret value shows as a sha256 prefix (none when short enough to guess), never as text, so a rotation shows in a diff', () => {
    const text = exportOf('variable-sources', true);
    const web = (JSON.parse(text) as Exported).contexts.find((c) => c.kustomization.name === 'web')!;
    const port = web.variables.find((v) => v.name === 'DB_PORT')!;
    // Four digits can be found by trying them all: no hash for values under 16 characters (docs/security.md).
    assert.deepEqual(port.value, { redacted: true });
    assert.deepEqual(port.also_set_by.map((l) => [l.layer, l.value]), [['substituteFrom[2] Secret db-credentials, base object', { redacted: true }]]);
    for (const plain of ['6432', '5432', 'db.internal', '"app"']) assert.ok(!text.includes(plain), `the export shows ${plain}`);
  });

  test('names the layers stably and says where to write', () => {
    const exported = JSON.parse(exportOf('overlay-patches', true)) as Exported;
    const domain = exported.contexts[0].variables.find((v) => v.name === 'DOMAIN')!;
    assert.deepEqual([domain.layer, domain.value, domain.also_set_by.map((l) => l.layer)], ['substituteFrom[0] ConfigMap app-settings, overlay patch', 'prod.example.com', ['substituteFrom[0] ConfigMap app-settings, base object']]);
    assert.deepEqual(domain.write_to, { file: 'clusters/production/settings.yaml', line: 22, also_changes: [] });
    const parent = JSON.parse(exportOf('parent-patches', true)) as Exported;
    const whoami = parent.contexts.find((c) => c.kustomization.name === 'whoami')!;
    assert.equal(whoami.variables.find((v) => v.name === 'CLUSTER_NAME')?.layer, 'parent patch: inline substitute');
    // One ConfigMap serves every app: writing there changes them all, and the export says so.
    const shared = whoami.variables.find((v) => v.name === 'CLUSTER_DOMAIN')!.write_to as { also_changes: string[] };
    assert.ok(shared.also_changes.includes('home/cluster-apps') && shared.also_changes.includes('home/echo') && !shared.also_changes.includes('home/whoami'));
  });

  test('is stable: two runs give the same bytes, contexts sorted by cluster and Kustomization, variables by name', () => {
    assert.equal(exportOf('multi-cluster', true), exportOf('multi-cluster', true));
    const exported = JSON.parse(exportOf('multi-cluster', true)) as Exported;
    const keys = exported.contexts.map((c) => `${c.cluster}\0${c.kustomization.namespace}\0${c.kustomization.name}`);
    assert.ok(keys.length > 1);
    assert.deepEqual(keys, [...keys].sort());
    assert.ok(exported.contexts.every((c) => c.variables.every((v, i, all) => i === 0 || all[i - 1].name < v.name)));
  });
});
