import * as assert from 'assert/strict';
import * as path from 'path';
import { Engine } from '../core/engine';
import { MemoryHost } from '../core/host';
import { fieldAt, isStringField, type FieldInfo } from '../core/kube/schema-types';
import { loadCase } from './support/fixtures';
import { fixturesDir } from './support/paths';
import { crdSchemasOf } from '../core/kube/workspace-crds';
import { defaultIn } from '../tools/field-types/generate';

const type = (apiVersion: string, kind: string, path: string): Pick<FieldInfo, 'type' | 'required' | 'default'> | undefined => {
  const field = fieldAt({ apiVersion, kind }, path.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)));
  return field && { type: field.type, required: field.required, ...(field.default !== undefined ? { default: field.default } : {}) };
};

suite('field types from the Kubernetes schema', () => {
  test('built-in kinds: integers, booleans, int-or-string, quantities, strings, with required and documented defaults', () => {
    assert.deepEqual(type('apps/v1', 'Deployment', 'spec.replicas'), { type: 'integer', required: false, default: '1' });
    assert.deepEqual(type('apps/v1', 'Deployment', 'spec.paused'), { type: 'boolean', required: false });
    assert.deepEqual(type('apps/v1', 'Deployment', 'spec.strategy.rollingUpdate.maxSurge'), { type: 'int-or-string', required: false, default: '25%' });
    assert.deepEqual(type('apps/v1', 'Deployment', 'spec.template.spec.containers.0.resources.limits.cpu'), { type: 'quantity', required: true });
    assert.deepEqual(type('apps/v1', 'Deployment', 'spec.template.spec.containers.0.name'), { type: 'string', required: true });
    assert.deepEqual(type('batch/v1', 'CronJob', 'spec.schedule'), { type: 'string', required: true });
    assert.deepEqual(type('v1', 'Service', 'spec.ports.0.targetPort')?.type, 'int-or-string');
    assert.deepEqual(type('v1', 'ConfigMap', 'data'), { type: 'object', required: false });
    assert.deepEqual(type('apps/v1', 'Deployment', 'spec.template.spec.containers'), { type: 'array', required: true });
  });

  test('the validators tell a number from an integer, which the type declarations both call number', () => {
    const schema = 'spec.versions.0.schema.openAPIV3Schema';
    assert.equal(type('apiextensions.k8s.io/v1', 'CustomResourceDefinition', `${schema}.maximum`)?.type, 'number');
    assert.equal(type('apiextensions.k8s.io/v1', 'CustomResourceDefinition', `${schema}.maxLength`)?.type, 'integer');
  });

  test('Flux, cert-manager, external-secrets and Prometheus operator kinds', () => {
    assert.deepEqual(type('helm.toolkit.fluxcd.io/v2', 'HelmRelease', 'spec.chart.spec.version'), { type: 'string', required: false, default: 'latest' });
    assert.equal(type('helm.toolkit.fluxcd.io/v2', 'HelmRelease', 'spec.values.replicaCount')?.type, 'preserve-unknown');
    assert.deepEqual(type('kustomize.toolkit.fluxcd.io/v1', 'Kustomization', 'spec.prune'), { type: 'boolean', required: true });
    assert.equal(type('cert-manager.io/v1', 'Certificate', 'spec.duration')?.type, 'string');
    assert.equal(type('external-secrets.io/v1', 'ExternalSecret', 'spec.refreshInterval')?.type, 'string');
    assert.equal(type('monitoring.coreos.com/v1', 'ServiceMonitor', 'spec.endpoints.0.port')?.type, 'string');
  });

  test('another version of a known group and kind falls back to a stable one; a chart template without apiVersion matches by kind', () => {
    assert.equal(type('apps/v1beta9', 'Deployment', 'spec.replicas')?.type, 'integer');
    assert.ok(isStringField({ kind: 'CronJob' }, ['spec', 'schedule']));
    // An enum's names never re-type, and a value outside them is rejected however it is quoted.
    assert.equal(fieldAt({ apiVersion: 'v1', kind: 'Service' }, ['spec', 'type'])?.enumerated, true);
    assert.ok(!isStringField({ kind: 'Deployment' }, ['spec', 'template', 'spec', 'containers', 0, 'imagePullPolicy']));
    // A templated key (`*`) is any key of a map.
    assert.ok(isStringField({ kind: 'ConfigMap' }, ['data', '*']));
  });

  test('an unknown kind has no typed fields but its metadata, which every object shares', () => {
    assert.equal(type('example.org/v1', 'Gadget', 'spec.size'), undefined);
    assert.deepEqual(type('example.org/v1', 'Gadget', 'metadata.labels.app'), { type: 'string', required: true });
    assert.equal(type('apps/v1', 'Deployment', 'spec.noSuchField'), undefined);
  });

  test('defaults are read from the field docs', () => {
    assert.equal(defaultIn('Number of desired pods. Defaults to 1.'), '1');
    assert.equal(defaultIn('Defaults to "".'), '""');
    assert.equal(defaultIn('If not specified, the default is `Always`. Default is `Always`.'), 'Always');
    assert.equal(defaultIn('Name of the container.'), undefined);
    assert.equal(defaultIn('Defaults to the namespace of the object.'), undefined);
    assert.equal(defaultIn('Defaults to empty.'), undefined);
    assert.equal(defaultIn('Defaults to Test.IgnoreFailures.'), undefined);
    assert.equal(defaultIn('Defaults to 600s.'), '600s');
    assert.equal(defaultIn('Defaults to Always if :latest tag is specified, or IfNotPresent otherwise.'), undefined);
    assert.equal(defaultIn('Defaults to latest when omitted.'), 'latest');
    assert.equal(defaultIn('Defaults to /dev/termination-log.'), '/dev/termination-log');
  });
});

suite('field types from the workspace CRDs', () => {
  const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  versions:
    - name: v1
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              required: [color]
              properties:
                size: {type: integer, default: 3}
                color: {type: string}
                mode: {type: string, enum: [fast, slow]}
                ratio: {type: number}
                port: {x-kubernetes-int-or-string: true}
                tags: {type: array, items: {type: string}}
                env: {type: object, additionalProperties: {type: string}}
                config: {type: object, x-kubernetes-preserve-unknown-fields: true}
`;

  test('an openAPIV3Schema gives the same answers as the packaged table', () => {
    const workspace = crdSchemasOf('crds/widget.yaml', crd);
    assert.equal(workspace.length, 1);
    const at = (path: Array<string | number>) => fieldAt({ apiVersion: 'example.com/v1', kind: 'Widget' }, path, workspace);
    assert.deepEqual(at(['spec', 'size']), { type: 'integer', required: false, default: '3', source: 'CustomResourceDefinition in crds/widget.yaml' });
    assert.equal(at(['spec', 'color'])?.required, true);
    assert.deepEqual([at(['spec', 'mode'])?.type, at(['spec', 'mode'])?.enumerated], ['string', true]);
    assert.equal(at(['spec', 'ratio'])?.type, 'number');
    assert.equal(at(['spec', 'port'])?.type, 'int-or-string');
    assert.deepEqual([at(['spec', 'tags', 0])?.type, at(['spec', 'tags', 0])?.element], ['string', true]);
    assert.equal(at(['spec', 'env', 'HOME'])?.type, 'string');
    assert.equal(at(['spec', 'config', 'deep', 'key'])?.type, 'preserve-unknown');
    assert.equal(at(['metadata', 'labels', 'app'])?.type, 'string');
  });

  test('a file without a CRD, or with a broken one, gives nothing', () => {
    assert.deepEqual(crdSchemasOf('a.yaml', 'kind: ConfigMap\n'), []);
    assert.deepEqual(crdSchemasOf('a.yaml', 'kind: CustomResourceDefinition\nspec: [\n'), []);
    assert.deepEqual(crdSchemasOf('a.yaml', 'kind: CustomResourceDefinition\nspec:\n  group: x\n'), []);
  });

  test('editing a CRD re-checks every file: its custom resources are judged by the new schema', () => {
    const files = loadCase(path.join(fixturesDir, 'rules', 'TYPE-CHANGE', 'schema-fields')).files;
    const engine = new Engine(new MemoryHost(files));
    const sizeFinding = () => engine.analyzeWorkspace([''], { only: ['TYPE-CHANGE'] }).findings.filter((f) => f.file === 'apps/custom.yaml' && f.message.startsWith('`spec.size`'));
    assert.equal(sizeFinding()[0]?.severity, 'warning');
    const required = files['crds/widgets.yaml'].replace('required: [color]', 'required: [color, size]');
    assert.equal(engine.update('crds/widgets.yaml', required), true);
    assert.match(sizeFinding()[0]?.message ?? '', /becomes null, and the field is required/);
  });
});
