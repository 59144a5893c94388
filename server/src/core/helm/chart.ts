/**
 * A Helm chart as the evaluator needs it: where it lives, its templates and named templates,
 * `values.yaml` and the `Chart.yaml` metadata. File access is injected (the engine's index
 * in the editor, a rule context's parsed files in a check), so this stays pure.
 */
import { formatFloat32G } from '../goyaml/v2/go-number';
import { yamlToJson } from '../goyaml/v2/yaml-to-json';
import { GoFloat, GoInt, GoMap } from '../goyaml/v2/value';
import { analyzeTemplate } from './template-file';
import type { DefinedTemplate, TemplateTree } from '../gotemplate/tree';
import { fromJsonable, GoStruct, Unknown, type TValue } from './values';

export interface ChartFiles {
  text(path: string): string | undefined;
  /** Every file under `dir` (recursively); without it only `_helpers.tpl` is searched for defines. */
  list?(dir: string): readonly string[];
  /**
   * A values file as Helm reads it, from the caller's readings kept per file version
   * (values-worlds.ts, helmValuesOf), so a chart's values are read once; without it, from `text`.
   */
  helmValues?(path: string): HelmValuesReading | undefined;
}

/** A values file as Helm reads it, or go-yaml's error. */
export type HelmValuesReading = { ok: true; values: TValue } | { ok: false; error: string };

export interface Chart {
  /** The chart directory, '' at the workspace root. */
  dir: string;
  name: string;
  valuesFile: string;
  /** The parsed values, or go-yaml's error for a broken values file. */
  values: TValue;
  valuesError?: string;
  metadata: GoStruct;
  /** Named templates from every template of the chart and of the dependencies found; the last definition wins, as in Helm. */
  defines: Map<string, DefinedTemplate>;
  /** Dependencies of Chart.yaml whose chart is not in the workspace: their named templates are unknown. */
  missingDependencies: string[];
  trees: Map<string, TemplateTree>;
}

const join = (dir: string, name: string) => (dir === '' ? name : `${dir}/${name}`);

/** The chart directory of a template: the nearest `…/templates/` whose parent holds `Chart.yaml`. */
export function chartDirOf(file: string, files: ChartFiles): string | undefined {
  const parts = file.split('/');
  for (let i = parts.length - 2; i >= 0; i--) {
    if (parts[i] !== 'templates') continue;
    const dir = parts.slice(0, i).join('/');
    if (files.text(join(dir, 'Chart.yaml')) !== undefined) return dir;
  }
  return undefined;
}

/** The name Helm gives a template in errors: `<chart>/templates/x.yaml`. */
export function templateName(chart: Pick<Chart, 'dir' | 'name'>, file: string): string {
  return `${chart.name}/${chart.dir === '' ? file : file.slice(chart.dir.length + 1)}`;
}

export function loadChart(dir: string, files: ChartFiles): Chart {
  const chartYaml = files.text(join(dir, 'Chart.yaml'));
  const metadata = chartMetadataOf(chartYaml);
  const name = metadata.fields.get('Name');
  const valuesFile = join(dir, 'values.yaml');
  const read = valuesReading(valuesFile, files);
  let values: TValue = new GoMap(true);
  let valuesError: string | undefined;
  if (read !== undefined) {
    if (read.ok) values = read.values;
    else {
      valuesError = read.error;
      values = new Unknown(`values.yaml does not parse: ${read.error}`);
    }
  }
  const trees = new Map<string, TemplateTree>();
  const defines = new Map<string, DefinedTemplate>();
  const missingDependencies: string[] = [];
  // Dependencies first: the chart's own definitions win over a library chart's.
  for (const dependency of dependenciesOf(chartYaml)) {
    const found = dependencyDir(dir, dependency, files);
    if (found === undefined) missingDependencies.push(dependency.name);
    else readTemplates(found, files, trees, defines);
  }
  readTemplates(dir, files, trees, defines);
  return { dir, name: typeof name === 'string' && name !== '' ? name : dir.split('/').pop() || 'chart', valuesFile, values, valuesError, metadata, defines, missingDependencies, trees };
}

function readTemplates(dir: string, files: ChartFiles, trees: Map<string, TemplateTree>, defines: Map<string, DefinedTemplate>): void {
  const templatesDir = join(dir, 'templates');
  const templateFiles = files.list ? files.list(templatesDir).filter((f) => /\.(ya?ml|tpl|txt)$/i.test(f)) : [join(templatesDir, '_helpers.tpl')];
  for (const file of [...templateFiles].sort()) {
    const text = files.text(file);
    if (text === undefined) continue;
    const tree = analyzeTemplate(file, text).tree;
    trees.set(file, tree);
    for (const define of tree.defines) defines.set(define.name, define);
  }
}

interface Dependency {
  name: string;
  repository: string;
}

/** The `dependencies` of a Chart.yaml text. */
function dependenciesOf(chartYaml: string | undefined): Dependency[] {
  const list = readYamlMap(chartYaml).get('dependencies');
  if (!Array.isArray(list)) return [];
  return list.flatMap((entry) => {
    if (!(entry instanceof GoMap)) return [];
    const name = entry.get('name');
    const repository = entry.get('repository');
    return typeof name === 'string' && name !== '' ? [{ name, repository: typeof repository === 'string' ? repository : '' }] : [];
  });
}

/**
 * Where a dependency's chart is in the workspace: a `file://` repository relative to the chart,
 * a vendored `charts/<name>/`, or a sibling chart of that name (a repository of charts whose
 * library chart sits beside them, as bitnami/charts' `common` does).
 */
function dependencyDir(dir: string, dependency: Dependency, files: ChartFiles): string | undefined {
  const parent = dir.includes('/') ? dir.slice(0, dir.lastIndexOf('/')) : '';
  const candidates: Array<string | undefined> = [join(dir, `charts/${dependency.name}`), join(parent, dependency.name)];
  if (dependency.repository.startsWith('file://')) candidates.unshift(normalize(join(dir, dependency.repository.slice('file://'.length))));
  return candidates.find((candidate): candidate is string => candidate !== undefined && candidate !== dir && files.text(join(candidate, 'Chart.yaml')) !== undefined);
}

/** `a/b/../c` → `a/c`; undefined when the path leaves the workspace. */
function normalize(path: string): string | undefined {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(part);
  }
  return out.join('/');
}

function readYamlMap(text: string | undefined): GoMap {
  if (text === undefined) return new GoMap(true);
  const read = yamlToJson(text);
  return read.ok && read.value instanceof GoMap ? read.value : new GoMap(true);
}

/** Chart.yaml fields as `.Chart` exposes them; sigs.k8s.io/yaml turns numbers into strings (`1.10` → "1.1"). */
const metadataFields: Array<[string, string]> = [
  ['name', 'Name'],
  ['version', 'Version'],
  ['appVersion', 'AppVersion'],
  ['description', 'Description'],
  ['type', 'Type'],
  ['kubeVersion', 'KubeVersion'],
  ['home', 'Home'],
  ['icon', 'Icon'],
  ['apiVersion', 'APIVersion'],
];

/** `.Chart` as Helm fills it from a Chart.yaml's text. */
export function chartMetadataOf(text: string | undefined): GoStruct {
  return chartMetadata(readYamlMap(text));
}

function chartMetadata(map: GoMap): GoStruct {
  const fields = new Map<string, TValue>();
  for (const [json, field] of metadataFields) fields.set(field, coerceString(map.get(json) ?? null));
  fields.set('Deprecated', map.get('deprecated') === true);
  const annotations = map.get('annotations');
  fields.set('Annotations', annotations instanceof GoMap ? fromJsonable(annotations) : new GoMap(true));
  const keywords = map.get('keywords');
  fields.set('Keywords', Array.isArray(keywords) ? fromJsonable(keywords) : []);
  return new GoStruct('*chart.Metadata', fields);
}

function coerceString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof GoInt) return value.value.toString();
  if (value instanceof GoFloat) return formatFloat32G(value.value);
  return '';
}

/**
 * The chart with another values file on top of values.yaml, as `helm template -f FILE`
 * coalesces them: maps merge key by key, the file's scalars and lists win, null deletes.
 */
export function withValuesFile(chart: Chart, file: string, files: ChartFiles): Chart {
  const read = valuesReading(file, files);
  if (read === undefined) return { ...chart, valuesFile: file, values: new Unknown(`${file} cannot be read`) };
  if (!read.ok) return { ...chart, valuesFile: file, valuesError: read.error, values: new Unknown(`${file} does not parse: ${read.error}`) };
  return { ...chart, valuesFile: file, valuesError: undefined, values: coalesce(chart.values, read.values) };
}

function valuesReading(path: string, files: ChartFiles): HelmValuesReading | undefined {
  if (files.helmValues) return files.helmValues(path);
  const text = files.text(path);
  return text === undefined ? undefined : readHelmValues(text);
}

/** A values file as Helm reads it (sigs.k8s.io/yaml: YAML 1.1, numbers float64); empty is an empty map. */
export function readHelmValues(text: string): HelmValuesReading {
  const read = yamlToJson(text);
  if (!read.ok) return { ok: false, error: read.error };
  return { ok: true, values: read.value === null ? new GoMap(true) : fromJsonable(read.value) };
}

export function coalesce(base: TValue, overlay: TValue): TValue {
  if (!(base instanceof GoMap) || !(overlay instanceof GoMap)) return overlay;
  const merged = new GoMap(true);
  for (const [key, value] of base.entries) merged.set(key, value);
  for (const [key, value] of overlay.entries) {
    const at = merged.entries.findIndex(([k]) => k === key);
    if (value === null) {
      if (at >= 0) merged.entries.splice(at, 1);
      continue;
    }
    merged.set(key, at >= 0 ? (coalesce(merged.entries[at][1] as TValue, value as TValue) as typeof value) : value);
  }
  return merged;
}
