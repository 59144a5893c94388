/**
 * `render-lens-server`: starts the language server (server.js, next to this file) in a node
 * process with the options it is meant to run with (node-options.ts), which V8 takes only
 * from the command line, and a bin's `#!/usr/bin/env node` line cannot carry them on every
 * platform. The server inherits the editor's stdin, stdout and stderr, so messages never pass
 * through this process, which never writes to stdout: it only waits, passes stop signals on,
 * and exits as the server did. Should it be killed outright, the server notices that it lost
 * its launcher and ends too (launched-server.ts).
 *
 * Node options given to this process (`node --inspect …`) go to the server as well, after
 * ours, so theirs win. A node that does not know one of our options refuses to start (exit
 * code 9, which the server never uses): the server is then started without them.
 *
 * Under `--node-ipc` the channel to the editor belongs to this process, so the server runs
 * here, without the options.
 */
import { spawn } from 'child_process';
import * as os from 'os';
import * as path from 'path';
import { launcherPidVariable } from './launched-server';
import { serverNodeOptions } from '../runtime/node-options';

const server = path.join(__dirname, 'server.js');
const args = process.argv.slice(2);
/** node's exit code for an option it does not know. */
const badOption = 9;
/** Stop signals, passed on to the server; where one cannot be sent (Windows), it is stopped. */
const stopSignals: NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];

function start(options: readonly string[]): void {
  const env = { ...process.env, [launcherPidVariable]: String(process.pid) };
  // Handled from before the server exists: a signal that comes while it starts is passed on once it does.
  const passOn = (signal: NodeJS.Signals) => {
    try {
      child.kill(signal);
    } catch {
      child.kill();
    }
  };
  for (const signal of stopSignals) process.on(signal, passOn);
  const child = spawn(process.execPath, [...options, ...process.execArgv, server, ...args], { stdio: 'inherit', env });
  child.on('error', (error) => {
    process.stderr.write(`render-lens-server: could not start ${server}: ${error.message}\n`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    for (const name of stopSignals) process.removeListener(name, passOn);
    if (code === badOption && options.length > 0) {
      process.stderr.write(`render-lens-server: this node does not take ${options.join(' ')}; the server runs without them\n`);
      start([]);
    } else if (signal && stopSignals.includes(signal)) {
      // Stopped by a signal: end the same way, now that nothing handles it here.
      process.kill(process.pid, signal);
    } else {
      // Any other signal (an abort, a crash) as a shell reports it, without dumping this process too.
      process.exit(signal ? 128 + (os.constants.signals[signal] ?? 0) : (code ?? 1));
    }
  });
}

if (args.includes('--node-ipc')) {
  require(server);
} else {
  start(serverNodeOptions);
}
