/**
 * If the server process dies anyway, VS Code's client starts it again: vscode-languageclient's
 * default error handler restarts a crashed server up to 4 times in 3 minutes. These tests pin
 * the two halves that can be checked without an editor: the extension keeps the default
 * handler (it sets no errorHandler and no maxRestartCount), and the default handler restarts.
 * The end-to-end check (kill the server under a running VS Code) belongs to client/test.
 */
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import * as vm from 'vm';
import { projectRoot } from '../support/paths';

suite('robustness: a dead server is restarted by the client', () => {
  test('the extension leaves vscode-languageclient\'s restart policy as it is', () => {
    const dir = path.join(projectRoot, 'client', 'src');
    const sources = fs.readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith('.ts')).map((f) => fs.readFileSync(path.join(dir, f), 'utf8'));
    const extension = fs.readFileSync(path.join(dir, 'extension.ts'), 'utf8');
    assert.match(extension, /new LanguageClient\(/, 'the extension starts a LanguageClient');
    for (const source of sources) {
      assert.doesNotMatch(source, /\berrorHandler\b/, 'no custom error handler replaces the default one');
      assert.doesNotMatch(source, /\bmaxRestartCount\b/, 'the restart count is the default');
    }
  });

  test('the default handler restarts a crashed server 4 times in 3 minutes, then gives up', () => {
    // The handler's own code, run against stand-ins for the `vscode` types it needs.
    const library = fs.readFileSync(path.join(projectRoot, 'node_modules', 'vscode-languageclient', 'lib', 'common', 'client.js'), 'utf8');
    const source = /class DefaultErrorHandler \{[\s\S]*?\n\}\n/.exec(library)?.[0];
    assert.ok(source, 'vscode-languageclient still has a DefaultErrorHandler');
    assert.match(library, /createDefaultErrorHandler\(clientOptions\.connectionOptions\?\.maxRestartCount\)/);
    assert.match(library, /new DefaultErrorHandler\(this, maxRestartCount \?\? 4\)/);
    const context = { ErrorAction: { Continue: 1, Shutdown: 2 }, CloseAction: { DoNotRestart: 1, Restart: 2 }, result: undefined as unknown };
    vm.runInNewContext(`${source}; result = new DefaultErrorHandler({ name: 'Render Lens' }, 4);`, context);
    const handler = context.result as { closed(): { action: number } };
    const actions = Array.from({ length: 6 }, () => handler.closed().action);
    assert.deepEqual(actions, [2, 2, 2, 2, 1, 1], 'restart, restart, restart, restart, then stop');
  });
});
