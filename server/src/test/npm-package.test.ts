/**
 * The npm package, as README's install instructions use it: `npm pack` (which builds the minified
 * bundles first, `prepack`), then `npm install -g ./render-lens-<version>.tgz` into a temporary
 * prefix, offline and with an empty npm cache, so the tarball cannot lean on the registry: the
 * runtime libraries are inside the bundles. Then both bins run from that prefix as a user's shell
 * would start them. Afterwards the development bundle is rebuilt (`node esbuild.mjs`).
 */
import * as assert from 'assert/strict';
import { spawn, spawnSync, type SpawnSyncOptions } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { pathToFileURL } from 'url';
import { createProtocolConnection, ExitNotification, InitializeRequest, ShutdownRequest, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node';
import { version } from '../version';
import { fixturesDir, projectRoot } from './support/paths';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(command: string, args: string[], options: SpawnSyncOptions = {}): string {
  const result = spawnSync(command, args, { cwd: projectRoot, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, shell: process.platform === 'win32', ...options });
  assert.equal(result.status, 0, `${command} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`);
  return String(result.stdout);
}

suite('package: the npm tarball, installed globally', function () {
  this.timeout(240_000);
  let scratch = '';
  let tarball = '';
  let bin = '';
  /** The installed bins find `node` on PATH (`#!/usr/bin/env node`), as in a user's shell. */
  let env: NodeJS.ProcessEnv = {};

  suiteSetup(() => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'render-lens-npm-'));
    const packed = JSON.parse(run(npm, ['pack', '--json', '--pack-destination', scratch])) as Array<{ filename: string }>;
    tarball = path.join(scratch, packed[0].filename);
    const prefix = path.join(scratch, 'prefix');
    run(npm, ['install', '--global', '--prefix', prefix, '--offline', '--cache', path.join(scratch, 'npm-cache'), '--no-audit', '--no-fund', tarball], { cwd: scratch });
    bin = process.platform === 'win32' ? prefix : path.join(prefix, 'bin');
    env = { ...process.env, PATH: [bin, path.dirname(process.execPath), process.env.PATH].join(path.delimiter), RENDER_LENS_CACHE_DIR: path.join(scratch, 'cache') };
  });

  suiteTeardown(() => {
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
    run(process.execPath, ['esbuild.mjs']);
  });

  test('the tarball is named for the version and holds what the .vsix holds (package.json `files`), with no dependencies to fetch', () => {
    assert.equal(path.basename(tarball), `render-lens-${version}.tgz`);
    const listed = JSON.parse(run(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'])) as Array<{ files: Array<{ path: string }> }>;
    assert.deepEqual(listed[0].files.map((file) => file.path).sort(), [
      'CHANGELOG.md', 'LICENSE', 'README.md', 'dist/cli-main.js', 'dist/cli.js', 'dist/extension.js', 'dist/server-launcher.js', 'dist/server.js', 'images/icon.png', 'package.json',
      'server/schemas/render-lens.schema.json', 'syntaxes/render-lens.flux-envsubst.injection.tmLanguage.json', 'syntaxes/render-lens.go-template.injection.tmLanguage.json',
      'walkthrough/checks.md', 'walkthrough/clusters.md', 'walkthrough/hover.md',
    ]);
    const manifest = JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(manifest.dependencies, undefined, 'every runtime library is bundled into dist/');
  });

  test('`render-lens` runs from the prefix: its version, and a check of the demo repository', () => {
    assert.equal(run('render-lens', ['--version'], { env, cwd: scratch }), `render-lens ${version}\n`);
    const demo = path.join(scratch, 'demo');
    fs.cpSync(path.join(fixturesDir, 'demo'), demo, { recursive: true });
    const check = spawnSync('render-lens', ['check', '--no-color'], { cwd: demo, env, encoding: 'utf8', shell: process.platform === 'win32' });
    assert.equal(check.status, 1, check.stderr);
    assert.match(check.stdout, /apps\/postgres\/migrations\.yaml:17:14: error ENVSUBST-PARSE: /);
  });

  test('`render-lens-server --stdio` from the prefix answers an LSP initialize and shuts down cleanly', async () => {
    const child = spawn('render-lens-server', ['--stdio'], { cwd: scratch, env, stdio: ['pipe', 'pipe', 'pipe'], shell: process.platform === 'win32' });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    connection.listen();
    try {
      const root = path.join(fixturesDir, 'demo');
      const result = await connection.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: pathToFileURL(root).href, workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'demo' }], capabilities: {} });
      assert.deepEqual(result.serverInfo, { name: 'render-lens', version });
      assert.ok(result.capabilities.hoverProvider, 'the server says it answers hovers');
      assert.ok(result.capabilities.codeActionProvider, 'the server says it offers code actions');
      await connection.sendRequest(ShutdownRequest.type);
      await connection.sendNotification(ExitNotification.type);
      assert.equal(await exited, 0, stderr);
    } finally {
      connection.dispose();
      child.kill();
    }
  });
});
