import * as assert from 'assert/strict';
import * as path from 'path';
import { Engine } from '../core/engine';
import { MemoryHost } from '../core/host';
import { hoverAt } from '../core';
import { loadCase } from './support/fixtures';
import { fixturesDir } from './support/paths';

function hoverOn(files: Record<string, string>, file: string, needle: string, nth = 0): string {
  const engine = new Engine(new MemoryHost(files));
  let at = -1;
  for (let i = 0; i <= nth; i++) at = files[file].indexOf(needle, at + 1);
  assert.ok(at >= 0, `${needle} not found in ${file}`);
  const hover = hoverAt(engine, file, at + Math.min(2, needle.length - 1));
  assert.ok(hover, `no hover on ${needle}`);
  assert.equal(files[file].slice(hover.range.start, hover.range.end), needle);
  return hover.markdown;
}

suite('hover', () => {
  const twoClusters = loadCase(path.join(fixturesDir, 'rules', 'UNDEFINED-VAR', 'two-clusters')).files;

  test('shows what an expression becomes per cluster and where each value comes from', () => {
    const markdown = hoverOn(twoClusters, 'apps/web.yaml', '${domain}');
    assert.match(markdown, /\| production\/apps \(strict\) \| `example\.com` \|/);
    assert.match(markdown, /\| staging\/apps \| \*empty\* \|/);
    assert.match(markdown, /- production\/apps: `example\.com` from ConfigMap cluster-vars — \[clusters\/production\/cluster-vars\.yaml:7\]\(clusters\/production\/cluster-vars\.yaml#L7\)/);
    assert.match(markdown, /- staging\/apps: not defined — define it in ConfigMap cluster-vars \(clusters\/staging\/cluster-vars\.yaml\)/);
  });

  test('shows the strict-mode failure as the controller words it', () => {
    const markdown = hoverOn(twoClusters, 'apps/web.yaml', '${app_version}');
    assert.match(markdown, /\| production\/apps \(strict\) \| fails: `variable not set \(strict mode\): "app_version"` \|/);
  });

  test('explains a dollar run', () => {
    const files = { ...twoClusters, 'apps/job.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: j\ndata:\n  sql: DO $$ BEGIN END $$;\n' };
    assert.match(hoverOn(files, 'apps/job.yaml', '$$'), /Arrives as `\$`: Flux turns each `\$\$` into `\$`\./);
  });

  test('never shows a secret value, only a short hash', () => {
    const files = {
      ...twoClusters,
      'clusters/production/db-secret.yaml': 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n  namespace: flux-system\nstringData:\n  db_password: hunter2-very-secret\n',
      'clusters/production/apps.yaml': twoClusters['clusters/production/apps.yaml'] + '      - kind: Secret\n        name: db\n',
      'apps/db.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: db\ndata:\n  url: postgres://app:${db_password}@db\n',
    };
    const markdown = hoverOn(files, 'apps/db.yaml', '${db_password}');
    assert.doesNotMatch(markdown, /hunter2/);
    assert.match(markdown, /secret, sha256:[0-9a-f]{12} from Secret db/);
    assert.match(markdown, /\| production\/apps \(strict\) \| a secret value \(not shown\) \|/);
  });

  test('on the rest of a scalar, shows the whole value after substitution and its YAML 1.1 type', () => {
    const files = { ...twoClusters, 'apps/port.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: port\ndata:\n  replicas: "${replicas}"\n' };
    const engine = new Engine(new MemoryHost(files));
    const text = files['apps/port.yaml'];
    const hover = hoverAt(engine, 'apps/port.yaml', text.indexOf('"${replicas}"'));
    assert.ok(hover);
    assert.match(hover.markdown, /^\*\*data\.replicas\*\* after post-build substitution/);
    assert.match(hover.markdown, /\| production\/apps \| `3` \| number \|/);
  });

  test('says why a file is not substituted', () => {
    const files = { ...twoClusters, 'apps/off.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: off\n  annotations:\n    kustomize.toolkit.fluxcd.io/substitute: disabled\ndata:\n  a: ${domain}\n' };
    assert.match(hoverOn(files, 'apps/off.yaml', '${domain}'), /Not substituted; the text reaches the cluster as written:\n- production\/apps is opted out by the annotation/);
  });

  suite('field types from the schema', () => {
    const schemaFields = loadCase(path.join(fixturesDir, 'rules', 'TYPE-CHANGE', 'schema-fields')).files;

    test('an expression names its field\'s type, whether it is required, and the documented default', () => {
      const markdown = hoverOn(schemaFields, 'apps/core.yaml', '${empty}', 1);
      assert.match(markdown, /`spec\.replicas` is an integer \(optional, default `1`\), from the Kubernetes schema\./);
    });

    test('the whole scalar shows per context whether the field takes what arrives', () => {
      const files = { ...schemaFields, 'apps/extra.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\ndata:\n  workers: "${count}"\n  image: "app:${version}"\n' };
      const engine = new Engine(new MemoryHost(files));
      const text = files['apps/extra.yaml'];
      const rejected = hoverAt(engine, 'apps/extra.yaml', text.indexOf('"${count}"'));
      assert.ok(rejected);
      assert.match(rejected.markdown, /`data\.workers` is a string, from the Kubernetes schema\./);
      assert.match(rejected.markdown, /\| production\/apps \| `3` \| number \| rejected \|/);
      const accepted = hoverAt(engine, 'apps/extra.yaml', text.indexOf('"app:'));
      assert.ok(accepted);
      assert.match(accepted.markdown, /\| production\/apps \| `app:1\.10` \| string \| accepted \|/);
    });

    test('a null in an optional field says it is left out and which default applies', () => {
      const files = { ...schemaFields, 'apps/extra.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: extra\nspec:\n  replicas: "${empty}"\n' };
      const engine = new Engine(new MemoryHost(files));
      const hover = hoverAt(engine, 'apps/extra.yaml', files['apps/extra.yaml'].indexOf('"${empty}"'));
      assert.ok(hover);
      assert.match(hover.markdown, /\| production\/apps \| `null` \| null \| left out: `1` applies \|/);
    });

    test('a custom resource\'s field type comes from the CRD in the workspace', () => {
      const markdown = hoverOn(schemaFields, 'apps/custom.yaml', '${empty}');
      assert.match(markdown, /`spec\.size` is an integer \(optional, default `3`\), from the CustomResourceDefinition in crds\/widgets\.yaml\./);
    });

    test('a kind no schema knows shows no field type', () => {
      const markdown = hoverOn(schemaFields, 'apps/custom.yaml', '${port_name}', 2);
      assert.doesNotMatch(markdown, / is (a|an) [a-z-]+( \(|,)/);
    });
  });
});
