/**
 * What a cluster says about its own controllers: the Flux version in the bootstrap header of
 * `flux-system/gotk-components.yaml`, and a `StrictPostBuildSubstitutions` feature-gate
 * override. Strict substitution is the default from Flux v2.9 (kustomize-controller v1.9).
 */
import type { Range } from '../model';
import type { FileIndex } from '../workspace/file-index';

export interface StrictMode {
  strict: boolean;
  /** Why: the gate, the version, or the setting that decided it. */
  reason: string;
  file?: string;
  range?: Range;
}

export interface FluxDefaults {
  /** Strict mode to assume when a cluster does not say (default: Flux ≥ 2.9, strict). */
  strict: boolean;
}

const versionHeader = /^#\s*Flux Version:\s*v?(\d+)\.(\d+)\.(\d+)\S*/m;
const strictGate = /StrictPostBuildSubstitutions=(true|false)/;

/** Reads the strict mode of the cluster whose Flux files live under `dirs`. */
export function strictModeOf(index: FileIndex, dirs: readonly string[], defaults: FluxDefaults): StrictMode {
  for (const dir of dirs) {
    const fluxDir = dir === '' ? 'flux-system' : `${dir}/flux-system`;
    for (const file of index.children(fluxDir).files) {
      const text = index.text(file);
      const gate = text === undefined ? null : strictGate.exec(text);
      if (gate) {
        return { strict: gate[1] === 'true', reason: `--feature-gates=StrictPostBuildSubstitutions=${gate[1]} in ${file}`, file, range: { start: gate.index, end: gate.index + gate[0].length } };
      }
    }
    const components = `${fluxDir}/gotk-components.yaml`;
    const header = versionHeader.exec(index.text(components)?.slice(0, 4096) ?? '');
    if (header) {
      const [major, minor] = [Number(header[1]), Number(header[2])];
      const strict = major > 2 || (major === 2 && minor >= 9);
      const version = header[0].replace(/^#\s*Flux Version:\s*/, '');
      return {
        strict,
        reason: `Flux ${version} (${components}) ${strict ? 'substitutes strictly by default' : 'does not substitute strictly by default'}`,
        file: components,
        range: { start: header.index, end: header.index + header[0].length },
      };
    }
  }
  return { strict: defaults.strict, reason: defaults.strict ? 'assumed strict (Flux ≥ 2.9 default; no version found in the cluster)' : 'assumed not strict (setting)' };
}

/** `clusters/<name>/...` names the cluster; otherwise the root Kustomization's name does. */
export function clusterName(rootFile: string, rootPath: string | undefined, fallback: string): string {
  for (const candidate of [rootPath ?? '', rootFile]) {
    const match = /(?:^|\/)clusters\/([^/]+)/.exec(candidate.replace(/^\.\//, ''));
    if (match && !/\.ya?ml$/.test(match[1])) return match[1];
  }
  return fallback;
}
