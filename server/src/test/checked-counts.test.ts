import * as assert from 'assert/strict';
import * as path from 'path';
import { Engine } from '../core/engine';
import { MemoryHost } from '../core/host';
import { loadCase } from './support/fixtures';
import { fixturesDir } from './support/paths';

const checkedIn = (rule: string, name: string) => new Engine(new MemoryHost(loadCase(path.join(fixturesDir, 'rules', rule, name)).files)).analyzeWorkspace().checked;

suite('what a check looked at, per kind', () => {
  test('Fleet comparePatches entries: two at the top level and one in a target customization', () => {
    assert.deepEqual(checkedIn('FLEET-PATCH-OP', 'valid'), { substitutedValues: 0, helmStringFields: 0, fleetPatches: 3 });
  });

  test('Helm string fields: the two ConfigMap data values the template renders into', () => {
    assert.deepEqual(checkedIn('HELM-HAND-QUOTED', 'squote-apostrophe'), { substitutedValues: 0, helmStringFields: 2, fleetPatches: 0 });
  });

  test('substituted values count the scalars of substituted documents only', () => {
    // The label-disabled ConfigMap is not substituted; only the Kustomization's own file is read.
    assert.equal(checkedIn('DOLLAR-COLLAPSE', 'disabled-label').substitutedValues, 0);
    // Every field of the substituted ConfigMap, none of the Flux Kustomization that substitutes it.
    const engine = new Engine(new MemoryHost(loadCase(path.join(fixturesDir, 'rules', 'DOLLAR-COLLAPSE', 'plpgsql')).files));
    const configMap = engine.analyzeFile('apps/migrations.yaml');
    assert.deepEqual(configMap.checked.substitutedValues, configMap.fields);
    assert.equal(engine.analyzeFile('clusters/production/apps.yaml').checked.substitutedValues, 0);
    assert.equal(engine.analyzeWorkspace().checked.substitutedValues, configMap.fields);
  });
});
