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
  /** The cluster's Flux version (`v2.9.1`) when its gotk-components.yaml header says. */
  fluxVersion?: string;
  /** Nothing in the repository or the settings decided it: the default was assumed. */
  assumed?: boolean;
}

export interface FluxDefaults {
  /** Strict mode to assume when a cluster does not say (default: Flux ≥ 2.9, strict). */
  strict: boolean;
  /** `strict` is a guess (no setting gave it), so findings that follow from it say so. */
  assumed?: boolean;
}

const versionHeader = /^#\s*Flux Version:\s*v?(\d+)\.(\d+)\.(\d+)\S*/m;
const strictGate = /StrictPostBuildSubstitutions=(true|false)/g;

/** The first gate setting in `text` that is not on a comment line. */
function gateIn(text: string): RegExpExecArray | null {
  strictGate.lastIndex = 0;
  for (let m = strictGate.exec(text); m; m = strictGate.exec(text)) {
    const lineStart = text.lastIndexOf('\n', m.index) + 1;
    if (!/^\s*#/.test(text.slice(lineStart, m.index))) return m;
  }
  return null;
}

/**
 * Reads the strict mode of the cluster whose Flux files live under `dirs` (each dir's
 * `flux-system/`, recursively). A feature gate wins over the version's default.
 */
export function strictModeOf(index: FileIndex, dirs: readonly string[], defaults: FluxDefaults, asked?: { text: string; file: string; range: Range }): StrictMode {
  let version: { text: string; strict: boolean; file: string; range: Range } | undefined;
  let gate: { strict: boolean; text: string; file: string; range: Range } | undefined;
  for (const dir of dirs) {
    const fluxDir = dir === '' ? 'flux-system' : `${dir}/flux-system`;
    for (const file of filesUnder(index, fluxDir)) {
      const text = index.text(file) ?? '';
      // Once per file version: a graph is rebuilt on keystrokes in its inputs, gotk-components.yaml is large.
      const g = gate ? null : (index.derived(file, 'strict-gate', gateIn) ?? null);
      if (g) gate = { strict: g[1] === 'true', text: g[0], file, range: { start: g.index, end: g.index + g[0].length } };
      const header = version || !file.endsWith('/gotk-components.yaml') ? null : versionHeader.exec(text.slice(0, 4096));
      if (header) {
        const [major, minor] = [Number(header[1]), Number(header[2])];
        const written = header[0].replace(/^#\s*Flux Version:\s*/, '');
        version = { text: written.startsWith('v') ? written : `v${written}`, strict: strictByDefaultIn(major, minor), file, range: { start: header.index, end: header.index + header[0].length } };
      }
    }
  }
  const fluxVersion = version ? { fluxVersion: version.text } : {};
  if (gate) return { strict: gate.strict, reason: `--feature-gates=${gate.text} in ${gate.file}`, file: gate.file, range: gate.range, ...fluxVersion };
  if (version) {
    const how = version.strict ? 'substitutes strictly by default' : 'does not substitute strictly by default';
    return { strict: version.strict, reason: `Flux ${version.text} (${version.file}) ${how}`, file: version.file, range: version.range, ...fluxVersion };
  }
  // The version a FluxInstance asks for, when its range settles the default.
  const byRange = asked && strictOfVersionRange(asked.text);
  if (asked && byRange !== undefined) {
    const how = byRange ? 'substitutes strictly by default' : 'does not substitute strictly by default';
    return { strict: byRange, reason: `Flux ${asked.text} (the FluxInstance's distribution.version, ${asked.file}) ${how}`, file: asked.file, range: asked.range };
  }
  if (!defaults.assumed) return { strict: defaults.strict, reason: defaults.strict ? 'strict (setting)' : 'not strict (setting)' };
  if (asked) return { strict: defaults.strict, reason: `assumed strict (Flux ≥ 2.9 default; the FluxInstance asks for ${asked.text}, ${asked.file}, which does not say whether it is 2.9 or later)`, assumed: true };
  return { strict: defaults.strict, reason: 'assumed strict (Flux ≥ 2.9 default; no version found in the cluster)', assumed: true };
}

/**
 * Whether every Flux version a `distribution.version` range allows substitutes strictly
 * (true), none does (false), or the range spans 2.9 (undefined: the newest release decides).
 * `2.7.x`, `2.7`, `~2.7`, `v2.9.1` fix the minor version; `>=2.9` and `^2.9` start at 2.9;
 * `2.x`, `*` or `>=2.5` say nothing.
 */
export function strictOfVersionRange(range: string): boolean | undefined {
  const text = range.trim().replace(/^=\s*/, '');
  const fixedMinor = /^[~]?\s*v?(\d+)\.(\d+)(?:\.(?:\d+|x|\*)(?:[-+][\w.-]*)?)?$/i.exec(text);
  if (fixedMinor) return strictByDefaultIn(Number(fixedMinor[1]), Number(fixedMinor[2]));
  const from = /^(?:>=|\^)\s*v?(\d+)\.(\d+)(?:\.\d+)?$/.exec(text);
  if (from && strictByDefaultIn(Number(from[1]), Number(from[2]))) return true;
  return undefined;
}

/** Flux 2.9 (kustomize-controller 1.9) made strict substitution the default. */
export function strictByDefaultIn(major: number, minor: number): boolean {
  return major > 2 || (major === 2 && minor >= 9);
}

/**
 * The Flux a cluster installs from Flux's own releases (a GitRepository of fluxcd/flux2 or an
 * OCIRepository of ghcr.io/fluxcd/flux-manifests, pinned to a tag), when nothing else says.
 */
export function strictFromInstaller(source: { kind: string; url: string | undefined; tag?: string; file: string; range: Range }): StrictMode | undefined {
  if (!source.url || !source.tag || !/(^|\/)(github\.com\/fluxcd\/flux2(\.git)?|ghcr\.io\/fluxcd\/flux-manifests)$/.test(source.url.replace(/^[a-z]+:\/\//, '').replace(/\/+$/, ''))) return undefined;
  const version = /^v?(\d+)\.(\d+)\.\d+$/.exec(source.tag);
  if (!version) return undefined;
  const strict = strictByDefaultIn(Number(version[1]), Number(version[2]));
  const how = strict ? 'substitutes strictly by default' : 'does not substitute strictly by default';
  return { strict, reason: `Flux ${source.tag} (installed from ${source.kind} ${source.url}, ${source.file}) ${how}`, file: source.file, range: source.range, fluxVersion: source.tag.startsWith('v') ? source.tag : `v${source.tag}` };
}

/** Every file below `dir`, in the index's (sorted) order. */
function filesUnder(index: FileIndex, dir: string): string[] {
  const out: string[] = [];
  const visit = (d: string) => {
    const { files, dirs } = index.children(d);
    out.push(...files);
    dirs.forEach(visit);
  };
  if (index.isDirectory(dir)) visit(dir);
  return out.sort();
}

/** `clusters/<name>/...` names the cluster; otherwise the root Kustomization's name does. */
export function clusterName(rootFile: string, rootPath: string | undefined, fallback: string): string {
  for (const candidate of [rootPath ?? '', rootFile]) {
    const match = /(?:^|\/)clusters\/([^/]+)/.exec(candidate.replace(/^\.\//, ''));
    if (match && !/\.ya?ml$/.test(match[1])) return match[1];
  }
  return fallback;
}
