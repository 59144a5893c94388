/**
 * Speed of the envsubst core: scanTemplate over a generated ~10 MB manifest (the editor runs it
 * over every scalar of every open file), and envsubst over the conformance vectors.
 */
import { envsubst, scanTemplate } from '../core/envsubst';
import { loadConformance } from '../dev/project-paths';
import { random } from '../test/support/generate';

interface Vector {
  input: string;
  env: Record<string, string>;
  strict: boolean;
}

const TARGET_BYTES = 10 * 1024 * 1024;
const SEED = 0x5eed_f1c5;

export async function benchEnvsubst(): Promise<string[]> {
  const lines: string[] = [];
  const manifest = generateManifest(SEED, TARGET_BYTES);
  const megabytes = Buffer.byteLength(manifest, 'utf8') / (1024 * 1024);
  const scalars = manifest.split('\n');
  const documents = manifest.split('\n---\n').length;
  lines.push(`manifest: ${megabytes.toFixed(1)} MB, ${documents} documents, ${scalars.length} lines (seed ${SEED.toString(16)})`);

  let whole = scanTemplate(manifest);
  const wholeTime = best(5, () => {
    whole = scanTemplate(manifest);
  });
  lines.push(
    `scanTemplate, whole text:   ${rate(megabytes, wholeTime)} (${ms(wholeTime)}; ${whole.runs.length} runs, ${whole.expansions.length} expansions, ` +
      `${whole.expansions.filter((e) => e.error !== undefined).length} errors)`,
  );

  let expansions = 0;
  const perLineTime = best(5, () => {
    expansions = 0;
    for (const line of scalars) expansions += scanTemplate(line).expansions.length;
  });
  lines.push(`scanTemplate, line by line: ${rate(megabytes, perLineTime)} (${ms(perLineTime)}; ${scalars.length} calls, ${expansions} expansions)`);

  const variables: Record<string, string> = { APP_NAME: 'web', NAMESPACE: 'apps', CLUSTER: 'prod-eu', REGION: 'eu-west-1', REPLICAS: '3' };
  const lookup = (name: string) => variables[name];
  let outputBytes = 0;
  const substituteTime = best(3, () => {
    const result = envsubst(manifest, lookup, { strict: false });
    outputBytes = result.kind === 'output' ? result.bytes.length : 0;
  });
  lines.push(`envsubst, whole text:       ${rate(megabytes, substituteTime)} (${ms(substituteTime)}; ${(outputBytes / (1024 * 1024)).toFixed(1)} MB out)`);

  const vectors = loadConformance<Vector>('envsubst/random.jsonl');
  const lookups = vectors.map((v) => (name: string) => (Object.prototype.hasOwnProperty.call(v.env, name) ? v.env[name] : undefined));
  const vectorTime = best(5, () => {
    vectors.forEach((v, i) => envsubst(v.input, lookups[i] ?? (() => undefined), { strict: v.strict }));
  });
  lines.push(
    `envsubst, random.jsonl:     ${vectors.length} cases in ${ms(vectorTime)} (${((vectorTime * 1e6) / vectors.length).toFixed(2)} µs per case)`,
  );
  return lines;
}

/** The fastest of `runs` timed runs after one warm-up, in seconds. */
function best(runs: number, work: () => void): number {
  work();
  let fastest = Infinity;
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    work();
    fastest = Math.min(fastest, Number(process.hrtime.bigint() - start) / 1e9);
  }
  return fastest;
}

function rate(megabytes: number, seconds: number): string {
  return `${(megabytes / seconds).toFixed(0)} MB/s`;
}

function ms(seconds: number): string {
  return `${(seconds * 1000).toFixed(1)} ms`;
}

const NAMES = ['APP_NAME', 'NAMESPACE', 'CLUSTER', 'REGION', 'REPLICAS', 'IMAGE_TAG', 'DOMAIN', 'LOG_LEVEL'];
const SHELL = ['HOME', 'PATH', 'USER', 'PWD', 'HOSTNAME', '1', 'i', 'line'];

/** A multi-document manifest of ConfigMaps whose shell scripts mix Flux and shell dollars. */
function generateManifest(seed: number, targetBytes: number): string {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const scriptLines: Array<() => string> = [
    () => `echo "$${pick(SHELL)} and \${${pick(NAMES)}}"`,
    () => `export TARGET=\${${pick(NAMES)}:-fallback-${Math.floor(next() * 1000)}}`,
    () => `for f in $$\${${pick(SHELL)}}/*.yaml; do echo "$$f"; done`,
    () => `price="$$${Math.floor(next() * 100)}" # cost in $$`,
    () => `curl -s https://\${${pick(NAMES)}}.example.com/api/v1/items?limit=\${LIMIT:=50}`,
    () => `test -n "$${pick(SHELL)}" || exit 1`,
    () => `name=\${${pick(NAMES)},,}-\${${pick(NAMES)}^^}-\${${pick(NAMES)}/-/_}`,
    () => `awk '{ print $1, $2 }' /etc/hosts | sort -u`,
    () => `kubectl get pods -n \${NAMESPACE} -o jsonpath='{.items[*].metadata.name}'`,
    () => `# plain comment line without any substitution at all, just text to scan`,
  ];
  const parts: string[] = [];
  let size = 0;
  for (let doc = 0; size < targetBytes; doc++) {
    const body: string[] = [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      `  name: scripts-${doc}`,
      '  namespace: ${NAMESPACE:=default}',
      '  labels:',
      '    app.kubernetes.io/name: ${APP_NAME}',
      `    cluster: \${CLUSTER:-dev}`,
      'data:',
      `  replicas: "\${REPLICAS}"`,
      '  run.sh: |',
      '    #!/bin/sh',
      '    set -eu',
    ];
    const count = 20 + Math.floor(next() * 40);
    for (let i = 0; i < count; i++) body.push('    ' + pick(scriptLines)());
    const text = body.join('\n');
    parts.push(text);
    size += text.length + 5;
  }
  return parts.join('\n---\n') + '\n';
}
