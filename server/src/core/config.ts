/**
 * `.render-lens.yaml` at the repository root: the team's policy (severities, strict mode to
 * assume, files to skip). Editor settings are applied on top of it.
 */
import { isMap, isScalar, parseDocument, type Document, type Node } from 'yaml';
import { strictOfVersionRange } from './flux/cluster-settings';
import type { DeclaredCluster, DeclaredModel } from './flux/roots';
import type { Variable } from './flux/variables';
import type { Range, Severity } from './model';

export interface RepoConfig {
  severities: Record<string, Severity | 'off'>;
  strict: boolean | undefined;
  exclude: string[];
  /** Per-cluster strict mode, from `clusters.<name>.strict` or `.fluxVersion`. */
  clusterStrict: Record<string, boolean>;
  /** Clusters (`clusters.<name>.path`), sources that are this repository, and variables from outside it. */
  declared: DeclaredModel;
  /** `redaction.salt`: mixed into the hashes that identify secret values (render/redaction.ts). */
  redactionSalt?: string;
  problems: string[];
}

export const configFile = '.render-lens.yaml';
const levels = new Set(['error', 'warning', 'information', 'hint', 'off']);

export function readRepoConfig(text: string | undefined): RepoConfig {
  const config: RepoConfig = { severities: {}, strict: undefined, exclude: [], clusterStrict: {}, declared: { clusters: [], sources: [] }, problems: [] };
  if (text === undefined) return config;
  let data: unknown;
  let document: Document;
  try {
    document = parseDocument(text);
    if (document.errors.length > 0) throw document.errors[0];
    data = document.toJS();
  } catch (error) {
    config.problems.push(`${configFile}: ${(error as Error).message}`);
    return config;
  }
  if (data === null || typeof data !== 'object') return config;
  const record = data as Record<string, unknown>;
  const severity = record.severity ?? record.severities;
  if (severity && typeof severity === 'object') {
    for (const [rule, level] of Object.entries(severity as Record<string, unknown>)) {
      if (typeof level === 'string' && levels.has(level)) config.severities[rule] = level as Severity | 'off';
      else config.problems.push(`${configFile}: severity of ${rule} must be one of ${[...levels].join(', ')}`);
    }
  }
  if (typeof record.strict === 'boolean') config.strict = record.strict;
  readRedaction(record.redaction, config);
  if (Array.isArray(record.exclude)) config.exclude = record.exclude.filter((e): e is string => typeof e === 'string');
  if (record.clusters && typeof record.clusters === 'object') {
    for (const [name, value] of Object.entries(record.clusters as Record<string, unknown>)) {
      const cluster = (value ?? {}) as { strict?: unknown; fluxVersion?: unknown };
      const declared = declaredCluster(name, value, document);
      if (declared) config.declared.clusters.push(declared);
      if (typeof cluster.strict === 'boolean') config.clusterStrict[name] = cluster.strict;
      else if (typeof cluster.fluxVersion === 'string') {
        // A range that spans 2.9 (`2.x`) decides nothing.
        const strict = strictOfVersionRange(cluster.fluxVersion);
        if (strict !== undefined) config.clusterStrict[name] = strict;
      }
    }
  }
  for (const source of Array.isArray(record.sources) ? record.sources : []) {
    const { kind, name, namespace } = (source ?? {}) as Record<string, unknown>;
    if (typeof name === 'string') config.declared.sources.push({ kind: typeof kind === 'string' ? kind : 'GitRepository', name, namespace: typeof namespace === 'string' ? namespace : undefined });
    else config.problems.push(`${configFile}: each entry of sources needs a name (and a kind, GitRepository by default)`);
  }
  return config;
}

/** `clusters.<name>`: a root folder, and variables that reach the cluster from outside the repository. */
function declaredCluster(name: string, value: unknown, document: Document): DeclaredCluster | undefined {
  const entry = (value ?? {}) as { path?: unknown; variables?: unknown; externalVariables?: unknown };
  const node = document.getIn(['clusters', name], true) as Node | undefined;
  const keyNode = isMap(document.get('clusters', true)) ? (document.get('clusters', true) as { items: Array<{ key: unknown }> }).items.find((p) => isScalar(p.key) && p.key.value === name)?.key : undefined;
  const rangeOf = (n: unknown): Range => (n && typeof n === 'object' && 'range' in n && Array.isArray(n.range) ? { start: n.range[0], end: n.range[1] } : { start: 0, end: 0 });
  const variables: Variable[] = [];
  const put = (variableName: string, variableValue: string | undefined, at: unknown) => {
    const range = rangeOf(at);
    variables.push({ name: variableName, value: variableValue, layers: [{ source: 'declared', objectName: configFile, file: configFile, range, value: variableValue, secret: false, encrypted: false, via: 'declared' }] });
  };
  if (entry.variables && typeof entry.variables === 'object') {
    for (const [key, v] of Object.entries(entry.variables as Record<string, unknown>)) put(key, v === null || v === undefined ? '' : String(v), document.getIn(['clusters', name, 'variables', key], true));
  }
  if (Array.isArray(entry.externalVariables)) {
    entry.externalVariables.forEach((key, i) => {
      if (typeof key === 'string' && !variables.some((v) => v.name === key)) put(key, undefined, document.getIn(['clusters', name, 'externalVariables', i], true));
    });
  }
  const path = typeof entry.path === 'string' ? entry.path : undefined;
  if (path === undefined && variables.length === 0) return undefined;
  return { name, path, file: configFile, range: rangeOf(keyNode ?? node), variables };
}

/** `redaction: { salt: "…" }`: a salt at least 16 characters long, so it cannot be guessed with the value. */
function readRedaction(redaction: unknown, config: RepoConfig): void {
  if (redaction === undefined || redaction === null) return;
  const salt = typeof redaction === 'object' ? (redaction as { salt?: unknown }).salt : undefined;
  if (typeof salt === 'string' && salt.length >= 16) config.redactionSalt = salt;
  else config.problems.push(`${configFile}: redaction.salt must be a string of at least 16 characters`);
}
