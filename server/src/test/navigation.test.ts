import * as assert from 'assert/strict';
import * as path from 'path';
import { Engine } from '../core/engine';
import { MemoryHost } from '../core/host';
import { definitionsOf, referencesOf, renameVariable, variableAt } from '../core/navigation';
import { applyEdits, loadCase } from './support/fixtures';
import { fixturesDir } from './support/paths';

const files = loadCase(path.join(fixturesDir, 'rules', 'UNDEFINED-VAR', 'two-clusters')).files;
const engine = () => new Engine(new MemoryHost(files));
const textAt = (l: { file: string; range: { start: number; end: number } }) => `${l.file}:${files[l.file].slice(l.range.start, l.range.end)}`;

suite('navigation for variables', () => {
  test('finds the variable under the cursor in ${…} and at a definition key', () => {
    const web = files['apps/web.yaml'];
    assert.equal(variableAt(engine(), 'apps/web.yaml', web.indexOf('${replicas}') + 4)?.name, 'replicas');
    const vars = files['clusters/production/cluster-vars.yaml'];
    assert.equal(variableAt(engine(), 'clusters/production/cluster-vars.yaml', vars.indexOf('domain') + 1)?.name, 'domain');
    assert.equal(variableAt(engine(), 'apps/web.yaml', web.indexOf('kind')), undefined);
  });

  test('go to definition lists every cluster\'s definition for the file', () => {
    assert.deepEqual(definitionsOf(engine(), 'apps/web.yaml', 'replicas').map(textAt), ['clusters/production/cluster-vars.yaml:replicas', 'clusters/staging/cluster-vars.yaml:replicas']);
    assert.deepEqual(definitionsOf(engine(), 'apps/web.yaml', 'cluster').map(textAt), ['clusters/production/apps.yaml:cluster', 'clusters/staging/apps.yaml:cluster']);
  });

  test('references include definitions and every use in substituted files', () => {
    assert.deepEqual(referencesOf(engine(), 'replicas').map(textAt), ['clusters/production/cluster-vars.yaml:replicas', 'clusters/staging/cluster-vars.yaml:replicas', 'apps/web.yaml:replicas']);
  });

  test('rename edits definitions and uses, and refuses a name Flux rejects', () => {
    const edits = renameVariable(engine(), 'replicas', 'replica_count');
    assert.ok(edits);
    const renamed = Object.fromEntries(Object.entries(files).map(([file, text]) => [file, applyEdits(text, edits.filter((e) => e.file === file))]));
    assert.match(renamed['apps/web.yaml'], /replicas: \$\{replica_count\}/);
    assert.match(renamed['clusters/staging/cluster-vars.yaml'], /^ {2}replica_count: "1"$/m);
    const after = new Engine(new MemoryHost(renamed)).analyzeWorkspace().findings.filter((f) => f.rule === 'UNDEFINED-VAR' && f.message.includes('replica'));
    assert.deepEqual(after, []);
    assert.equal(renameVariable(engine(), 'replicas', 'replica.count'), undefined);
  });
});
