/**
 * `.render-lens.yaml` at the repository root: the team's policy (severities, strict mode to
 * assume, files to skip). Editor settings are applied on top of it.
 */
import { parse } from 'yaml';
import type { Severity } from './model';

export interface RepoConfig {
  severities: Record<string, Severity | 'off'>;
  strict: boolean | undefined;
  exclude: string[];
  /** Per-cluster strict mode, from `clusters.<name>.strict` or `.fluxVersion`. */
  clusterStrict: Record<string, boolean>;
  /** `redaction.salt`: mixed into the hashes that identify secret values (render/redaction.ts). */
  redactionSalt?: string;
  problems: string[];
}

export const configFile = '.render-lens.yaml';
const levels = new Set(['error', 'warning', 'information', 'hint', 'off']);

export function readRepoConfig(text: string | undefined): RepoConfig {
  const config: RepoConfig = { severities: {}, strict: undefined, exclude: [], clusterStrict: {}, problems: [] };
  if (text === undefined) return config;
  let data: unknown;
  try {
    data = parse(text);
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
      if (typeof cluster.strict === 'boolean') config.clusterStrict[name] = cluster.strict;
      else if (typeof cluster.fluxVersion === 'string') {
        // Flux 2.9 (kustomize-controller 1.9) made strict substitution the default.
        const [major, minor] = cluster.fluxVersion.replace(/^v/, '').split('.').map(Number);
        config.clusterStrict[name] = major > 2 || (major === 2 && minor >= 9);
      }
    }
  }
  return config;
}

/** `redaction: { salt: "…" }`: a salt at least 16 characters long, so it cannot be guessed with the value. */
function readRedaction(redaction: unknown, config: RepoConfig): void {
  if (redaction === undefined || redaction === null) return;
  const salt = typeof redaction === 'object' ? (redaction as { salt?: unknown }).salt : undefined;
  if (typeof salt === 'string' && salt.length >= 16) config.redactionSalt = salt;
  else config.problems.push(`${configFile}: redaction.salt must be a string of at least 16 characters`);
}
