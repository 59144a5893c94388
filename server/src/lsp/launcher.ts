/**
 * `render-lens-server`: starts the language server (server.js, next to this file) in a node
 * process with the options it is meant to run with (node-options.ts), which V8 takes only
 * from the command line, and a bin's `#!/usr/bin/env node` line cannot carry them on every
 * platform. The server inherits the editor's stdin, stdout and stderr, so messages never pass
 * through this process: it only waits, passes stop signals on, and exits as the server did.
 *
 * Under `--node-ipc` the channel to the editor belongs to this process, so the server runs
 * here, without the options.
 */
import { spawn } from 'child_process';
import * as path from 'path';
import { serverNodeOptions } from './node-options';

const server = path.join(__dirname, 'server.js');
const args = process.argv.slice(2);

if (args.includes('--node-ipc')) {
  require(server);
} else {
  const child = spawn(process.execPath, [...serverNodeOptions, server, ...args], { stdio: 'inherit' });
  const signals: NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];
  for (const signal of signals) process.on(signal, () => child.kill(signal));
  child.on('error', (error) => {
    process.stderr.write(`render-lens-server: could not start ${server}: ${error.message}\n`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    // A server ended by a signal ends this process the same way, once its handlers are gone.
    if (signal) {
      for (const name of signals) process.removeAllListeners(name);
      process.kill(process.pid, signal);
      return;
    }
    process.exit(code ?? 1);
  });
}
