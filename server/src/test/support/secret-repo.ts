/**
 * A repository with secrets planted everywhere a secret can sit: Secret `data` (base64) and
 * `stringData`, a SOPS-encrypted Secret, a secretGenerator literal, and variables read from
 * all of them into every expression form that can echo a value (defaults, replacements,
 * substrings, type changes). The leak test collects every output and looks for the secrets.
 */

/** The planted values: long and unlike anything else, so a match is never a coincidence. */
export const plantedSecrets = {
  dbPassword: 'Vx9qLm2Tz8RwK4pN7c',
  apiToken: 'Hb3Yd6Jf1Qs5Wu0Ga8',
  sessionKey: 'Pk7Ne2Rx9Lt4Mz6Cv1',
  pin: '918273645102',
  sopsPayload: 'Sq5Wd8Fg2Hj6Kl0Zx3',
  generated: 'Gn4Bv7Cx1Zm9Lk3Jh5',
  plainInSecret: 'Lp8Oi6Uy4Tr2Ew0Qa9',
};

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** Every string that must never appear in an output: each secret, its base64, and their halves. */
export function forbiddenStrings(): string[] {
  const out = new Set<string>();
  for (const secret of Object.values(plantedSecrets)) {
    for (const form of [secret, base64(secret)]) {
      out.add(form);
      out.add(form.slice(0, Math.ceil(form.length / 2)));
      out.add(form.slice(Math.floor(form.length / 2)));
    }
  }
  return [...out];
}

/** The first forbidden string found in `text`, with some context, or undefined. */
export function findLeak(text: string): string | undefined {
  for (const secret of forbiddenStrings()) {
    const at = text.indexOf(secret);
    if (at >= 0) return `${JSON.stringify(secret)} in …${text.slice(Math.max(0, at - 120), at + secret.length + 40)}…`;
  }
  return undefined;
}

const s = plantedSecrets;

/** One cluster's files: a root, the apps Kustomization with every kind of variable source, the sources. */
function cluster(name: string, fluxVersion: string): Record<string, string> {
  const dir = `clusters/${name}`;
  return {
    [`${dir}/flux-system/gotk-components.yaml`]: `# Flux Version: ${fluxVersion}\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: flux-system\n`,
    [`${dir}/flux-system/gotk-sync.yaml`]: `apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: flux-system\n  namespace: flux-system\nspec:\n  path: ./${dir}\n`,
    [`${dir}/flux-system/kustomization.yaml`]: 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - gotk-components.yaml\n  - gotk-sync.yaml\n',
    [`${dir}/apps.yaml`]: [
      'apiVersion: kustomize.toolkit.fluxcd.io/v1',
      'kind: Kustomization',
      'metadata:',
      '  name: apps',
      '  namespace: flux-system',
      'spec:',
      '  path: ./apps',
      '  postBuild:',
      '    substitute:',
      '      PLAIN: hello',
      '    substituteFrom:',
      '      - kind: ConfigMap',
      '        name: vars',
      '      - kind: Secret',
      '        name: app-secrets',
      '      - kind: Secret',
      '        name: sops-secrets',
      '      - kind: Secret',
      '        name: generated-secrets',
      '',
    ].join('\n'),
    [`${dir}/vars.yaml`]: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: vars\n  namespace: flux-system\ndata:\n  REGION: eu-west-1\n',
    [`${dir}/kustomization.yaml`]: [
      'apiVersion: kustomize.config.k8s.io/v1beta1',
      'kind: Kustomization',
      'resources:',
      '  - flux-system',
      '  - apps.yaml',
      '  - vars.yaml',
      '  - secrets.yaml',
      '  - sops-secrets.yaml',
      // The raw Kustomization (prod only) is listed, so Flux applies it.
      ...(name === 'prod' ? ['  - raw.yaml'] : []),
      'secretGenerator:',
      '  - name: generated-secrets',
      '    namespace: flux-system',
      `    literals:
      - GENERATED=${s.generated}`,
      '    options:',
      '      disableNameSuffixHash: true',
      '',
    ].join('\n'),
    [`${dir}/secrets.yaml`]: [
      'apiVersion: v1',
      'kind: Secret',
      'metadata:',
      '  name: app-secrets',
      '  namespace: flux-system',
      'data:',
      `  DB_PASSWORD: ${base64(s.dbPassword)}`,
      `  API_TOKEN: ${base64(s.apiToken)}`,
      `  PIN: ${base64(s.pin)}`,
      'stringData:',
      `  SESSION_KEY: ${s.sessionKey}`,
      `  PIN_TEXT: "${s.pin}"`,
      '',
    ].join('\n'),
    [`${dir}/sops-secrets.yaml`]: [
      'apiVersion: v1',
      'kind: Secret',
      'metadata:',
      '  name: sops-secrets',
      '  namespace: flux-system',
      'data:',
      `  ENC_KEY: ENC[AES256_GCM,data:${s.sopsPayload},iv:aXZpdml2aXZpdml2aXY=,tag:dGFndGFndGFn,type:str]`,
      'sops:',
      '  lastmodified: "2026-01-01T00:00:00Z"',
      '  mac: ENC[AES256_GCM,data:bWFjbWFj,iv:aXY=,tag:dGFn,type:str]',
      '  version: 3.9.0',
      '',
    ].join('\n'),
  };
}

/** Two clusters over the same apps: prod substitutes strictly (Flux 2.9), staging does not (2.5). */
export function secretRepo(): Record<string, string> {
  return {
    ...cluster('prod', 'v2.9.0'),
    ...cluster('staging', 'v2.5.0'),
    // Applied as written (no postBuild): the preview still redacts, even when the YAML is broken.
    'clusters/prod/raw.yaml': 'apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: raw\n  namespace: flux-system\nspec:\n  path: ./raw\n',
    'raw/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - broken-secret.yaml\n  - substituted-broken.yaml\n',
    'raw/broken-secret.yaml': `apiVersion: v1\nkind: Secret\nmetadata:\n  name: broken\nstringData:\n  password: ${s.plainInSecret}\n  password: ${s.sessionKey}\n\ttab: ${s.apiToken}\n`,
    'raw/substituted-broken.yaml': `apiVersion: v1\nkind: Secret\nmetadata:\n  name: broken2\nstringData:\n  password: "${s.plainInSecret}"\n  password: "${s.sessionKey}"\n`,
    'apps/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - deploy.yaml\n  - creds.yaml\n',
    'apps/deploy.yaml': [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata:',
      '  name: web',
      '  namespace: default',
      '  labels:',
      '    token: ${API_TOKEN}',
      '    pin: "${PIN}"',
      'spec:',
      '  template:',
      '    metadata:',
      '      annotations:',
      '        default: "${MISSING:-${DB_PASSWORD}}"',
      '        assigned: "${MISSING2:=${SESSION_KEY}}"',
      '        replaced: "${DB_PASSWORD/${MISSING3}/x}"',
      '        sliced: "${API_TOKEN:0:${MISSING4}}"',
      '        upper: "${SESSION_KEY^^}"',
      '        length: "${#DB_PASSWORD}"',
      '        generated: "${GENERATED}"',
      '        encrypted: "${ENC_KEY}"',
      '        strictly: "${MISSING5:?${API_TOKEN}}"',
      '        plus: "${API_TOKEN:+${MISSING6}}"',
      '    spec:',
      '      containers:',
      '        - name: web',
      '          image: nginx',
      '          env:',
      '            - name: PIN',
      '              value: "${PIN}"',
      '            - name: PIN_TEXT',
      '              value: ${PIN_TEXT}',
      '            - name: BROKEN',
      '              value: "a: ${DB_PASSWORD}"',
      '            - name: ALL',
      '              value: "${DB_PASSWORD}${API_TOKEN}${SESSION_KEY}${GENERATED}"',
      '          args: ["--pass=$${DB_PASSWORD}", "${DB_PASSWORD", "$$$${API_TOKEN}"]',
      '# a comment: ${DB_PASSWORD} ${MISSING7:-${API_TOKEN}}',
      '',
    ].join('\n'),
    'apps/creds.yaml': [
      'apiVersion: v1',
      'kind: Secret',
      'metadata:',
      '  name: creds',
      '  namespace: default',
      'stringData:',
      `  password: "${s.plainInSecret}$$"`,
      `  pin: "${s.pin.slice(0, 6)}\${MISSING8}"`,
      '  port: "${PIN}"',
      `  on: ${s.plainInSecret}`,
      'data:',
      `  key: ${base64(s.plainInSecret)}`,
      '',
    ].join('\n'),
  };
}
