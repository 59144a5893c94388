/**
 * The field-type table (core/kube/schema-types.ts): how long a fresh process takes to load
 * and parse it, what its first lookups cost, and how much memory it holds once loaded, next
 * to what the engine alone holds. Measured in a child process each time, since a process
 * loads the table once.
 */
import { execFileSync } from 'child_process';
import * as path from 'path';
import { mb, median, ms, table, type BenchOptions, type Row } from './report';

interface Probe {
  requireMs: number;
  parseMs: number;
  lookupsMs: number;
  lookups: number;
  tableBytes: number;
  heapEngine: number;
  heapTable: number;
  rssEngine: number;
  rssTable: number;
}

// Runs in the child: plain JavaScript against the compiled core (server/out).
const probe = `
const collect = global.gc;
const now = () => Number(process.hrtime.bigint()) / 1e6;
collect();
let t = now(); const generated = require('./core/kube/generated/schema-table'); const requireMs = now() - t;
const schema = require('./core/kube/schema-types'); require('./core/engine');
collect(); const heapEngine = process.memoryUsage().heapUsed, rssEngine = process.memoryUsage().rss;
t = now(); schema.builtinSchema(); const parseMs = now() - t;
const paths = [['spec','replicas'], ['spec','template','spec','containers',0,'env',0,'value'], ['metadata','labels','app'], ['spec','chart','spec','version'], ['spec','schedule']];
const kinds = [['apps/v1','Deployment'], ['batch/v1','CronJob'], ['helm.toolkit.fluxcd.io/v2','HelmRelease'], ['v1','ConfigMap'], ['example.org/v1','Gadget']];
let lookups = 0; t = now();
for (let i = 0; i < 200; i++) for (const [apiVersion, kind] of kinds) for (const p of paths) { schema.fieldAt({ apiVersion, kind }, p); lookups++; }
const lookupsMs = now() - t;
collect(); const heapTable = process.memoryUsage().heapUsed, rssTable = process.memoryUsage().rss;
process.stdout.write(JSON.stringify({ requireMs, parseMs, lookupsMs, lookups, tableBytes: generated.SCHEMA_TABLE_JSON.length, heapEngine, heapTable, rssEngine, rssTable }));
`;

export async function benchSchema(options: BenchOptions): Promise<string[]> {
  const out = path.join(__dirname, '..');
  const runs: Probe[] = [];
  for (let i = 0; i < (options.quick ? 3 : 7); i++) runs.push(JSON.parse(execFileSync(process.execPath, ['--expose-gc', '-e', probe], { cwd: out, encoding: 'utf8' })) as Probe);
  const at = (pick: (p: Probe) => number) => median(runs.map(pick));
  const rows: Row[] = [
    { what: 'table size (JSON, in each bundle)', value: mb(runs[0].tableBytes) },
    { what: 'load: read the generated module', value: ms(at((p) => p.requireMs)), note: 'fresh process, median' },
    { what: 'load: parse the table (first lookup)', value: ms(at((p) => p.parseMs)), note: 'JSON.parse of one string' },
    { what: `lookups: ${runs[0].lookups} fields of 5 kinds`, value: ms(at((p) => p.lookupsMs)) },
    { what: 'heap: engine loaded, table not parsed', value: mb(at((p) => p.heapEngine)) },
    { what: 'heap: engine + table parsed', value: mb(at((p) => p.heapTable)), note: `+${mb(at((p) => p.heapTable - p.heapEngine))} for the parsed table` },
    { what: 'RSS: engine + table loaded', value: mb(at((p) => p.rssTable)), note: `engine alone ${mb(at((p) => p.rssEngine))}` },
  ];
  return table(rows);
}
