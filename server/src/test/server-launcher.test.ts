/**
 * `render-lens-server`, the launcher an editor other than VS Code runs: it starts the built
 * server with the node options it is meant to have, and to the editor it must behave as the
 * server itself would: the same messages, the same exit, gone when told to stop.
 */
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import { ProbeClient } from './support/probe-client';
import { fixturesDir } from './support/paths';

const root = path.join(fixturesDir, 'demo');
const manifest = 'apps/postgres/migrations.yaml';

/** The server's own process id and young generation, from its debug log line at start. */
function serverProcess(client: ProbeClient): { pid: number; youngGeneration: string } {
  const line = client.log.find((entry) => entry.includes('V8 young generation'));
  const match = /process (\d+), .*V8 young generation: (.+)$/.exec(line ?? '');
  assert.ok(match, `no start line in the log:\n${client.log.join('\n')}`);
  return { pid: Number(match[1]), youngGeneration: match[2] };
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

suite('render-lens-server (the launcher)', () => {
  test('runs the server with 4 MB semi-spaces, which the bare bundle does not get', async () => {
    for (const [script, expected] of [
      ['server-launcher.js', '4 MB semi-spaces'],
      ['server.js', '1 MB semi-spaces'],
    ] as const) {
      const client = await ProbeClient.start(root, { RENDER_LENS_LOG: 'debug' }, undefined, script);
      try {
        assert.equal(serverProcess(client).youngGeneration, expected, script);
      } finally {
        client.kill();
      }
    }
  });

  test("passes the server's diagnostics on, and its exit code", async () => {
    const client = await ProbeClient.start(root, { RENDER_LENS_LOG: 'debug' }, undefined, 'server-launcher.js');
    try {
      const published = await client.open(client.uriOf(root, manifest), fs.readFileSync(path.join(root, manifest), 'utf8'));
      assert.deepEqual(published.diagnostics.map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.code}`).sort(), ['17:14 ENVSUBST-PARSE', '21:57 DOLLAR-COLLAPSE', '21:8 DOLLAR-COLLAPSE']);
      assert.equal(await client.stop(), 0);
    } finally {
      client.kill();
    }
    // LSP: `exit` without `shutdown` first ends the server with code 1.
    const abrupt = await ProbeClient.start(root, {}, undefined, 'server-launcher.js');
    assert.equal(await abrupt.exitAbruptly(), 1);
  });

  test('a stop signal ends the server with it', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const client = await ProbeClient.start(root, { RENDER_LENS_LOG: 'debug' }, undefined, 'server-launcher.js');
      const { pid } = serverProcess(client);
      assert.ok(isRunning(pid), 'the server is not running');
      await client.signal(signal);
      assert.equal(client.exitSignal, signal);
      assert.equal(isRunning(pid), false, `the server outlived the launcher after ${signal}`);
    }
  });
});
