/**
 * The Flux tree: for any file, every render context it appears in, with the variables
 * (values and provenance), strict mode and strategy of each. Each suite loads one mini
 * repository from test-fixtures/flux/<case>/ and checks what a user would look at.
 */
import * as assert from 'assert/strict';
import { FluxGraph } from '../core/flux/graph';
import { MemoryHost } from '../core/host';
import { FileIndex } from '../core/workspace/file-index';
import { contextLabels, instanceOf, loadFluxFixture, problemsOf, summarize, variableOf } from './support/flux-fixtures';

suite('flux graph: multi-cluster repo (clusters/<name> + apps/{base,staging,production})', () => {
  const fixture = loadFluxFixture('multi-cluster');
  const { graph } = fixture;

  test('each clusters/<name>/flux-system is the root of one cluster', () => {
    assert.deepEqual(
      graph.clusters.map((c) => [c.name, c.roots.map((r) => `${r.object.file}#${r.name}`)]).sort(),
      [
        ['dev', ['clusters/dev/flux-system/gotk-sync.yaml#flux-system']],
        ['production', ['clusters/production/flux-system/gotk-sync.yaml#flux-system']],
        ['staging', ['clusters/staging/flux-system/gotk-sync.yaml#flux-system']],
      ],
    );
  });

  test('strict mode comes from the Flux version header, and a feature gate overrides it', () => {
    const strict = Object.fromEntries(graph.clusters.map((c) => [c.name, { strict: c.strictMode.strict, version: c.fluxVersion, file: c.strictMode.file }]));
    assert.deepEqual(strict, {
      staging: { strict: false, version: 'v2.8.3', file: 'clusters/staging/flux-system/gotk-components.yaml' },
      production: { strict: true, version: 'v2.9.1', file: 'clusters/production/flux-system/gotk-components.yaml' },
      dev: { strict: false, version: 'v2.9.0', file: 'clusters/dev/flux-system/kustomization.yaml' },
    });
    const dev = graph.clusters.find((c) => c.name === 'dev')!.strictMode;
    assert.equal(fixture.textAt(dev.file!, dev.range!), 'StrictPostBuildSubstitutions=false');
  });

  test('a base file shared by the overlays is rendered once per cluster, with that cluster\'s strictness', () => {
    assert.deepEqual(summarize(graph, 'apps/base/podinfo/release.yaml'), [
      { cluster: 'dev', kustomization: 'flux-system/apps', role: 'resource', substitutes: true, strict: false, strategy: 'WithVariables' },
      { cluster: 'production', kustomization: 'flux-system/apps', role: 'resource', substitutes: true, strict: true, strategy: 'WithVariables' },
      { cluster: 'staging', kustomization: 'flux-system/apps', role: 'resource', substitutes: true, strict: false, strategy: 'WithVariables' },
    ]);
    assert.deepEqual(summarize(graph, 'apps/production/podinfo-values.yaml').map((c) => [c.cluster, c.role]), [['production', 'patch']]);
  });

  test('a variable defined for one cluster is undefined in the others', () => {
    assert.deepEqual(variableOf(fixture, 'production', 'apps', 'alert_channel'), {
      value: '#podinfo-alerts',
      layers: [{ file: 'clusters/production/cluster-vars.yaml', text: 'alert_channel', source: 'ConfigMap', via: 'data', value: '#podinfo-alerts' }],
    });
    assert.equal(variableOf(fixture, 'staging', 'apps', 'alert_channel'), undefined);
    assert.equal(variableOf(fixture, 'dev', 'apps', 'alert_channel'), undefined);
    assert.equal(variableOf(fixture, 'dev', 'apps', 'ingress_host')?.value, 'podinfo.dev.example.com');
  });

  test('Kustomizations without postBuild do not substitute; the bootstrap files belong to flux-system', () => {
    assert.deepEqual(summarize(graph, 'infrastructure/controllers/ingress-nginx.yaml').map((c) => [c.cluster, c.kustomization, c.substitutes, c.strategy]), [
      ['dev', 'flux-system/infra-controllers', false, undefined],
      ['production', 'flux-system/infra-controllers', false, undefined],
      ['staging', 'flux-system/infra-controllers', false, undefined],
    ]);
    assert.deepEqual(contextLabels(graph, 'clusters/staging/apps.yaml'), ['staging/flux-system/flux-system']);
    assert.deepEqual(contextLabels(graph, 'clusters/staging/flux-system/gotk-components.yaml'), ['staging/flux-system/flux-system']);
  });

  test('a clean repository has no problems', () => {
    assert.deepEqual(problemsOf(fixture), []);
  });
});

suite('flux graph: overlay patches on the variable ConfigMap', () => {
  const fixture = loadFluxFixture('overlay-patches');

  test('a strategic-merge patch file wins over the base value, which stays as the overridden layer', () => {
    assert.deepEqual(variableOf(fixture, 'production', 'apps', 'LOG_LEVEL'), {
      value: 'warn',
      layers: [
        { file: 'settings/production/log-level.yaml', text: 'LOG_LEVEL', source: 'ConfigMap', via: 'patch', value: 'warn' },
        { file: 'settings/base/app-settings.yaml', text: 'LOG_LEVEL', source: 'ConfigMap', via: 'data', value: 'info' },
      ],
    });
  });

  test('a JSON 6902 op on /data/KEY wins, and its provenance is the op inside the inline patch', () => {
    const replicas = variableOf(fixture, 'production', 'apps', 'REPLICAS')!;
    assert.equal(replicas.value, '5');
    assert.deepEqual(
      replicas.layers.map((l) => [l.file, l.text.replace(/\s+/g, ' ')]),
      [
        ['settings/production/kustomization.yaml', 'op: replace path: /data/REPLICAS value: "5"'],
        ['settings/base/app-settings.yaml', 'REPLICAS'],
      ],
    );
  });

  test("the Flux Kustomization's own spec.patches change the ConfigMaps it renders, last", () => {
    assert.deepEqual(
      variableOf(fixture, 'production', 'apps', 'DOMAIN')?.layers.map((l) => [l.file, l.text, l.value]),
      [
        ['clusters/production/settings.yaml', 'DOMAIN', 'prod.example.com'],
        ['settings/base/app-settings.yaml', 'DOMAIN', 'example.com'],
      ],
    );
  });

  test('label-selector targets apply only to the objects they select', () => {
    assert.deepEqual(variableOf(fixture, 'production', 'apps', 'FEATURE_X')?.layers.map((l) => l.value), ['off']);
    assert.deepEqual(variableOf(fixture, 'production', 'apps', 'TIER')?.layers.map((l) => [l.file, l.value]), [['settings/production/kustomization.yaml', 'config']]);
  });

  test('ConfigMaps land where their kustomization (namespace, namePrefix) or targetNamespace puts them', () => {
    const apps = instanceOf(fixture.graph, 'production', 'apps');
    assert.deepEqual(
      apps.variables.sources.map((s) => [s.ref.name, s.object?.namespace, s.object?.file]),
      [
        ['app-settings', 'flux-system', 'settings/base/app-settings.yaml'],
        ['team-settings', 'flux-system', 'settings/team/team-settings.yaml'],
        // found under the name namePrefix gives it
        ['legacy-settings', 'flux-system', 'settings/legacy/settings.yaml'],
      ],
    );
    assert.deepEqual([...apps.variables.vars.keys()].sort(), ['DOMAIN', 'FEATURE_X', 'LEGACY_MODE', 'LOG_LEVEL', 'REPLICAS', 'TEAM', 'TIER']);
    assert.deepEqual(problemsOf(fixture), []);
  });
});

suite('flux graph: kustomize components and Flux spec.components', () => {
  const fixture = loadFluxFixture('components');
  const { graph } = fixture;

  test('files of a Flux spec.components entry are rendered by that Kustomization only', () => {
    assert.deepEqual(summarize(graph, 'components/monitoring/servicemonitor.yaml'), [
      { cluster: 'lab', kustomization: 'flux-system/podinfo', role: 'resource', substitutes: true, strict: true, strategy: 'WithVariables' },
    ]);
  });

  test('a component is rendered wherever it is included: by kustomize components: and by Flux on a plain directory', () => {
    assert.deepEqual(contextLabels(graph, 'components/ha/pdb.yaml'), ['lab/flux-system/podinfo', 'lab/flux-system/redis']);
    assert.deepEqual(contextLabels(graph, 'apps/redis/statefulset.yaml'), ['lab/flux-system/redis']);
  });

  test("a component's patches change the including kustomization's ConfigMaps", () => {
    for (const [kustomization, base] of [
      ['podinfo', 'apps/podinfo/vars.yaml'],
      ['redis', 'apps/redis/vars.yaml'],
    ]) {
      const replicas = variableOf(fixture, 'lab', kustomization, 'REPLICAS')!;
      assert.equal(replicas.value, '3', kustomization);
      assert.deepEqual(
        replicas.layers.map((l) => [l.file, l.text.replace(/\s+/g, ' ')]),
        [
          ['components/ha/kustomization.yaml', 'op: replace path: /data/REPLICAS value: "3"'],
          [base, 'REPLICAS'],
        ],
        kustomization,
      );
    }
  });

  test('inline substitute sits on top of substituteFrom', () => {
    assert.deepEqual(variableOf(fixture, 'lab', 'podinfo', 'cluster'), {
      value: 'lab',
      layers: [{ file: 'clusters/lab/apps.yaml', text: 'cluster', source: 'inline', via: 'substitute', value: 'lab' }],
    });
    assert.equal(problemsOf(fixture).length, 0);
  });
});

suite('flux graph: configMapGenerator files/envs, generatorOptions opt-out, hashed names', () => {
  const fixture = loadFluxFixture('generators');
  const { graph } = fixture;
  const optOut = (file: string) =>
    graph.contextsOf(file).map((c) => ({ role: c.rendered.role, optOut: c.rendered.optOut && [c.rendered.optOut.file, fixture.textAt(c.rendered.optOut.file, c.rendered.optOut.range)] }));

  test('generator inputs are rendered (and substituted) as generator files and env files', () => {
    assert.deepEqual(summarize(graph, 'apps/loki/loki.env'), [
      { cluster: 'prod', kustomization: 'flux-system/monitoring', role: 'generator-env', substitutes: true, strict: true, strategy: 'WithVariables' },
    ]);
    assert.deepEqual(optOut('apps/loki/rules.yaml'), [{ role: 'generator-file', optOut: undefined }]);
  });

  test('generatorOptions.annotations and a generator\'s own options carry the substitute opt-out to their files', () => {
    const disabled = 'kustomize.toolkit.fluxcd.io/substitute: disabled';
    assert.deepEqual(optOut('apps/grafana/dashboards/nodes.json'), [{ role: 'generator-file', optOut: ['apps/grafana/kustomization.yaml', disabled] }]);
    assert.deepEqual(optOut('apps/grafana/dashboards/overview.json'), [{ role: 'generator-file', optOut: ['apps/grafana/kustomization.yaml', disabled] }]);
    assert.deepEqual(optOut('apps/loki/alerts.yaml'), [{ role: 'generator-file', optOut: ['apps/loki/kustomization.yaml', disabled] }]);
    assert.deepEqual(optOut('apps/grafana/helmrelease.yaml'), [{ role: 'resource', optOut: undefined }]);
  });

  test('variables come from generated ConfigMaps: env lines, literals (quotes stripped), behavior: merge', () => {
    assert.deepEqual(variableOf(fixture, 'prod', 'monitoring', 'BASE_DOMAIN'), {
      value: 'prod.example.com',
      layers: [
        { file: 'settings/kustomization.yaml', text: 'BASE_DOMAIN=prod.example.com', source: 'ConfigMap', via: 'generator', value: 'prod.example.com' },
        { file: 'settings/base/cluster.env', text: 'BASE_DOMAIN=example.com', source: 'ConfigMap', via: 'generator', value: 'example.com' },
      ],
    });
    assert.equal(variableOf(fixture, 'prod', 'monitoring', 'CLUSTER_NAME')?.value, 'prod');
    assert.deepEqual(variableOf(fixture, 'prod', 'monitoring', 'REGION'), {
      value: 'eu-west-1',
      layers: [{ file: 'settings/kustomization.yaml', text: 'REGION="eu-west-1"', source: 'ConfigMap', via: 'generator', value: 'eu-west-1' }],
    });
    assert.equal(variableOf(fixture, 'prod', 'monitoring', 'TEAM')?.value, 'observability');
  });

  test('a generated ConfigMap with a hash suffix is not found by its plain name, and the graph says why', () => {
    const sources = instanceOf(graph, 'prod', 'monitoring').variables.sources;
    assert.deepEqual(
      sources.map((s) => [s.ref.name, s.object?.file]),
      [
        ['cluster-settings', 'settings/base/kustomization.yaml'],
        ['team-settings', 'settings/kustomization.yaml'],
        ['alerting-settings', undefined],
      ],
    );
    assert.equal(variableOf(fixture, 'prod', 'monitoring', 'ALERT_EMAIL'), undefined);
    assert.match(sources[2].note ?? '', /content-hash suffix.*disableNameSuffixHash: true/);
    assert.deepEqual(
      problemsOf(fixture).map((p) => ({ ...p, text: p.text.replace(/\s+/g, ' ') })),
      [
        {
          kind: 'hashed-name',
          file: 'clusters/prod/apps.yaml',
          text: 'kind: ConfigMap name: alerting-settings',
          message: 'ConfigMap alerting-settings is generated with a content-hash suffix (settings/kustomization.yaml); Flux looks up the exact name, so set disableNameSuffixHash: true',
        },
      ],
    );
  });

  test('a files entry makes the whole file the value, keyed by its base name or the given key', () => {
    const dashboards = graph.clusters[0].objects.get('ConfigMap', 'monitoring', 'grafana-dashboards');
    assert.ok(dashboards, 'grafana-dashboards is generated into the monitoring namespace');
    assert.deepEqual([...dashboards.data.keys()], ['nodes.json', 'cluster-overview.json']);
    const overview = dashboards.data.get('cluster-overview.json')![0];
    assert.equal(overview.file, 'apps/grafana/dashboards/overview.json');
    assert.equal(fixture.textAt(overview.file, overview.range), fixture.files['apps/grafana/dashboards/overview.json']);
    assert.deepEqual([dashboards.labels.get('grafana_dashboard'), dashboards.hashed], ['1', false]);
  });
});

suite('flux graph: cycles are reported where they are written and cut', () => {
  const fixture = loadFluxFixture('cycles');
  const { graph } = fixture;

  test('a → b → a and a kustomization listing itself', () => {
    assert.deepEqual(problemsOf(fixture), [
      { kind: 'cycle', file: 'apps/backend/kustomization.yaml', text: '../frontend', message: 'kustomization cycle: apps/frontend → apps/backend → apps/frontend' },
      { kind: 'cycle', file: 'apps/self/kustomization.yaml', text: './', message: 'kustomization cycle: apps/self → apps/self' },
    ]);
  });

  test('the files before the cut are still rendered', () => {
    assert.deepEqual(contextLabels(graph, 'apps/frontend/deployment.yaml'), ['lab/flux-system/frontend']);
    assert.deepEqual(contextLabels(graph, 'apps/backend/service.yaml'), ['lab/flux-system/frontend']);
    assert.deepEqual(contextLabels(graph, 'apps/self/configmap.yaml'), ['lab/flux-system/self']);
  });

  test('Flux Kustomizations that only apply each other, beside a bootstrap, are not applied: no cluster of their own', () => {
    assert.deepEqual(graph.clusters.map((c) => c.name), ['lab']);
    assert.deepEqual(graph.unapplied.map((k) => k.name).sort(), ['loop-one', 'loop-two']);
    assert.deepEqual(contextLabels(graph, 'loop/one/ks.yaml'), []);
    assert.deepEqual(contextLabels(graph, 'loop/two/ks.yaml'), []);
  });
});

suite('flux graph: remote resources, paths leaving the repository, missing paths', () => {
  const fixture = loadFluxFixture('remote-and-outside');
  const { graph } = fixture;

  test('each is reported at the reference that makes it, with what happens', () => {
    assert.deepEqual(problemsOf(fixture), [
      { kind: 'outside', file: 'apps/kustomization.yaml', text: '../../outside', message: '../../outside points outside the workspace; kustomize refuses to read it and it is not followed' },
      {
        kind: 'remote',
        file: 'apps/kustomization.yaml',
        text: 'https://raw.githubusercontent.com/example/platform/v1.2.0/crds/widgets.yaml',
        message: 'https://raw.githubusercontent.com/example/platform/v1.2.0/crds/widgets.yaml is remote: it is not fetched, so what it renders is not checked',
      },
      {
        kind: 'remote',
        file: 'apps/kustomization.yaml',
        text: 'github.com/example/platform//deploy/operator?ref=v1.2.0',
        message: 'github.com/example/platform//deploy/operator?ref=v1.2.0 is remote: it is not fetched, so what it renders is not checked',
      },
      { kind: 'missing', file: 'apps/web/kustomization.yaml', text: '../missing-dir', message: '../missing-dir does not exist in the workspace' },
      { kind: 'missing', file: 'apps/web/kustomization.yaml', text: 'replicas-patch.yaml', message: 'patch replicas-patch.yaml does not exist' },
      { kind: 'outside', file: 'clusters/lab/apps.yaml', text: '../../outside', message: 'spec.path ../../outside climbs above the source root; Flux reads it as ./outside' },
      { kind: 'missing', file: 'clusters/lab/apps.yaml', text: './apps/wbe', message: './apps/wbe does not exist in the workspace' },
      { kind: 'missing', file: 'clusters/lab/apps.yaml', text: './apps/web/deployment.yaml', message: 'spec.path ./apps/web/deployment.yaml is a file; Flux builds a directory' },
    ]);
  });

  test('what is local is still rendered; a clamped spec.path renders the directory Flux reads', () => {
    assert.deepEqual(contextLabels(graph, 'apps/web/deployment.yaml'), ['lab/flux-system/apps']);
    assert.deepEqual(contextLabels(graph, 'outside/config.yaml'), ['lab/flux-system/escape']);
    assert.equal(instanceOf(graph, 'lab', 'typo').tree.files.size, 0);
  });
});

suite('flux graph: spec.path in every form', () => {
  const fixture = loadFluxFixture('root-path');
  const { graph } = fixture;

  test('./, "", no path, bare and trailing-slash paths all render app/', () => {
    assert.deepEqual(contextLabels(graph, 'app/deployment.yaml'), [
      'flux/flux-system/absent',
      'flux/flux-system/bare',
      'flux/flux-system/dot-slash',
      'flux/flux-system/empty',
      'flux/flux-system/trailing-slash',
    ]);
    const dirs = Object.fromEntries(graph.clusters[0].instances.map((i) => [i.kustomization.name, i.dir]));
    assert.deepEqual(dirs, { 'dot-slash': '', empty: '', absent: '', bare: 'app', 'trailing-slash': 'app', windows: '.\\app' });
  });

  test('the root kustomization decides what the root renders', () => {
    assert.deepEqual(contextLabels(graph, 'kustomization.yaml'), []);
    assert.deepEqual(contextLabels(graph, 'docs/example.yaml'), []);
    assert.deepEqual(contextLabels(graph, 'flux/kustomizations.yaml'), []);
  });

  test('a backslash path is missing, and the message says why', () => {
    assert.deepEqual(problemsOf(fixture), [
      { kind: 'missing', file: 'flux/kustomizations.yaml', text: '.\\app', message: '.\\app does not exist in the workspace (`\\` is not a path separator for Flux; use `/`)' },
    ]);
    assert.deepEqual(
      graph.clusters.map((c) => [c.name, c.roots.length]),
      [['flux', 6]],
    );
  });
});

suite('flux graph: a parent whose spec.patches give the children their postBuild (home-ops layout)', () => {
  const fixture = loadFluxFixture('parent-patches');
  const { graph } = fixture;
  const sources = (kustomization: string) =>
    instanceOf(graph, 'home', kustomization).variables.sources.map((s) => ({
      ref: `${s.ref.kind}/${s.ref.name}${s.ref.optional ? ' (optional)' : ''}`,
      writtenIn: s.ref.file,
      found: s.object ? `${s.object.namespace}/${s.object.file}` : undefined,
    }));

  test('the app Kustomizations are children of cluster-apps, in the namespace their kustomization sets', () => {
    const home = graph.clusters.find((c) => c.name === 'home')!;
    assert.deepEqual(
      home.instances.map((i) => [i.kustomization.name, i.namespace, i.parent?.kustomization.name]),
      [
        ['flux-system', 'flux-system', undefined],
        ['cluster-apps', 'flux-system', 'flux-system'],
        ['echo', 'default', 'cluster-apps'],
        ['whoami', 'default', 'cluster-apps'],
        ['legacy', 'network', 'cluster-apps'],
        ['proxy', 'network', 'cluster-apps'],
      ],
    );
    assert.deepEqual(summarize(graph, 'kubernetes/apps/default/echo/app/helmrelease.yaml'), [
      { cluster: 'home', kustomization: 'default/echo', role: 'resource', substitutes: true, strict: true, strategy: 'WithVariables' },
    ]);
    assert.deepEqual(contextLabels(graph, 'kubernetes/apps/default/echo/ks.yaml'), ['home/flux-system/cluster-apps']);
  });

  test('a strategic-merge patch with a label-selector target gives substituteFrom, written in the parent', () => {
    assert.deepEqual(sources('echo'), [
      { ref: 'ConfigMap/cluster-settings', writtenIn: 'clusters/home/cluster-apps.yaml', found: 'default/kubernetes/components/common/cluster-settings.yaml' },
      { ref: 'Secret/cluster-secrets', writtenIn: 'clusters/home/cluster-apps.yaml', found: 'default/kubernetes/components/common/cluster-secrets.sops.yaml' },
    ]);
    const ref = instanceOf(graph, 'home', 'echo').variables.sources[0].ref;
    assert.equal(fixture.textAt(ref.file, ref.range).replace(/\s+/g, ' '), 'kind: ConfigMap name: cluster-settings');
  });

  test('a JSON 6902 add to /spec/postBuild/substituteFrom/- appends an optional source', () => {
    assert.deepEqual(sources('whoami'), [
      { ref: 'ConfigMap/cluster-settings', writtenIn: 'clusters/home/cluster-apps.yaml', found: 'default/kubernetes/components/common/cluster-settings.yaml' },
      { ref: 'Secret/cluster-secrets', writtenIn: 'clusters/home/cluster-apps.yaml', found: 'default/kubernetes/components/common/cluster-secrets.sops.yaml' },
      { ref: 'ConfigMap/extra-settings (optional)', writtenIn: 'clusters/home/cluster-apps.yaml', found: undefined },
    ]);
  });

  test('variables: per-namespace copies, SOPS values defined but unknown, inline values substituted by the parent', () => {
    assert.deepEqual(variableOf(fixture, 'home', 'echo', 'TIMEZONE'), {
      value: 'Europe/Paris',
      layers: [{ file: 'kubernetes/components/common/cluster-settings.yaml', text: 'TIMEZONE', source: 'ConfigMap', via: 'data', value: 'Europe/Paris' }],
    });
    assert.deepEqual(variableOf(fixture, 'home', 'echo', 'SECRET_DOMAIN'), {
      value: undefined,
      layers: [{ file: 'kubernetes/components/common/cluster-secrets.sops.yaml', text: 'SECRET_DOMAIN', source: 'Secret', via: 'stringData', value: undefined }],
    });
    const secret = instanceOf(graph, 'home', 'echo').variables.vars.get('SECRET_DOMAIN')!.layers[0];
    assert.deepEqual([secret.secret, secret.encrypted], [true, true]);
    // An inline value the parent's patch adds is written in the parent's file.
    assert.deepEqual(variableOf(fixture, 'home', 'echo', 'CLUSTER_NAME'), {
      value: 'home',
      layers: [{ file: 'clusters/home/cluster-apps.yaml', text: 'CLUSTER_NAME', source: 'inline', via: 'substitute', value: 'home' }],
    });
    assert.deepEqual(variableOf(fixture, 'home', 'echo', 'HOSTNAME'), {
      value: 'echo.home.example.com',
      layers: [{ file: 'kubernetes/apps/default/echo/ks.yaml', text: 'HOSTNAME', source: 'inline', via: 'substitute', value: 'echo.home.example.com' }],
    });
  });

  test('an op that needs a list the child does not have is a build failure of the parent', () => {
    assert.deepEqual(sources('legacy'), [{ ref: 'ConfigMap/extra-settings (optional)', writtenIn: 'clusters/home/cluster-apps.yaml', found: undefined }]);
    assert.deepEqual(
      problemsOf(fixture).map((p) => ({ ...p, text: p.text.replace(/\s+/g, ' ') })),
      [
        {
          kind: 'patch',
          file: 'clusters/home/cluster-apps.yaml',
          text: 'op: add path: /spec/postBuild/substituteFrom/- value: kind: ConfigMap name: extra-settings optional: true',
          message: 'add /spec/postBuild/substituteFrom/- fails on Kustomization legacy: it has no spec.postBuild, so kustomize cannot build the parent',
        },
        {
          kind: 'patch',
          file: 'clusters/home/cluster-apps.yaml',
          text: 'op: add path: /spec/postBuild/substituteFrom/- value: kind: ConfigMap name: extra-settings optional: true',
          message: 'add /spec/postBuild/substituteFrom/- fails on Kustomization proxy: it has no spec.postBuild.substituteFrom list, so kustomize cannot build the parent',
        },
      ],
    );
  });
});

suite('flux graph: spec.path with ${VAR}, resolved with the parent\'s variables', () => {
  const fixture = loadFluxFixture('path-vars');
  const { graph } = fixture;

  test('./apps/${cluster_name}/team-a renders apps/lab/team-a only, whatever the order of the siblings', () => {
    assert.equal(instanceOf(graph, 'lab', 'team-a').dir, 'apps/lab/team-a');
    assert.deepEqual(summarize(graph, 'apps/lab/team-a/deployment.yaml'), [
      { cluster: 'lab', kustomization: 'flux-system/team-a', role: 'resource', substitutes: true, strict: true, strategy: 'WithVariables' },
    ]);
    assert.deepEqual(contextLabels(graph, 'apps/edge/team-a/deployment.yaml'), []);
  });

  test('a child under a ${VAR} path is not mistaken for a root', () => {
    assert.deepEqual(
      graph.clusters.map((c) => [c.name, c.instances.map((i) => i.kustomization.name)]),
      [['lab', ['flux-system', 'tenants', 'cluster-config', 'team-a', 'team-b', 'team-a-db']]],
    );
    assert.deepEqual(contextLabels(graph, 'apps/lab/team-a/db/statefulset.yaml'), ['lab/flux-system/team-a-db']);
  });

  test('inline substitute values are substituted by the parent too', () => {
    assert.equal(variableOf(fixture, 'lab', 'team-a', 'team_domain')?.value, 'team-a.lab.example.com');
  });

  test('an undefined variable in spec.path fails the parent in strict mode: reported, nothing rendered', () => {
    assert.deepEqual(problemsOf(fixture), [
      {
        kind: 'missing',
        file: 'tenants/team-b.yaml',
        text: './apps/${region}/team-b',
        message: 'spec.path ./apps/${region}/team-b is not resolved: tenants fails to substitute it (variable not set (strict mode): "region")',
      },
    ]);
    assert.deepEqual(contextLabels(graph, 'apps/lab/team-b/deployment.yaml'), []);
    assert.equal(instanceOf(graph, 'lab', 'team-b').dir, undefined);
  });
});

suite('flux graph: variable sources exactly as kustomize-controller gathers them', () => {
  const fixture = loadFluxFixture('variable-sources');
  const { graph } = fixture;
  const web = (name: string) => variableOf(fixture, 'prod', 'web', name);

  test('inline substitute wins over substituteFrom, which stays as the overridden layer', () => {
    assert.deepEqual(web('REGION'), {
      value: 'eu-central-1',
      layers: [
        { file: 'clusters/prod/apps.yaml', text: 'REGION', source: 'inline', via: 'substitute', value: 'eu-central-1' },
        { file: 'clusters/prod/vars/cluster-settings.yaml', text: 'REGION', source: 'ConfigMap', via: 'data', value: 'eu-west-1' },
      ],
    });
  });

  test('a later substituteFrom entry wins key by key', () => {
    assert.deepEqual(
      web('LOG_LEVEL')?.layers.map((l) => [l.file, l.value]),
      [
        ['clusters/prod/vars/cluster-overrides.yaml', 'debug'],
        ['clusters/prod/vars/cluster-settings.yaml', 'info'],
      ],
    );
    assert.equal(web('LOG_LEVEL')?.value, 'debug');
  });

  test('newlines are removed from values; an empty value is defined', () => {
    assert.equal(web('CA_BUNDLE')?.value, '-----BEGIN CERTIFICATE-----MIIBszCCAVmgAwIBAgIU-----END CERTIFICATE-----');
    assert.equal(web('PROXY')?.value, '');
  });

  test('Secret data is base64-decoded; stringData is merged over data', () => {
    assert.equal(web('DB_USER')?.value, 'app');
    assert.deepEqual(
      web('DB_PORT')?.layers.map((l) => [l.via, l.value]),
      [
        ['stringData', '6432'],
        ['data', '5432'],
      ],
    );
    assert.equal(instanceOf(graph, 'prod', 'web').variables.vars.get('DB_HOST')?.layers[0].secret, true);
  });

  test('SOPS-encrypted and ExternalSecret values are defined with an unknown value', () => {
    const vars = instanceOf(graph, 'prod', 'web').variables.vars;
    const token = vars.get('API_TOKEN')!;
    assert.deepEqual([token.value, token.layers[0].encrypted, token.layers[0].file], [undefined, true, 'clusters/prod/vars/cluster-secrets.sops.yaml']);
    const smtp = vars.get('SMTP_PASSWORD')!;
    assert.deepEqual(
      [smtp.value, smtp.layers[0].via, smtp.layers[0].objectName, fixture.textAt(smtp.layers[0].file, smtp.layers[0].range)],
      [undefined, 'external', 'smtp-credentials', 'SMTP_PASSWORD'],
    );
    // Keys an ExternalSecret names are known: it does not open the set; the two sources that are not in the repository do.
    assert.deepEqual(instanceOf(graph, 'prod', 'web').variables.openBecause, [
      'ConfigMap optional-settings (optional), which prod does not apply from the repository',
      'ConfigMap required-settings, which prod does not apply from the repository',
      'ConfigMap feature-flags, which prod does not apply from the repository',
    ]);
  });

  test('missing sources: optional tolerated, required not, a namespace-less object explained', () => {
    const sources = instanceOf(graph, 'prod', 'web').variables.sources.map((s) => [s.ref.name, s.ref.optional, s.object !== undefined, s.note ?? '']);
    assert.deepEqual(sources, [
      ['cluster-settings', false, true, ''],
      ['cluster-overrides', false, true, ''],
      ['db-credentials', false, true, ''],
      ['cluster-secrets', false, true, ''],
      ['smtp-credentials', false, true, ''],
      ['optional-settings', true, false, ''],
      ['required-settings', false, false, ''],
      ['feature-flags', false, false, 'ConfigMap feature-flags (clusters/prod/vars/feature-flags.yaml) has no namespace, so Flux cannot apply it ("namespace not specified"); it should be in flux-system'],
    ]);
    assert.deepEqual(
      problemsOf(fixture).map((p) => [p.kind, p.file, p.text.replace(/\s+/g, ' ')]),
      [['no-namespace', 'clusters/prod/apps.yaml', 'kind: ConfigMap name: feature-flags']],
    );
  });

  test('a source whose keys are unknowable makes the set opaque, and substitution runs', () => {
    const reports = instanceOf(graph, 'prod', 'reports');
    assert.deepEqual([reports.variables.opaque, reports.variables.vars.size, reports.substitutes], [true, 0, true]);
  });

  test('strategy Always substitutes without variables; zero variables with the default strategy do not', () => {
    assert.deepEqual(summarize(graph, 'apps/jobs/configmap.yaml'), [
      { cluster: 'prod', kustomization: 'flux-system/batch', role: 'resource', substitutes: false, strict: true, strategy: 'WithVariables' },
      { cluster: 'prod', kustomization: 'flux-system/jobs', role: 'resource', substitutes: true, strict: true, strategy: 'Always' },
    ]);
  });
});

suite('flux graph: no bootstrap root, several Kustomizations in one file, older API versions', () => {
  const fixture = loadFluxFixture('no-root');
  const { graph } = fixture;

  test('every Flux Kustomization document is discovered, whatever its version; other kinds are not', () => {
    assert.deepEqual(
      graph.kustomizations.map((k) => [k.name, k.object.apiVersion, k.object.index]),
      [
        ['infrastructure', 'kustomize.toolkit.fluxcd.io/v1', 1],
        ['apps', 'kustomize.toolkit.fluxcd.io/v1beta2', 3],
        ['monitoring', 'kustomize.toolkit.fluxcd.io/v1beta1', 4],
      ],
    );
  });

  test('top-level Kustomizations of one directory become the roots of one cluster', () => {
    assert.deepEqual(
      graph.clusters.map((c) => [c.name, c.roots.map((r) => r.name), c.strictMode.strict, c.fluxVersion]),
      [['deploy', ['infrastructure', 'apps', 'monitoring'], true, undefined]],
    );
    assert.deepEqual(summarize(graph, 'apps/ingress.yaml'), [
      { cluster: 'deploy', kustomization: 'flux-system/apps', role: 'resource', substitutes: true, strict: true, strategy: 'WithVariables' },
    ]);
    assert.deepEqual(contextLabels(graph, 'monitoring/grafana.yaml'), ['deploy/flux-system/monitoring']);
    assert.deepEqual(contextLabels(graph, 'deploy/kustomizations.yaml'), []);
  });

  test('a plain directory renders .yaml and .yml files, except what source-controller leaves out', () => {
    assert.deepEqual(
      [...instanceOf(graph, 'deploy', 'apps').tree.files.keys()],
      ['apps/ingress.yaml', 'apps/service.yml'],
    );
  });

  test('a ConfigMap applied next to the Kustomizations is found although no Kustomization renders it', () => {
    assert.deepEqual(variableOf(fixture, 'deploy', 'apps', 'domain')?.layers.map((l) => [l.file, l.text, l.value]), [['deploy/kustomizations.yaml', 'domain', 'example.org']]);
    assert.equal(variableOf(fixture, 'deploy', 'monitoring', 'domain')?.value, 'monitoring.example.org');
  });

  test('with strict off by setting, a cluster that does not say is not strict', () => {
    const lax = loadFluxFixture('no-root', { strict: false });
    assert.deepEqual(
      lax.graph.clusters.map((c) => [c.strictMode.strict, c.strictMode.reason]),
      [[false, 'not strict (setting)']],
    );
  });
});

suite('flux graph: the file index under edits', () => {
  test('files listed but never read can be changed and deleted; the graph rebuilt from the index follows', () => {
    const fixture = loadFluxFixture('multi-cluster');
    const host = new MemoryHost(fixture.files);
    const index = new FileIndex(host);
    const vars = 'clusters/staging/cluster-vars.yaml';
    assert.equal(index.files().filter((f) => f === vars).length, 1);
    // Changed before it was ever read: still listed once, and the new text is used.
    assert.equal(index.update(vars, fixture.files[vars].replace('ingress_host: podinfo.staging.example.com', 'ingress_host: staging.example.net')), true);
    assert.equal(index.files().filter((f) => f === vars).length, 1);
    const staging = (graph: FluxGraph) => graph.clusters.find((c) => c.name === 'staging')!.instances.find((i) => i.kustomization.name === 'apps')!;
    assert.equal(staging(FluxGraph.build(index, { strict: true })).variables.vars.get('ingress_host')?.value, 'staging.example.net');
    // Deleted: gone from the listing and from the directory tree, so the source is missing.
    assert.equal(index.update(vars, undefined), true);
    assert.equal(index.files().includes(vars), false);
    assert.equal(index.children('clusters/staging').files.includes(vars), false);
    const apps = staging(FluxGraph.build(index, { strict: true }));
    assert.deepEqual(apps.variables.sources.map((s) => [s.ref.name, s.object]), [['cluster-vars', undefined]]);
    // A required source outside the repository must exist for the reconcile to succeed: the set is open, and substitution runs.
    assert.deepEqual([apps.substitutes, apps.variables.opaque], [true, true]);
    // Added back under a new name: listed, and found again.
    assert.equal(index.update('clusters/staging/vars.yaml', fixture.files[vars]), true);
    assert.equal(staging(FluxGraph.build(index, { strict: true })).variables.vars.get('cluster_name')?.value, 'staging');
    assert.equal(index.update('clusters/staging/vars.yaml', fixture.files[vars]), false);
  });

  test('the index says which files appeared or disappeared since a layout, or that it cannot say', () => {
    const index = new FileIndex(new MemoryHost({ 'a.yaml': 'a: 1\n' }));
    index.files();
    const start = index.layoutVersion();
    const changes = (since: number) => {
      const files = index.layoutChangesSince(since);
      return files && [...files].sort();
    };
    assert.deepEqual(changes(start), []);
    index.update('b.yaml', 'b: 1\n');
    index.update('a.yaml', 'a: 2\n');
    index.update('a.yaml', undefined);
    assert.deepEqual(changes(start), ['a.yaml', 'b.yaml']);
    const afterB = index.layoutVersion();
    assert.deepEqual(changes(afterB), []);
    // A new listing may have found anything.
    index.relist();
    assert.equal(index.layoutChangesSince(afterB), undefined);
    const relisted = index.layoutVersion();
    // A burst of new files longer than the index remembers: the start of it is forgotten, the end is not.
    for (let i = 0; i < 1500; i++) index.update(`new/${i}.yaml`, 'x: 1\n');
    assert.equal(index.layoutChangesSince(relisted), undefined);
    const late = index.layoutVersion();
    index.update('late.yaml', 'x: 1\n');
    assert.deepEqual(changes(late), ['late.yaml']);
  });
});
