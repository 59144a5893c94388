import * as assert from 'assert/strict';
import { disableSubstitutionFix } from '../core/fixes';
import { parseYamlFile } from '../core/yaml/document';
import { objectsOf } from '../core/workspace/objects';
import { applyEdits } from './support/fixtures';

function disable(text: string): string | undefined {
  const [object] = objectsOf('f.yaml', parseYamlFile(text).documents);
  const fix = disableSubstitutionFix(text, object);
  return fix && applyEdits(text, fix.edits.map((e) => ({ ...e, file: 'f.yaml' })));
}

suite('fix: turn substitution off for a resource', () => {
  test('adds the annotation to existing annotations at their indentation', () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  annotations:\n    team: db\ndata:\n  a: $$\n';
    assert.equal(disable(text), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  annotations:\n    team: db\n    kustomize.toolkit.fluxcd.io/substitute: disabled\ndata:\n  a: $$\n');
  });

  test('creates the annotations map when there is none', () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  labels:\n    app: db\ndata:\n  a: $$\n';
    assert.equal(disable(text), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  labels:\n    app: db\n  annotations:\n    kustomize.toolkit.fluxcd.io/substitute: disabled\ndata:\n  a: $$\n');
  });

  test('offers nothing for flow-style metadata rather than risk broken YAML', () => {
    assert.equal(disable('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n  a: $$\n'), undefined);
  });

  test('works at the end of a file without a final newline', () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x';
    assert.equal(disable(text), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  annotations:\n    kustomize.toolkit.fluxcd.io/substitute: disabled\n');
  });
});
