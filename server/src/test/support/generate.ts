/**
 * Deterministic bench inputs: every size and layout is generated from a seed, so two runs
 * (and two machines) measure the same text. Repositories are written under `.bench/` and
 * reused while their parameters (and this generator's version) are unchanged.
 *
 * - Manifests: multi-document ConfigMaps whose shell scripts mix `${VAR}` Flux variables
 *   with `$VAR`, `$${VAR}` and `$$`, as real repositories do; a few lines carry findings.
 * - Flux repositories: clusters with a bootstrap Kustomization, a variable ConfigMap changed
 *   by a per-cluster overlay patch, and per-app Flux Kustomizations with postBuild over
 *   per-cluster kustomize overlays of app bases.
 * - A repository of Helm charts, and a Fleet repository (fleet.yaml with comparePatches).
 */
import * as fs from 'fs';
import * as path from 'path';

/** Bump when the generated text changes, so stale inputs under .bench/ are rewritten. */
const GENERATOR_VERSION = 3;

export const SEED = 0x5eed_2025;

/** mulberry32: small, fast and the same everywhere. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;

function picker(next: Random) {
  return <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
}

/** Variables every generated cluster defines (cluster-vars, its overlay patch, inline substitute). */
export const CLUSTER_VARS = ['cluster_name', 'region', 'domain', 'replicas', 'log_level', 'image_tag', 'app_name'];
const SHELL_VARS = ['HOME', 'PATH', 'USER', 'PWD', 'HOSTNAME', 'i', 'line', 'f'];

/**
 * A multi-document manifest of about `lines` lines: ConfigMaps with shell scripts. Roughly one
 * line in sixty holds a finding (a collapsing `$$`, an undefined variable, a silent default).
 */
export function generateManifest(seed: number, lines: number): string {
  const next = random(seed);
  const pick = picker(next);
  const v = () => pick(CLUSTER_VARS);
  const sh = () => pick(SHELL_VARS);
  // Weighted: clean lines (escaped shell variables, defined Flux variables) dominate.
  const clean: Array<() => string> = [
    () => `echo "$\${${sh()}} runs in \${${v()}}"`,
    () => `export TARGET="\${${v()}}-${Math.floor(next() * 1000)}"`,
    () => `for f in $\${${sh()}}/*.yaml; do echo "$\${f}"; done`,
    () => `test -n "$${sh()}" || exit 1`,
    () => `curl -fsS "https://\${${v()}}.example.com/api/v1/items?limit=${Math.floor(next() * 100)}"`,
    () => `awk '{ print $1, $2 }' /etc/hosts | sort -u`,
    () => `kubectl get pods -n \${app_name} -o jsonpath='{.items[*].metadata.name}'`,
    () => `# a comment line about \${cluster_name} in \${region}`,
    () => `sleep ${Math.floor(next() * 30)} && date -u +%FT%TZ`,
    () => `[ "$${sh()}" = "\${log_level}" ] && echo same`,
  ];
  const findings: Array<() => string> = [
    () => `price="$$${Math.floor(next() * 100)}" # cost in $$`,
    () => `echo "\${UNDEFINED_${Math.floor(next() * 20)}}"`,
    () => `export LIMIT=\${LIMIT_${Math.floor(next() * 10)}:-50}`,
    () => `echo $$$\${HOME}`,
  ];
  const docs: string[] = [];
  let count = 0;
  for (let doc = 0; count < lines; doc++) {
    const body = [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      `  name: scripts-${doc}`,
      '  namespace: ${app_name}',
      '  labels:',
      '    app.kubernetes.io/name: ${app_name}',
      '    cluster: ${cluster_name}',
      'data:',
      '  region: ${region}',
      '  replicas: "${replicas}"',
      '  run.sh: |',
      '    #!/bin/sh',
      '    set -eu',
    ];
    const script = 10 + Math.floor(next() * 40);
    for (let i = 0; i < script; i++) body.push('    ' + (next() < 1 / 60 ? pick(findings)() : pick(clean)()));
    docs.push(body.join('\n'));
    count += body.length + 1;
  }
  return docs.join('\n---\n') + '\n';
}

export interface GeneratedRepo {
  root: string;
  files: number;
  bytes: number;
}

/** Writes `files` under `root` unless the same generator already wrote it; returns the totals. */
export function writeRepo(root: string, key: object, build: () => Map<string, string>): GeneratedRepo {
  // Beside the repository, not in it: the stamp must not count as one of its files.
  const stampFile = `${root}.stamp.json`;
  const stamp = JSON.stringify({ version: GENERATOR_VERSION, ...key });
  try {
    const previous = JSON.parse(fs.readFileSync(stampFile, 'utf8')) as GeneratedRepo & { stamp: string };
    if (previous.stamp === stamp) return { root, files: previous.files, bytes: previous.bytes };
  } catch {
    // No stamp or an unreadable one: generate.
  }
  const files = build();
  fs.rmSync(root, { recursive: true, force: true });
  let bytes = 0;
  const made = new Set<string>();
  for (const [relative, text] of files) {
    const absolute = path.join(root, ...relative.split('/'));
    const dir = path.dirname(absolute);
    if (!made.has(dir)) {
      fs.mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    fs.writeFileSync(absolute, text);
    bytes += Buffer.byteLength(text);
  }
  fs.writeFileSync(stampFile, JSON.stringify({ stamp, files: files.size, bytes }));
  return { root, files: files.size, bytes };
}

export interface FluxRepoOptions {
  /** About this many files (the layout has 15 files per app and 20 per repository). */
  files: number;
  seed?: number;
  /** Extra files (workspace-relative path → text), e.g. a big manifest and the base listing it. */
  extra?: (apps: string[]) => Record<string, string>;
  /** Part of the reuse key when `extra` changes with a parameter. */
  extraKey?: string;
}

export const CLUSTERS = ['production', 'staging', 'dev'];

/** The base directory of the first app: the bench puts its big manifests there. */
export const FIRST_APP_BASE = 'apps/base/app-000';
export const SECOND_APP_BASE = 'apps/base/app-001';

export function generateFluxRepo(root: string, options: FluxRepoOptions): GeneratedRepo {
  const seed = options.seed ?? SEED;
  return writeRepo(root, { kind: 'flux', files: options.files, seed, extra: options.extraKey ?? '' }, () => {
    const next = random(seed ^ options.files);
    const appCount = Math.max(1, Math.round((options.files - 20) / 15));
    const apps = Array.from({ length: appCount }, (_, i) => `app-${String(i).padStart(3, '0')}`);
    const files = new Map<string, string>();
    for (const cluster of CLUSTERS) fluxCluster(files, cluster, apps, next);
    files.set('vars/base/kustomization.yaml', kustomization(['cluster-vars.yaml']));
    files.set('vars/base/cluster-vars.yaml', clusterVars());
    for (const app of apps) appBase(files, app, next);
    for (const [file, text] of Object.entries(options.extra?.(apps) ?? {})) files.set(file, text);
    return files;
  });
}

function kustomization(resources: string[], patches: string[] = []): string {
  const lines = ['apiVersion: kustomize.config.k8s.io/v1beta1', 'kind: Kustomization', 'resources:', ...resources.map((r) => `  - ${r}`)];
  if (patches.length > 0) lines.push('patches:', ...patches);
  return lines.join('\n') + '\n';
}

function fluxKustomization(name: string, spec: string[]): string {
  return [
    'apiVersion: kustomize.toolkit.fluxcd.io/v1',
    'kind: Kustomization',
    'metadata:',
    `  name: ${name}`,
    '  namespace: flux-system',
    'spec:',
    '  interval: 10m0s',
    '  prune: true',
    '  sourceRef:',
    '    kind: GitRepository',
    '    name: flux-system',
    ...spec.map((line) => `  ${line}`),
  ].join('\n');
}

function fluxCluster(files: Map<string, string>, cluster: string, apps: string[], next: Random): void {
  const dir = `clusters/${cluster}`;
  const minor = cluster === 'dev' ? 8 : 9;
  files.set(
    `${dir}/flux-system/gotk-components.yaml`,
    ['---', '# This manifest was generated by flux. DO NOT EDIT.', `# Flux Version: v2.${minor}.1`, '# Components: source-controller,kustomize-controller', 'apiVersion: v1', 'kind: Namespace', 'metadata:', '  name: flux-system', ''].join('\n'),
  );
  files.set(
    `${dir}/flux-system/gotk-sync.yaml`,
    [
      ...fluxSystemGitRepository('ssh://git@github.com/example/fleet'),
      '---',
      fluxKustomization('flux-system', [`path: ./${dir}`]),
      '',
    ].join('\n'),
  );
  files.set(`${dir}/flux-system/kustomization.yaml`, kustomization(['gotk-components.yaml', 'gotk-sync.yaml']));
  files.set(`${dir}/vars.yaml`, fluxKustomization('vars', [`path: ./vars/${cluster}`]) + '\n');
  files.set(`vars/${cluster}/kustomization.yaml`, kustomization(['../base'], ['  - path: cluster-vars-patch.yaml']));
  files.set(
    `vars/${cluster}/cluster-vars-patch.yaml`,
    ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: cluster-vars', '  namespace: flux-system', 'data:', `  cluster_name: ${cluster}`, `  region: ${['eu-west-1', 'us-east-2', 'ap-south-1'][CLUSTERS.indexOf(cluster) % 3]}`, `  replicas: "${1 + Math.floor(next() * 5)}"`, ''].join('\n'),
  );
  for (const app of apps) {
    files.set(
      `${dir}/apps/${app}.yaml`,
      fluxKustomization(app, [
        `path: ./apps/overlays/${cluster}/${app}`,
        'dependsOn:',
        '  - name: vars',
        'postBuild:',
        '  substitute:',
        `    app_name: ${app}`,
        '  substituteFrom:',
        '    - kind: ConfigMap',
        '      name: cluster-vars',
      ]) + '\n',
    );
    files.set(
      `apps/overlays/${cluster}/${app}/kustomization.yaml`,
      kustomization([`../../../base/${app}`], ['  - path: patch.yaml', '    target:', '      kind: Deployment', `      name: ${app}`]),
    );
    files.set(
      `apps/overlays/${cluster}/${app}/patch.yaml`,
      ['apiVersion: apps/v1', 'kind: Deployment', 'metadata:', `  name: ${app}`, 'spec:', `  replicas: ${1 + Math.floor(next() * 4)}`, '  template:', '    spec:', '      containers:', `        - name: ${app}`, '          resources:', '            limits:', `              memory: ${64 * (1 + Math.floor(next() * 8))}Mi`, ''].join('\n'),
    );
  }
}

function clusterVars(): string {
  return [
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata:',
    '  name: cluster-vars',
    '  namespace: flux-system',
    'data:',
    '  cluster_name: base',
    '  region: eu-west-1',
    '  domain: example.com',
    '  replicas: "2"',
    '  log_level: info',
    '  image_tag: "1.4.2"',
    '',
  ].join('\n');
}

function appBase(files: Map<string, string>, app: string, next: Random): void {
  const dir = `apps/base/${app}`;
  files.set(`${dir}/kustomization.yaml`, kustomization(['deployment.yaml', 'service.yaml', 'configmap.yaml', 'hpa.yaml', 'ingress.yaml']));
  const port = 8000 + Math.floor(next() * 1000);
  files.set(
    `${dir}/deployment.yaml`,
    [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata:',
      `  name: ${app}`,
      '  labels:',
      `    app.kubernetes.io/name: ${app}`,
      '    app.kubernetes.io/part-of: ${cluster_name}',
      'spec:',
      '  replicas: ${replicas}',
      '  selector:',
      '    matchLabels:',
      `      app.kubernetes.io/name: ${app}`,
      '  template:',
      '    metadata:',
      '      labels:',
      `        app.kubernetes.io/name: ${app}`,
      '      annotations:',
      '        checksum/config: "${image_tag}"',
      '    spec:',
      '      serviceAccountName: default',
      '      securityContext:',
      '        runAsNonRoot: true',
      '        runAsUser: 10001',
      '      containers:',
      `        - name: ${app}`,
      `          image: ghcr.io/example/${app}:\${image_tag}`,
      '          imagePullPolicy: IfNotPresent',
      '          args:',
      '            - --log-level=${log_level}',
      `            - --listen=:${port}`,
      '            - --region=${region}',
      '          env:',
      '            - name: CLUSTER',
      '              value: ${cluster_name}',
      '            - name: DOMAIN',
      `              value: ${app}.\${domain}`,
      '            - name: SHELL_HOME',
      '              value: $${HOME}',
      '          ports:',
      '            - name: http',
      `              containerPort: ${port}`,
      '          readinessProbe:',
      '            httpGet:',
      '              path: /healthz',
      '              port: http',
      '            periodSeconds: 10',
      '          resources:',
      '            requests:',
      `              cpu: ${10 * (1 + Math.floor(next() * 20))}m`,
      `              memory: ${32 * (1 + Math.floor(next() * 8))}Mi`,
      '          volumeMounts:',
      '            - name: config',
      '              mountPath: /etc/app',
      '      volumes:',
      '        - name: config',
      '          configMap:',
      `            name: ${app}-config`,
      '',
    ].join('\n'),
  );
  files.set(
    `${dir}/service.yaml`,
    ['apiVersion: v1', 'kind: Service', 'metadata:', `  name: ${app}`, 'spec:', '  selector:', `    app.kubernetes.io/name: ${app}`, '  ports:', '    - name: http', '      port: 80', '      targetPort: http', ''].join('\n'),
  );
  files.set(
    `${dir}/configmap.yaml`,
    [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      `  name: ${app}-config`,
      'data:',
      '  LOG_LEVEL: ${log_level}',
      '  REGION: ${region}',
      `  FEATURE_${Math.floor(next() * 100)}: "true"`,
      '  start.sh: |',
      '    #!/bin/sh',
      '    echo "starting in $${HOME} on ${cluster_name}"',
      `    exec /app --port ${port} --cost '$$5'`,
      '',
    ].join('\n'),
  );
  files.set(
    `${dir}/hpa.yaml`,
    ['apiVersion: autoscaling/v2', 'kind: HorizontalPodAutoscaler', 'metadata:', `  name: ${app}`, 'spec:', '  scaleTargetRef:', '    apiVersion: apps/v1', '    kind: Deployment', `    name: ${app}`, '  minReplicas: 1', '  maxReplicas: 10', ''].join('\n'),
  );
  files.set(
    `${dir}/ingress.yaml`,
    [
      'apiVersion: networking.k8s.io/v1',
      'kind: Ingress',
      'metadata:',
      `  name: ${app}`,
      '  annotations:',
      '    nginx.ingress.kubernetes.io/configuration-snippet: |',
      '      more_set_headers "X-Cluster: ${cluster_name}";',
      'spec:',
      '  rules:',
      `    - host: "${app}.\${region}.\${domain}"`,
      '      http:',
      '        paths:',
      '          - path: /',
      '            pathType: Prefix',
      '            backend:',
      '              service:',
      `                name: ${app}`,
      '                port:',
      '                  number: 80',
      '',
    ].join('\n'),
  );
}

/** A repository of Helm charts: values, helpers and templates with bare, quoted and hand-quoted actions. */
export function generateHelmRepo(root: string, charts: number, seed = SEED): GeneratedRepo {
  return writeRepo(root, { kind: 'helm', charts, seed }, () => {
    const next = random(seed ^ 0x4e1f);
    const files = new Map<string, string>();
    for (let c = 0; c < charts; c++) {
      const name = `chart-${String(c).padStart(2, '0')}`;
      const dir = `charts/${name}`;
      files.set(`${dir}/Chart.yaml`, ['apiVersion: v2', `name: ${name}`, 'type: application', `version: 0.${c}.0`, `appVersion: "1.${c}.0"`, ''].join('\n'));
      files.set(
        `${dir}/values.yaml`,
        ['replicaCount: 2', 'image:', `  repository: ghcr.io/example/${name}`, '  tag: ""', 'schedule: "*/5 * * * *"', 'logLevel: info', 'podAnnotations: {}', `port: ${8000 + c}`, ''].join('\n'),
      );
      files.set(
        `${dir}/templates/_helpers.tpl`,
        [`{{- define "${name}.fullname" -}}`, '{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" }}', '{{- end }}', ''].join('\n'),
      );
      const quoted = next() < 0.5;
      files.set(
        `${dir}/templates/deployment.yaml`,
        [
          'apiVersion: apps/v1',
          'kind: Deployment',
          'metadata:',
          `  name: {{ include "${name}.fullname" . }}`,
          'spec:',
          '  replicas: {{ .Values.replicaCount }}',
          '  template:',
          '    metadata:',
          '      annotations:',
          '        {{- toYaml .Values.podAnnotations | nindent 8 }}',
          '    spec:',
          '      containers:',
          `        - name: ${name}`,
          '          image: "{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}"',
          '          env:',
          '            - name: LOG_LEVEL',
          quoted ? '              value: {{ .Values.logLevel | quote }}' : '              value: {{ .Values.logLevel }}',
          '            - name: PORT',
          '              value: "{{ .Values.port }}"',
          '',
        ].join('\n'),
      );
      files.set(
        `${dir}/templates/cronjob.yaml`,
        [
          'apiVersion: batch/v1',
          'kind: CronJob',
          'metadata:',
          `  name: {{ include "${name}.fullname" . }}-cleanup`,
          'spec:',
          next() < 0.5 ? '  schedule: {{ .Values.schedule }}' : '  schedule: {{ .Values.schedule | quote }}',
          '  jobTemplate:',
          '    spec:',
          '      template:',
          '        spec:',
          '          restartPolicy: OnFailure',
          '          containers:',
          '            - name: cleanup',
          '              image: busybox:1.36',
          '              args: ["sh", "-c", "echo cleaning {{ .Release.Namespace }}"]',
          '',
        ].join('\n'),
      );
      files.set(
        `${dir}/templates/service.yaml`,
        ['apiVersion: v1', 'kind: Service', 'metadata:', `  name: {{ include "${name}.fullname" . }}`, 'spec:', '  ports:', '    - port: {{ .Values.port }}', '      targetPort: http', ''].join('\n'),
      );
    }
    return files;
  });
}

/** A Fleet repository: bundles with fleet.yaml (helm or kustomize options, comparePatches) and manifests. */
export function generateFleetRepo(root: string, bundles: number, seed = SEED): GeneratedRepo {
  return writeRepo(root, { kind: 'fleet', bundles, seed }, () => {
    const next = random(seed ^ 0xf1ee);
    const pick = picker(next);
    const files = new Map<string, string>();
    for (let b = 0; b < bundles; b++) {
      const name = `bundle-${String(b).padStart(2, '0')}`;
      const dir = `bundles/${name}`;
      const op = pick(['remove', 'remove', 'replace', 'delete']);
      const pointer = pick(['/spec/replicas', '/metadata/annotations/checksum~1config', 'spec/replicas', '/data/~2bad']);
      files.set(
        `${dir}/fleet.yaml`,
        [
          `defaultNamespace: ${name}`,
          'namespaceLabels:',
          `  team: team-${b % 4}`,
          'targetCustomizations:',
          '  - name: prod',
          '    clusterSelector:',
          '      matchLabels:',
          '        env: prod',
          '    yaml:',
          '      overlays:',
          '        - prod',
          'diff:',
          '  comparePatches:',
          '    - apiVersion: apps/v1',
          '      kind: Deployment',
          `      name: ${name}`,
          `      namespace: ${name}`,
          '      operations:',
          `        - {"op": "${op}", "path": "${pointer}"}`,
          '      jsonPointers:',
          `        - "${pointer}"`,
          '',
        ].join('\n'),
      );
      files.set(
        `${dir}/manifests/deployment.yaml`,
        ['apiVersion: apps/v1', 'kind: Deployment', 'metadata:', `  name: ${name}`, 'spec:', `  replicas: ${1 + (b % 3)}`, '  template:', '    spec:', '      containers:', `        - name: ${name}`, '          image: nginx:1.27', ''].join('\n'),
      );
      files.set(`${dir}/overlays/prod/deployment_patch.yaml`, ['apiVersion: apps/v1', 'kind: Deployment', 'metadata:', `  name: ${name}`, 'spec:', '  replicas: 5', ''].join('\n'));
    }
    return files;
  });
}

/** Workspace-relative paths of every file under `root` (what a plain reader reads). */
export function listRepo(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, prefix: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name), `${prefix}${entry.name}/`);
      else if (entry.isFile()) out.push(`${prefix}${entry.name}`);
    }
  };
  walk(root, '');
  return out.sort();
}

/** The GitRepository `flux bootstrap` writes into gotk-sync.yaml, as lines. */
export function fluxSystemGitRepository(url: string, secret?: string): string[] {
  return [
    'apiVersion: source.toolkit.fluxcd.io/v1',
    'kind: GitRepository',
    'metadata:',
    '  name: flux-system',
    '  namespace: flux-system',
    'spec:',
    '  interval: 1m0s',
    '  ref:',
    '    branch: main',
    ...(secret ? ['  secretRef:', `    name: ${secret}`] : []),
    `  url: ${url}`,
  ];
}
