/**
 * Timing helpers and the tables the bench prints. A budget miss is printed as OVER, never
 * thrown: a bench reports, it does not fail a build.
 */

export interface BenchOptions {
  /** Skip the largest sizes (50k-line manifests, the 10,000-file repository). */
  quick: boolean;
}

/** How rss-probe.ts labels the peak RSS it prints on exit. */
export const rssMarker = 'render-lens-bench-max-rss-kb';

/** Wall-clock milliseconds of `work`. */
export function timeMs(work: () => void): number {
  const start = process.hrtime.bigint();
  work();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export async function timeMsAsync<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = process.hrtime.bigint();
  const value = await work();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, value };
}

/** The fastest of `runs` timings (after `warmups` untimed runs): the least disturbed by the machine. */
export function bestOf(runs: number, work: () => void, warmups = 1): number {
  for (let i = 0; i < warmups; i++) work();
  let best = Infinity;
  for (let i = 0; i < runs; i++) best = Math.min(best, timeMs(work));
  return best;
}

/**
 * The fastest timing of each of `works`, run in turn `runs` times (after one untimed round):
 * a ratio of two of them then compares timings from the same spells of the machine, which
 * moves by a third from one minute to the next.
 */
export function bestOfEach(runs: number, works: ReadonlyArray<() => void>): number[] {
  works.forEach((work) => work());
  const best = works.map(() => Infinity);
  for (let i = 0; i < runs; i++) works.forEach((work, w) => (best[w] = Math.min(best[w], timeMs(work))));
  return best;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function ms(value: number): string {
  return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : value >= 10 ? `${value.toFixed(0)} ms` : `${value.toFixed(1)} ms`;
}

export function mb(bytes: number): string {
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(bytes >= 100 * 1024 * 1024 ? 0 : 1)} MB`;
}

export interface Row {
  what: string;
  value: string;
  budget?: string;
  /** undefined: no budget, just a figure. */
  pass?: boolean;
  note?: string;
  /** The raw figures of a budget row, for the JSON results. */
  measured?: number;
  limit?: number;
}

/** Every row printed in this run, by section, for the JSON results (main.ts writes them). */
export const recorded: Array<Row & { section: string }> = [];
let currentSection = '';

export function beginSection(name: string): void {
  currentSection = name;
}

/** A budget row: `measured` against `limit` (both in the same unit), PASS when within it. */
export function budgetRow(what: string, measured: number, limit: number, format: (n: number) => string, note?: string): Row {
  return { what, value: format(measured), budget: `≤ ${format(limit)}`, pass: measured <= limit, note, measured, limit };
}

/** Plain columns, padded; PASS/OVER last so a reader's eye finds them. */
export function table(rows: readonly Row[]): string[] {
  for (const row of rows) recorded.push({ section: currentSection, ...row });
  const header = { what: 'measure', value: 'value', budget: 'budget', verdict: '', note: '' };
  const cells = rows.map((r) => ({ what: r.what, value: r.value, budget: r.budget ?? '', verdict: r.pass === undefined ? '' : r.pass ? 'PASS' : 'OVER', note: r.note ?? '' }));
  const all = [header, ...cells];
  const width = (key: keyof typeof header) => Math.max(...all.map((c) => c[key].length));
  const widths = { what: width('what'), value: width('value'), budget: width('budget'), verdict: Math.max(4, width('verdict')) };
  const line = (c: (typeof all)[number]) =>
    `${c.what.padEnd(widths.what)}  ${c.value.padStart(widths.value)}  ${c.budget.padEnd(widths.budget)}  ${c.verdict.padEnd(widths.verdict)}  ${c.note}`.trimEnd();
  return [line(header), '-'.repeat(widths.what + widths.value + widths.budget + widths.verdict + 8), ...cells.map(line)];
}
