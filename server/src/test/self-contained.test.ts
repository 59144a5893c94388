/**
 * A clone anywhere runs `npm test`: the conformance vectors come from the repository
 * (test-fixtures/conformance), and nothing in the run reads ../shared beside it
 * (support/shared-folder-guard.ts fails the whole run otherwise).
 */
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import { conformanceDir, loadConformance, projectRoot } from './support/paths';
import { sharedFolder, sharedFolderTouches } from './support/shared-folder-guard';

suite('self-contained: the tests need only the repository', () => {
  test('the guard sees a read of ../shared, whichever fs call makes it', async () => {
    const before = sharedFolderTouches().length;
    const probe = path.join(sharedFolder, 'conformance', 'pipeline', 'pipeline.jsonl');
    fs.existsSync(probe);
    await fs.promises.readFile(probe).catch(() => undefined);
    assert.deepEqual(sharedFolderTouches().splice(before), [probe, probe]);
    fs.existsSync(path.join(projectRoot, 'package.json'));
    assert.equal(sharedFolderTouches().length, before, 'a read inside the project is not recorded');
  });

  test('the conformance vectors are read from test-fixtures/conformance, which says where they come from', () => {
    assert.equal(conformanceDir, path.join(projectRoot, 'test-fixtures', 'conformance'));
    const files = ['envsubst/curated.jsonl', 'envsubst/random.jsonl', 'pipeline/pipeline.jsonl', 'yaml/emit-style.jsonl', 'yaml/yaml11-scalars.jsonl'];
    for (const file of files) assert.ok(loadConformance<object>(file).length > 50, `${file} holds the vectors`);
    const readme = fs.readFileSync(path.join(conformanceDir, 'README.md'), 'utf8');
    for (const version of ['envsubst v1.7.0', 'fluxcd/pkg/kustomize v1.39.0', 'sigs.k8s.io/yaml v1.6.0', 'go-yaml v2.4.4']) assert.ok(readme.includes(version), version);
    // The copy is unchanged, README included: its words about ../shared describe the shared set,
    // and the guard above holds that no test reads from there.
  });

  test('no test, bench or dev source names ../shared', () => {
    const roots = ['test', 'bench', 'dev'].map((dir) => path.join(projectRoot, 'server', 'src', dir));
    const offenders = roots
      .flatMap((root) => fs.readdirSync(root, { recursive: true, encoding: 'utf8' }).map((name) => path.join(root, name)))
      .filter((file) => file.endsWith('.ts') && !/(shared-folder-guard|self-contained\.test)\.ts$/.test(file))
      .filter((file) => /\.\.['"`/,\s]+shared\b|sharedDir/.test(fs.readFileSync(file, 'utf8')));
    assert.deepEqual(offenders, []);
  });
});
