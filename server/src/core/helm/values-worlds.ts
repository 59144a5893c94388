/**
 * The values a chart's own repository renders it with: `values.yaml`, and each values file
 * under the chart's `ci/` folder (chart-testing installs the chart once per file, on top of
 * values.yaml). Each is a world the values-aware judgement renders an action in; a value
 * keeps the file that sets it, so a message can point at the entry to change.
 */
import { isMap, isScalar, parseDocument, type Node } from 'yaml';
import { LineIndex } from '../positions';
import { GoMap } from '../goyaml/v2/value';
import { coalesce, readHelmValues, type HelmValuesReading } from './chart';
import type { ChartReader } from './include-sites';
import { Unknown, type TValue } from './values';

export interface ValuesWorld {
  /** values.yaml, or the ci/ file laid over it. */
  file: string;
  values: TValue;
  /** The ci/ file's own values, to tell which file sets an entry. */
  overlay?: TValue;
  /** The chart's values.yaml, where entries the overlay does not set come from. */
  base: string;
}

/** A values entry: the file that sets it and its key path (list items by index). */
export interface ValuesEntry {
  file: string;
  path: ReadonlyArray<string | number>;
}

const join = (dir: string, name: string) => (dir === '' ? name : `${dir}/${name}`);

/** values.yaml first, then one world per `ci/*.yaml` of the chart, in name order. */
export function valuesWorlds(context: Pick<ChartReader, 'derived' | 'filesUnder' | 'shared'>, dir: string): ValuesWorld[] {
  return context.shared(`helm-values-worlds:${dir}`, () => {
    const base = join(dir, 'values.yaml');
    const values = valuesOf(helmValuesOf(context, base)) ?? new GoMap(true);
    const worlds: ValuesWorld[] = [{ file: base, values, base }];
    const ci = `${join(dir, 'ci')}/`;
    for (const file of [...context.filesUnder(join(dir, 'ci'))].sort()) {
      if (!file.startsWith(ci) || file.slice(ci.length).includes('/') || !/\.ya?ml$/i.test(file)) continue;
      const overlay = valuesOf(helmValuesOf(context, file));
      if (overlay === undefined || overlay instanceof Unknown) continue;
      worlds.push({ file, values: coalesce(values, overlay), overlay, base });
    }
    return worlds;
  });
}

/** A values file as Helm reads it, read once per file version for every judgement, hover and chart load. */
export function helmValuesOf(context: Pick<ChartReader, 'derived'>, file: string): HelmValuesReading | undefined {
  return context.derived(file, 'helm-values', readHelmValues);
}

/** The values of a reading; Unknown when the file does not parse. */
function valuesOf(read: HelmValuesReading | undefined): TValue | undefined {
  if (read === undefined) return undefined;
  return read.ok ? read.values : new Unknown(`the values file does not parse: ${read.error}`);
}

/** The file of `world` that sets `path`: the ci/ overlay when it has the key, else values.yaml. */
export function entryFile(world: ValuesWorld, path: ReadonlyArray<string | number>): string {
  if (world.overlay === undefined) return world.base;
  let value: TValue | undefined = world.overlay;
  for (const step of path) {
    if (typeof step === 'number') value = Array.isArray(value) ? value[step] : undefined;
    else value = value instanceof GoMap ? (value.get(step) as TValue | undefined) : undefined;
    if (value === undefined) return world.base;
  }
  return world.file;
}

/** The 1-based line of the entry's key in its file (the list's key for an item), when found. */
export function entryLine(context: Pick<ChartReader, 'derived'>, entry: ValuesEntry): number | undefined {
  const found = context.derived(entry.file, 'helm-values-document', (text) => ({ document: parseDocument(text), lines: new LineIndex(text) }));
  if (!found) return undefined;
  let node: Node | null | undefined = found.document.contents as Node | null;
  let start: number | undefined;
  for (const step of entry.path) {
    if (typeof step === 'number' || !isMap(node)) break;
    const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === step);
    if (!pair || !isScalar(pair.key) || !pair.key.range) return undefined;
    start = pair.key.range[0];
    node = pair.value as Node | null;
  }
  return start === undefined ? undefined : found.lines.positionAt(start).line + 1;
}

/** `.Values.a.b[0].c`: an entry's path as a template reads it. */
export function entryName(entry: ValuesEntry): string {
  return `.Values${entry.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('')}`;
}
