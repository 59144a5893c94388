/**
 * The built server in a real third-party LSP client: Neovim (Debian's, headless), starting it
 * through the launcher that `render-lens-server` runs. `.ci/run` installs Neovim; where it is
 * missing the suite says so and is skipped, never silently passed.
 */
import * as assert from 'assert/strict';
import { spawnSync } from 'child_process';
import * as path from 'path';
import { fixturesDir, projectRoot } from './support/paths';

const hasNeovim = spawnSync('nvim', ['--version'], { encoding: 'utf8' }).status === 0;

suite('neovim as an LSP client', function () {
  suiteSetup(function () {
    if (!hasNeovim) {
      if (process.env.CI) throw new Error('nvim is not installed; .ci/run installs it');
      this.skip();
    }
  });

  test('shows the diagnostics and the hover of the demo repository', () => {
    const root = path.join(fixturesDir, 'demo');
    const file = path.join(root, 'apps', 'postgres', 'migrations.yaml');
    const result = spawnSync('nvim', ['--headless', '--clean', '-n', '-c', `luafile ${path.join(fixturesDir, 'editors', 'neovim-check.lua')}`, file], {
      encoding: 'utf8',
      env: { ...process.env, RENDER_LENS_SERVER: path.join(projectRoot, 'dist', 'server-launcher.js'), RENDER_LENS_ROOT: root },
      timeout: 60_000,
    });
    assert.equal(result.status, 0, `nvim failed: ${result.stderr}`);
    const lines = result.stdout.trim().split('\n');
    assert.deepEqual(lines.filter((l) => l.startsWith('diagnostic')).map((l) => l.split(' ').slice(1, 3).join(' ')), [
      '17:14 ENVSUBST-PARSE',
      '21:57 DOLLAR-COLLAPSE',
      '21:8 DOLLAR-COLLAPSE',
    ]);
    assert.match(lines.find((l) => l.startsWith('hover')) ?? '', /^hover \*\*`\$\{cluster_name\}`\*\* — Flux post-build substitution$/);
  });
});
