/**
 * The shapes of real Flux repositories (test-fixtures/flux/real-shapes, each a small copy of a
 * layout seen in public home-ops and fleet repositories): where clusters start, which
 * Kustomizations render this repository, where variables come from. Every finding of
 * information level or above is written inline in the fixture; hints are the rules' own cases.
 */
import * as assert from 'assert/strict';
import * as path from 'path';
import { Engine } from '../core/engine';
import { MemoryHost } from '../core/host';
import { describeClusters, formatClusters } from '../core/render/clusters';
import { artifactRoots } from '../core/flux/artifact-roots';
import { strictFromInstaller, strictOfVersionRange } from '../core/flux/cluster-settings';
import { describeInventory } from '../core/render/inventory';
import { describeFinding, loadCase, runCase } from './support/fixtures';
import { fixturesDir } from './support/paths';

function shape(name: string): { files: Record<string, string>; expected: string[]; engine: Engine } {
  const fixture = loadCase(path.join(fixturesDir, 'flux', 'real-shapes', name));
  return { ...fixture, engine: new Engine(new MemoryHost(fixture.files)) };
}

function findingsOf(files: Record<string, string>): string[] {
  return runCase(files)
    .filter((f) => f.severity !== 'hint')
    .map((f) => describeFinding(f, files[f.file]))
    .sort();
}

function valueIn(engine: Engine, file: string, cluster: string, name: string): string | undefined {
  const context = engine.fluxGraph().contextsOf(file).find((c) => c.cluster.name === cluster);
  assert.ok(context, `${file} is not rendered in ${cluster}`);
  return context.instance.variables.vars.get(name)?.value;
}

suite('flux model: the shapes of real repositories', () => {
  for (const name of ['flux-instance-helmrelease', 'flux-instance-oci', 'self-applied-folder', 'open-variable-sets', 'root-patches-path-vars', 'oci-artifact-of-subfolder', 'oci-artifact-pushed-by-ci']) {
    test(`${name}: every finding is the one written inline`, () => {
      const { files, expected } = shape(name);
      assert.deepEqual(findingsOf(files), [...expected].sort());
    });
  }

  test('flux-instance HelmRelease values: one cluster per sync, named by the folder that tells them apart, each with its own values', () => {
    const { engine } = shape('flux-instance-helmrelease');
    const report = describeClusters(engine);
    assert.deepEqual(
      report.clusters.map((c) => [c.name, c.found, c.root.path, `${c.root.file}:${c.root.line}`]),
      [
        ['main', 'flux-instance HelmRelease', 'kubernetes/main/flux/cluster', 'kubernetes/main/apps/flux-system/flux-instance/helmrelease.yaml:18'],
        ['network', 'flux-instance HelmRelease', 'kubernetes/network/flux/cluster', 'kubernetes/network/apps/flux-system/flux-instance/helmrelease.yaml:18'],
      ],
    );
    const ingress = 'kubernetes/apps/base/echo/ingress.yaml';
    assert.deepEqual([valueIn(engine, ingress, 'main', 'CLUSTER_DOMAIN'), valueIn(engine, ingress, 'network', 'CLUSTER_DOMAIN')], ['main.example.org', 'net.example.org']);
    assert.deepEqual([valueIn(engine, ingress, 'main', 'CLUSTER'), valueIn(engine, ingress, 'network', 'CLUSTER')], ['main', 'network']);
    // `APP: *app` reads the anchor on metadata.name.
    assert.equal(valueIn(engine, ingress, 'main', 'APP'), 'echo');
  });

  test('a sync of an artifact built from a subfolder starts no cluster, and `clusters` says which sync and why', () => {
    const { engine } = shape('oci-artifact-of-subfolder');
    const report = describeClusters(engine);
    assert.deepEqual(report.clusters, []);
    assert.deepEqual(report.otherTrees, [
      { at: { file: 'kubernetes/clusters/home/flux-instance/values.yaml', line: 12 }, how: 'flux-instance values', source: 'OCIRepository oci://ghcr.io/example/manifests/home-ops', path: './clusters/home' },
    ]);
    const text = formatClusters(report);
    assert.match(text, /^No Flux cluster found: every FluxInstance sync names a path that is no folder of this repository \(below\)\.$/m);
    assert.match(text, /values\.yaml:12 — flux-instance values syncs OCIRepository oci:\/\/ghcr\.io\/example\/manifests\/home-ops at \.\/clusters\/home, not a folder here/);
  });

  test('a sync of an artifact CI pushes from a subfolder reads its paths inside that folder', () => {
    const { engine } = shape('oci-artifact-pushed-by-ci');
    const report = describeClusters(engine);
    assert.deepEqual(report.otherTrees, []);
    assert.deepEqual(report.clusters.map((c) => [c.name, c.sources]), [['home', ['OCIRepository flux-system/flux-system: made by a flux-instance values sync of kubernetes/, which CI pushes as an OCI artifact (.github/workflows/oci.yaml)']]]);
    assert.equal(valueIn(engine, 'kubernetes/apps/echo/deployment.yaml', 'home', 'CLUSTER'), 'home');
  });

  test('push paths: the `--path=` and `--path ` forms, ./ dropped; a path built from a variable or naming no folder is not a root', () => {
    const workflow = (run: string) => `jobs:\n  push:\n    steps:\n      - run: |\n          ${run}\n`;
    const roots = (run: string, file = '.github/workflows/push.yml') => artifactRoots(new Engine(new MemoryHost({ [file]: workflow(run), 'deploy/x.yaml': 'a: 1\n' })).index).map((r) => [r.dir, r.file]);
    assert.deepEqual(roots('flux push artifact oci://r/x:1 --path=./deploy --source=s'), [['deploy', '.github/workflows/push.yml']]);
    assert.deepEqual(roots('flux push artifact oci://r/x:1 \\\n            --path "deploy"'), [['deploy', '.github/workflows/push.yml']]);
    assert.deepEqual(roots('flux push artifact oci://r/x:1 --path=$DIR'), []);
    assert.deepEqual(roots('flux push artifact oci://r/x:1 --path=./missing'), []);
    assert.deepEqual(roots('flux push artifact oci://r/x:1 --path=./deploy', 'deploy/not-ci.yaml'), []);
  });

  test('strict mode from the FluxInstance\'s distribution.version: a range that settles it, and one that does not', () => {
    const pinned = describeClusters(shape('flux-instance-helmrelease').engine).clusters.map((c) => [c.name, c.strict, c.strictReason]);
    assert.deepEqual(pinned[0], ['main', false, "Flux 2.7.x (the FluxInstance's distribution.version, kubernetes/main/apps/flux-system/flux-instance/helmrelease.yaml) does not substitute strictly by default"]);
    const open = describeClusters(shape('flux-instance-oci').engine).clusters.map((c) => [c.strict, c.strictReason]);
    assert.match(String(open[0][1]), /^assumed strict \(Flux ≥ 2\.9 default; the FluxInstance asks for 2\.x, .*which does not say whether it is 2\.9 or later\)$/);
    assert.deepEqual(['2.7.x', '2.8', '~2.8.1', 'v2.9.1', '2.10.x', '>=2.9', '^2.9.0', '2.x', '*', '>=2.5', '^2.5', 'latest'].map(strictOfVersionRange), [false, false, false, true, true, true, true, undefined, undefined, undefined, undefined, undefined]);
  });

  test('clusters are named by the folder that tells them from the one most like them (tyriis/home-ops)', () => {
    const instance = (path: string) => `apiVersion: fluxcd.controlplane.io/v1\nkind: FluxInstance\nmetadata:\n  name: flux\n  namespace: flux-system\nspec:\n  distribution:\n    version: 2.9.4\n  sync:\n    kind: GitRepository\n    url: https://github.com/example/home-ops.git\n    path: ${path}\n`;
    const configMap = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n';
    const files = {
      'devenv/oci/apps/flux-instance.yaml': instance('./devenv/oci/flux'),
      'devenv/oci/flux/settings.yaml': configMap,
      'kubernetes/main/apps/flux-instance.yaml': instance('./kubernetes/main/flux'),
      'kubernetes/main/flux/settings.yaml': configMap,
      'kubernetes/utility/apps/flux-instance.yaml': instance('./kubernetes/utility/flux'),
      'kubernetes/utility/flux/settings.yaml': configMap,
    };
    assert.deepEqual(describeClusters(new Engine(new MemoryHost(files))).clusters.map((c) => c.name), ['devenv', 'main', 'utility']);
  });

  test('strict mode from the Flux a cluster installs from its releases at a tag (toboshii/home-ops, truxnell/home-cluster)', () => {
    const files = {
      'cluster/flux/flux-system/flux-cluster.yaml': 'apiVersion: source.toolkit.fluxcd.io/v1\nkind: GitRepository\nmetadata:\n  name: flux-cluster\n  namespace: flux-system\nspec:\n  url: https://github.com/example/home-ops\n---\napiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: flux-cluster\n  namespace: flux-system\nspec:\n  path: ./cluster/flux\n  sourceRef:\n    kind: GitRepository\n    name: flux-cluster\n',
      'cluster/flux/flux-system/flux-installation.yaml': 'apiVersion: source.toolkit.fluxcd.io/v1beta2\nkind: GitRepository\nmetadata:\n  name: flux-installation\n  namespace: flux-system\nspec:\n  ref:\n    tag: "v0.31.4"\n  url: https://github.com/fluxcd/flux2\n---\napiVersion: kustomize.toolkit.fluxcd.io/v1beta2\nkind: Kustomization\nmetadata:\n  name: flux-installation\n  namespace: flux-system\nspec:\n  path: ./manifests/install\n  sourceRef:\n    kind: GitRepository\n    name: flux-installation\n',
      'cluster/flux/apps.yaml': 'apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: apps\n  namespace: flux-system\nspec:\n  path: ./cluster/apps\n  sourceRef:\n    kind: GitRepository\n    name: flux-cluster\n  postBuild:\n    substitute:\n      DOMAIN: example.org\n',
      'cluster/apps/config.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  host: ${DOMAIN}\n  extra: ${EXTRA_DOMAIN}\n',
    };
    const [cluster] = describeClusters(new Engine(new MemoryHost(files))).clusters;
    assert.deepEqual([cluster.strict, cluster.strictReason, cluster.fluxVersion], [false, 'Flux v0.31.4 (installed from GitRepository https://github.com/fluxcd/flux2, cluster/flux/flux-system/flux-installation.yaml) does not substitute strictly by default', 'v0.31.4']);
    assert.deepEqual(findingsOf(files).filter((f) => f.includes('UNDEFINED-VAR')), ['cluster/apps/config.yaml:7:12-24 💡 warning[UNDEFINED-VAR]: `EXTRA_DOMAIN` is not defined: renders empty in flux/apps.']);
    assert.equal(strictFromInstaller({ kind: 'OCIRepository', url: 'oci://ghcr.io/fluxcd/flux-manifests', tag: 'v2.9.0', file: 'f.yaml', range: { start: 0, end: 1 } })?.strict, true);
    assert.equal(strictFromInstaller({ kind: 'GitRepository', url: 'https://github.com/example/flux2', tag: 'v0.31.4', file: 'f.yaml', range: { start: 0, end: 1 } }), undefined);
  });

  test('a Kustomization on another source is listed as such, never walks this repository and never starts a cluster', () => {
    const { engine } = shape('flux-instance-helmrelease');
    const report = describeClusters(engine);
    assert.deepEqual(
      report.external.map((e) => [e.kustomization, e.source]),
      [['flux-system/crds-metallb', 'GitRepository/flux-system/metallb-source']],
    );
    assert.equal(engine.fluxGraph().contextsOf('kubernetes/apps/base/echo/ingress.yaml').length, 2);
  });

  test('FluxInstance objects syncing an OCI artifact: the artifact is this repository, Flux manifests from another one are not', () => {
    const { engine } = shape('flux-instance-oci');
    const report = describeClusters(engine);
    assert.deepEqual(report.clusters.map((c) => [c.name, c.found]), [
      ['prod-eu', 'FluxInstance'],
      ['staging', 'FluxInstance'],
    ]);
    assert.deepEqual(report.clusters.find((c) => c.name === 'staging')!.external.map((e) => e.kustomization), ['flux-system/flux']);
    assert.deepEqual([valueIn(engine, 'tenants/apps.yaml', 'staging', 'ENVIRONMENT'), valueIn(engine, 'tenants/apps.yaml', 'prod-eu', 'ENVIRONMENT')], ['staging', 'production']);
  });

  test('a bootstrap folder applied by hand starts the cluster although its url names another repository; archived Kustomizations apply nothing', () => {
    const { engine } = shape('self-applied-folder');
    const report = describeClusters(engine);
    assert.deepEqual(report.clusters.map((c) => [c.name, c.found, c.root.path]), [['main', 'self-applied Kustomization', './kubernetes/main/flux']]);
    assert.deepEqual(report.unapplied.map((u) => u.kustomization), ['flux-system/old-app']);
    assert.deepEqual(engine.fluxGraph().contextsOf('.archive/old-app/app/configmap.yaml'), []);
  });

  test('patches beside gotk-sync.yaml give flux-system its postBuild too: `${CLUSTER}` in a child path resolves per cluster', () => {
    const { engine } = shape('root-patches-path-vars');
    const graph = engine.fluxGraph();
    assert.deepEqual(graph.problems, []);
    assert.deepEqual(graph.contextsOf('apps/dev/configmap.yaml').map((c) => `${c.cluster.name}/${c.instance.kustomization.name}`), ['dev/apps']);
    assert.deepEqual(graph.contextsOf('apps/prod/configmap.yaml').map((c) => `${c.cluster.name}/${c.instance.kustomization.name}`), ['prod/apps']);
  });

  test('open variable sets: each source that is not visible is named, with why', () => {
    const { engine } = shape('open-variable-sets');
    const home = describeClusters(engine).clusters[0];
    assert.deepEqual(
      home.variableSources.map((v) => [v.kind, v.name, v.at ? `${v.at.file}:${v.at.line}` : undefined, v.unseen]),
      [
        ['ConfigMap', 'cluster-settings', 'clusters/home/settings.yaml:1', undefined],
        ['Secret', 'cluster-secrets', undefined, 'not applied from the repository (made by hand, Terraform or a bootstrap script?)'],
        ['Secret', 'vault-env', 'clusters/home/vault-env.yaml:2', 'its keys come from outside the repository (dataFrom or a template)'],
      ],
    );
  });

  test('a file no kustomization.yaml lists is not applied: no cluster of its own, no findings in what it would render', () => {
    const fixture = loadCase(path.join(fixturesDir, 'rules', 'NOT-APPLIED', 'commented-out'));
    const engine = new Engine(new MemoryHost(fixture.files));
    const report = describeClusters(engine);
    assert.deepEqual(report.clusters.map((c) => c.name), ['home']);
    assert.deepEqual(report.unlisted, ['apps/radio.yaml']);
    assert.deepEqual(findingsOf(fixture.files), []);
  });

  test('.render-lens.yaml declares a cluster root, a source that is this repository, and variables from outside it', () => {
    const { files } = shape('open-variable-sets');
    const config = [
      'clusters:',
      '  home:',
      '    externalVariables: [API_TOKEN]',
      '  lab:',
      '    path: ./lab',
      '    variables:',
      '      LAB_DOMAIN: lab.example.org',
      'sources:',
      '  - kind: GitRepository',
      '    name: lab-repo',
      '',
    ].join('\n');
    const lab = {
      'lab/apps.yaml': 'apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: lab-apps\n  namespace: flux-system\nspec:\n  path: ./lab-apps\n  sourceRef:\n    kind: GitRepository\n    name: lab-repo\n  postBuild:\n    substitute:\n      X: "1"\n',
      'lab-apps/app.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: lab\n  namespace: default\ndata:\n  host: ${LAB_DOMAIN}\n',
    };
    const engine = new Engine(new MemoryHost({ ...files, ...lab, '.render-lens.yaml': config }));
    const report = describeClusters(engine);
    assert.deepEqual(report.clusters.map((c) => [c.name, c.found]).sort(), [
      ['home', 'flux bootstrap'],
      ['lab', 'declared in .render-lens.yaml'],
    ]);
    assert.equal(valueIn(engine, 'lab-apps/app.yaml', 'lab', 'LAB_DOMAIN'), 'lab.example.org');
    // API_TOKEN is declared for home: closed/app.yaml no longer fails, and apps/app.yaml is no longer unknown.
    const findings = engine.analyzeWorkspace(['']).findings.filter((f) => f.rule === 'UNDEFINED-VAR' && f.message.includes('API_TOKEN'));
    assert.deepEqual(findings, []);
  });

  test('a postBuild injector webhook installed in the cluster opens every variable set, postBuild or not', () => {
    const { files } = shape('open-variable-sets');
    const webhook = 'apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: kustomize-mutating-webhook\n  namespace: flux-system\nspec:\n  chart:\n    spec:\n      chart: kustomize-mutating-webhook\n';
    const withWebhook = { ...files, 'clusters/home/webhook.yaml': webhook };
    const engine = new Engine(new MemoryHost(withWebhook));
    const closed = engine.analyzeWorkspace(['closed']).findings.map((f) => [f.rule, f.severity, f.message]);
    assert.deepEqual(closed, [
      ['UNDEFINED-VAR', 'information', '`API_TOKEN` is not in any source Render Lens can read for home/closed: it may come from the variables the HelmRelease kustomize-mutating-webhook (clusters/home/webhook.yaml) injects on admission.'],
    ]);
  });

  test('a ClusterExternalSecret makes its Secret in the namespaces it selects, with the keys it names', () => {
    const { files } = shape('open-variable-sets');
    const clusterSecret = 'apiVersion: external-secrets.io/v1\nkind: ClusterExternalSecret\nmetadata:\n  name: cluster-secrets\nspec:\n  namespaceSelectors:\n    - {}\n  externalSecretSpec:\n    target:\n      name: cluster-secrets\n    data:\n      - secretKey: API_TOKEN\n        remoteRef:\n          key: home/api\n';
    const engine = new Engine(new MemoryHost({ ...files, 'clusters/home/cluster-secrets.yaml': clusterSecret }));
    const apps = engine.fluxGraph().contextsOf('apps/app.yaml')[0].instance;
    assert.deepEqual([apps.variables.vars.has('API_TOKEN'), apps.variables.vars.get('API_TOKEN')?.value, apps.variables.opaque], [true, undefined, false]);
  });

  test('the inventory: per Kustomization, its files, variables defined and used, escapes and findings by rule', () => {
    const { engine } = shape('open-variable-sets');
    const inventory = describeInventory(engine, engine.analyzeWorkspace(['']).findings);
    const closed = inventory.find((k) => k.kustomization === 'flux-system/closed')!;
    assert.deepEqual(
      [closed.cluster, closed.files, closed.defined, closed.used, closed.undefinedUsed, closed.escapes, closed.hazards],
      ['home', ['closed/app.yaml'], ['DOMAIN'], ['API_TOKEN', 'DOMAIN'], ['API_TOKEN'], 0, { 'UNDEFINED-VAR': 1 }],
    );
    const apps = inventory.find((k) => k.kustomization === 'flux-system/apps')!;
    assert.deepEqual([apps.undefinedUsed, apps.hazards], [['API_TOKEN'], { 'UNDEFINED-VAR': 1 }]);
    const tenants = describeInventory(shape('flux-instance-oci').engine, []).find((k) => k.cluster === 'staging' && k.kustomization === 'flux-system/tenants')!;
    assert.deepEqual([tenants.used, tenants.escapes], [['CLUSTER_NAME', 'ENVIRONMENT'], 1]);
  });

  test('exclude takes files out of the model: an excluded archive starts no cluster and is not listed', () => {
    const { files } = shape('self-applied-folder');
    const engine = new Engine(new MemoryHost({ ...files, '.render-lens.yaml': 'exclude: [".archive/**"]\n' }));
    assert.deepEqual(describeClusters(engine).unapplied, []);
  });
});
