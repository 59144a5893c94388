/**
 * The extension host's test entry (`extensionTestsPath`): runs one `*.test.js` next to this file
 * (RENDER_LENS_E2E_SUITE, default `extension`) with mocha's tdd interface and rejects when a
 * test fails, so the host exits with 1.
 */
import * as fs from 'fs';
import * as path from 'path';
import { format } from 'util';

// mocha 12 is an ES module; its CommonJS build loads in any extension host's Node.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Mocha = require('mocha/lib/mocha.cjs') as typeof import('mocha');

export function run(): Promise<void> {
  // Under code-server the host's console only reaches the browser's log, unformatted; the
  // e2e runner shows the reporter's lines from this file instead.
  const channel = process.env.RENDER_LENS_E2E_DIR;
  if (channel) {
    const base = Mocha.reporters.Base as unknown as { consoleLog: (...args: unknown[]) => void };
    const original = base.consoleLog;
    base.consoleLog = (...args: unknown[]) => {
      fs.appendFileSync(path.join(channel, 'mocha.log'), format(...args) + '\n');
      original(...args);
    };
  }
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 60_000, reporter: 'spec' });
  // Each suite needs its own workspace: the runner names the one it opened (the demo by default).
  const suite = `${process.env.RENDER_LENS_E2E_SUITE ?? 'extension'}.test.js`;
  if (!fs.existsSync(path.join(__dirname, suite))) return Promise.reject(new Error(`no suite ${suite} in ${__dirname}`));
  mocha.addFile(path.join(__dirname, suite));
  return new Promise((resolve, reject) => {
    try {
      mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} test(s) failed`)) : resolve()));
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}
