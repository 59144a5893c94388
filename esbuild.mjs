// Bundles the extension client, the language server and the CLI into dist/.
// Type checking is tsc's job (`tsc -b`); esbuild only bundles, so a build stays fast.
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

const common = {
  bundle: true,
  // The `yaml` package's Node build reads `process.env` on every token (a debug switch); its
  // browser build is the same code without that, and parses faster (0.6-0.9x the time in
  // `npm run bench`, parse section). The builds differ only there, in how a warning is printed
  // and in !!binary (yaml-1.1 schema only), which nothing here uses.
  alias: { yaml: './node_modules/yaml/browser/index.js' },
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
};

// The field-type table (server/src/core/kube/generated/schema-table.ts) is made from the
// Kubernetes schema the kubernetes-models packages ship (server/src/tools/field-types), before
// type checking reads it: `npm run build` runs `node esbuild.mjs --schema-table` first. It is
// made again only when the packages or the generator change. The packages live in their own
// folder, server/schema-sources (they declare Node >=22 and are only read as files), installed
// from its lockfile the first time the table is made.
const schemaTable = 'server/src/core/kube/generated/schema-table.ts';
const schemaSources = 'server/schema-sources';
const schemaInputs = [`${schemaSources}/package-lock.json`, 'server/src/tools/field-types/generate.ts', 'server/src/core/kube/schema-encoding.ts', 'esbuild.mjs'];

async function ensureSchemaTable() {
  const made = fs.existsSync(schemaTable) ? fs.statSync(schemaTable).mtimeMs : 0;
  if (schemaInputs.every((file) => fs.statSync(file).mtimeMs <= made)) return;
  const installed = `${schemaSources}/node_modules/.package-lock.json`;
  if (!fs.existsSync(installed) || fs.statSync(installed).mtimeMs < fs.statSync(`${schemaSources}/package-lock.json`).mtimeMs) {
    // Their engines field asks for Node 22; they are data here, so its warning is noise.
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error', '--engine-strict=false'], { cwd: schemaSources, stdio: 'inherit' });
  }
  // Bundled next to node_modules so that its one external, typescript, resolves.
  const generator = 'node_modules/.cache/render-lens/generate-schema-table.mjs';
  await esbuild.build({ entryPoints: ['server/src/tools/field-types/generate.ts'], outfile: generator, bundle: true, platform: 'node', format: 'esm', target: 'node20', external: ['typescript'], logLevel: 'warning' });
  const { writeSchemaTable } = await import(`${pathToFileURL(generator).href}?${Date.now()}`);
  const started = performance.now();
  const written = await writeSchemaTable(path.resolve(schemaSources), schemaTable);
  console.log(`schema table: ${written.kinds} kinds, ${written.definitions} definitions, ${Math.round(written.bytes / 1024)} KiB, in ${Math.round(performance.now() - started)} ms`);
}

await ensureSchemaTable();
if (process.argv.includes('--schema-table')) process.exit(0);

const builds = [
  // VS Code provides `vscode` at run time; it must never be bundled.
  { ...common, entryPoints: ['client/src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  { ...common, entryPoints: ['server/src/lsp/main.ts'], outfile: 'dist/server.js', banner: { js: '#!/usr/bin/env node' } },
  // `render-lens-server` is a launcher that starts server.js with the node options it needs (server/src/lsp/launcher.ts).
  { ...common, entryPoints: ['server/src/lsp/launcher.ts'], outfile: 'dist/server-launcher.js', banner: { js: '#!/usr/bin/env node' } },
  // `render-lens` is a launcher that loads the CLI bundle with V8's code cache (server/src/cli/launcher.ts).
  { ...common, entryPoints: ['server/src/cli/launcher.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
  { ...common, entryPoints: ['server/src/cli/main.ts'], outfile: 'dist/cli-main.js' },
];

if (watch) {
  for (const options of builds) await (await esbuild.context(options)).watch();
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
