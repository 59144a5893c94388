/**
 * The extension host's test entry (`extensionTestsPath`): runs every `*.test.js` next to this
 * file with mocha's tdd interface and rejects when a test fails, so the host exits with 1.
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
  for (const name of fs.readdirSync(__dirname).sort()) if (name.endsWith('.test.js')) mocha.addFile(path.join(__dirname, name));
  return new Promise((resolve, reject) => {
    try {
      mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} test(s) failed`)) : resolve()));
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}
