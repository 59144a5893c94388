/**
 * `render-lens-server`, the launcher an editor other than VS Code runs: it starts the built
 * server with the node options it is meant to have, and to the editor it must behave as the
 * server itself would: the same messages, the same exit, gone when told to stop or when the
 * launcher is killed outright.
 */
import * as assert from 'assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { serverNodeOptions } from '../runtime/node-options';
import { ProbeClient } from './support/probe-client';
import { fixturesDir, projectRoot } from './support/paths';

const root = path.join(fixturesDir, 'demo');
const manifest = 'apps/postgres/migrations.yaml';
const launcherScript = path.join(projectRoot, 'dist', 'server-launcher.js');

/** The server's young generation, from its debug log line at start. */
function youngGeneration(client: ProbeClient): string {
  const line = client.log.find((entry) => entry.includes('V8 young generation'));
  const match = /V8 young generation: (.+)$/.exec(line ?? '');
  assert.ok(match, `no start line in the log:\n${client.log.join('\n')}`);
  return match[1];
}

suite('render-lens-server (the launcher)', () => {
  test('runs the server with the semi-spaces of node-options.ts, which the bare bundle does not get', async () => {
    const size = serverNodeOptions.find((option) => option.startsWith('--min-semi-space-size='))?.split('=')[1];
    assert.equal(size, '6');
    for (const script of ['server-launcher.js', 'server.js'] as const) {
      const client = await ProbeClient.start(root, { RENDER_LENS_LOG: 'debug' }, undefined, script);
      try {
        if (script === 'server-launcher.js') assert.equal(youngGeneration(client), `${size} MB semi-spaces`);
        else assert.notEqual(youngGeneration(client), `${size} MB semi-spaces`);
      } finally {
        client.kill();
      }
    }
  });

  test("passes the server's diagnostics on, and its exit code", async () => {
    const client = await ProbeClient.start(root, {}, undefined, 'server-launcher.js');
    try {
      const published = await client.open(client.uriOf(root, manifest), fs.readFileSync(path.join(root, manifest), 'utf8'));
      assert.deepEqual(published.diagnostics.map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.code}`).sort(), ['17:14 ENVSUBST-PARSE', '21:57 DOLLAR-COLLAPSE', '21:8 DOLLAR-COLLAPSE']);
      assert.equal(await client.stop(), 0);
    } finally {
      client.kill();
    }
    // LSP: `exit` without `shutdown` first ends the server with code 1.
    const abrupt = await ProbeClient.start(root, {}, undefined, 'server-launcher.js');
    try {
      assert.equal(await abrupt.exit(), 1);
    } finally {
      abrupt.kill();
    }
  });

  test('started without a transport, it says which it takes instead of failing with a stack trace', () => {
    for (const [args, status] of [
      [[], 2],
      [['--help'], 0],
    ] as const) {
      const run = spawnSync(process.execPath, [launcherScript, ...args], { encoding: 'utf8', timeout: 20_000 });
      assert.equal(run.status, status, run.stderr);
      const said = run.stdout + run.stderr;
      assert.match(said, /^render-lens-server \S+: the Render Lens language server\. .*--stdio, --node-ipc, --socket=PORT or --pipe=NAME/);
      assert.equal(said.split('\n').length, 2, said);
    }
  });

  suite('its process (Linux: found through /proc)', function () {
    suiteSetup(function () {
      if (process.platform !== 'linux') this.skip();
    });

    test('a stop signal ends the server before the launcher', async () => {
      for (const signal of ['SIGTERM', 'SIGINT'] as const) {
        await withHeldLauncher([], async ({ launcher, server, exited }) => {
          launcher.kill(signal);
          assert.deepEqual(await exited, { code: null, signal });
          assert.equal(isRunning(server), false, `the server outlived the launcher after ${signal}`);
        });
      }
    });

    test('killed outright, the launcher takes the server with it', async () => {
      await withHeldLauncher([], async ({ launcher, server, exited }) => {
        launcher.kill('SIGKILL');
        await exited;
        await waitFor(() => !isRunning(server), 'the server to end after its launcher was killed');
      });
    });

    test('node options given to the launcher reach the server, after its own', async () => {
      await withHeldLauncher(['--max-old-space-size=333'], async ({ server }) => {
        const command = commandOf(server);
        const own = serverNodeOptions.length;
        assert.deepEqual(command.slice(1, own + 2), [...serverNodeOptions, '--max-old-space-size=333']);
        assert.deepEqual(command.slice(own + 2, own + 4), [path.join(projectRoot, 'dist', 'server.js'), '--stdio']);
      });
    });
  });
});

interface HeldLauncher {
  launcher: ChildProcess;
  /** The server's process id. */
  server: number;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Runs the launcher with its stdin on a FIFO this test keeps open for writing: its input never
 * ends, so only a signal or the server's own check can end the server. Cleans up after `body`.
 */
async function withHeldLauncher(nodeOptions: string[], body: (held: HeldLauncher) => Promise<void>): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'render-lens-launcher-'));
  const fifo = path.join(dir, 'stdin');
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0, 'mkfifo failed');
  // Read and write: opening does not wait for a writer, and this one keeps the FIFO open.
  const stdin = fs.openSync(fifo, fs.constants.O_RDWR);
  const launcher = spawn(process.execPath, [...nodeOptions, launcherScript, '--stdio'], { stdio: [stdin, 'ignore', 'pipe'] });
  const stderr: string[] = [];
  launcher.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => launcher.once('exit', (code, signal) => resolve({ code, signal })));
  let server: number | undefined;
  try {
    await waitFor(() => (server = childOf(launcher.pid!)) !== undefined, `the launcher to start the server (stderr: ${stderr.join('')})`);
    await body({ launcher, server: server!, exited });
  } finally {
    if (launcher.exitCode === null && launcher.signalCode === null) launcher.kill('SIGKILL');
    if (server !== undefined && isRunning(server)) process.kill(server, 'SIGKILL');
    fs.closeSync(stdin);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The server process whose parent is `parent` (once it runs server.js, not while it is still a copy of its parent), from /proc. */
function childOf(parent: number): number | undefined {
  for (const pid of fs.readdirSync('/proc')) {
    if (/^\d+$/.test(pid) && statOf(Number(pid))?.parent === parent && commandOf(Number(pid)).includes(path.join(projectRoot, 'dist', 'server.js'))) return Number(pid);
  }
  return undefined;
}

function commandOf(pid: number): string[] {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
}

/** A process that has not ended: a zombie has (its new parent may never collect it). */
function isRunning(pid: number): boolean {
  const stat = statOf(pid);
  return stat !== undefined && stat.state !== 'Z';
}

function statOf(pid: number): { state: string; parent: number } | undefined {
  try {
    // pid (comm) state ppid …; comm may hold spaces and parentheses, so read after the last `)`.
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, parent] = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state, parent: Number(parent) };
  } catch {
    return undefined;
  }
}

/** Checks `done` until it holds; fails after 10 s. (No event says that another process ended.) */
async function waitFor(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!done()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
