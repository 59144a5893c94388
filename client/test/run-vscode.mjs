#!/usr/bin/env node
/**
 * `npm run test:vscode`: the same mocha suite as `npm run test:e2e` (client/out-test/suite),
 * in a desktop VS Code that @vscode/test-electron downloads. For machines that can reach
 * update.code.visualstudio.com; on Linux without a display run it under `xvfb-run -a`.
 * The workbench (DOM) check of the e2e run is skipped here: there is no browser page.
 *
 *   VSCODE_TEST_VERSION  the VS Code to download (default: stable; `1.99.3` matches code-server 4.99.4)
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import testElectron from '@vscode/test-electron';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const testsEntry = path.join(root, 'client', 'out-test', 'suite', 'index.js');
for (const [file, hint] of [
  [path.join(root, 'dist', 'extension.js'), 'run `node esbuild.mjs`'],
  [testsEntry, 'run `npx tsc -p client/test`'],
]) {
  if (!fs.existsSync(file)) {
    console.error(`run-vscode: ${file} is missing: ${hint}`);
    process.exit(2);
  }
}

// A fresh copy of the demo repository and fresh user data for each run.
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'render-lens-vscode-'));
const workspace = path.join(scratch, 'demo');
fs.cpSync(path.join(root, 'test-fixtures', 'demo'), workspace, { recursive: true });
fs.mkdirSync(path.join(scratch, 'data', 'User'), { recursive: true });
fs.writeFileSync(
  path.join(scratch, 'data', 'User', 'settings.json'),
  JSON.stringify({ 'telemetry.telemetryLevel': 'off', 'update.mode': 'none', 'extensions.autoCheckUpdates': false, 'security.workspace.trust.enabled': false, 'workbench.startupEditor': 'none' }, null, 2),
);

let code = 1;
try {
  code = await testElectron.runTests({
    version: process.env.VSCODE_TEST_VERSION || 'stable',
    extensionDevelopmentPath: root,
    extensionTestsPath: testsEntry,
    launchArgs: [
      workspace,
      '--disable-extensions',
      '--disable-workspace-trust',
      '--skip-welcome',
      '--skip-release-notes',
      `--user-data-dir=${path.join(scratch, 'data')}`,
      `--extensions-dir=${path.join(scratch, 'extensions')}`,
    ],
  });
} catch (error) {
  console.error(`run-vscode: ${error?.message ?? error}`);
  if (/ENOTFOUND|EAI_AGAIN|ECONNREFUSED/.test(String(error?.message ?? error))) {
    console.error('run-vscode: VS Code cannot be downloaded here; use `npm run test:e2e` (code-server) instead.');
  }
  code = 1;
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}
process.exit(code);
