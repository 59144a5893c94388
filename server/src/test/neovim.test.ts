/**
 * The built server in a real third-party LSP client: Neovim (Debian's, headless), started by the
 * README's own snippet, run verbatim, so the README cannot drift from what works. The snippet
 * runs `render-lens-server` from PATH, as after `npm install -g` of the packed tarball; here PATH
 * holds a `render-lens-server` that runs dist/server-launcher.js. `.ci/run` installs Neovim; where
 * it is missing the suite says so and is skipped, never silently passed.
 */
import * as assert from 'assert/strict';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { fixturesDir, projectRoot } from './support/paths';

const nvimVersion = /^NVIM v(\d+)\.(\d+)/.exec(spawnSync('nvim', ['--version'], { encoding: 'utf8' }).stdout ?? '');

/** The first ```lua block after the README line that starts with `heading`. */
function readmeSnippet(heading: string): string {
  const readme = fs.readFileSync(path.join(projectRoot, 'README.md'), 'utf8');
  const at = readme.search(new RegExp(`^${heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'm'));
  assert.ok(at >= 0, `README has no line starting "${heading}"`);
  const block = /```lua\n([\s\S]*?)```/.exec(readme.slice(at));
  assert.ok(block, `no lua block after "${heading}" in README`);
  return block[1];
}

suite('neovim as an LSP client, set up by the README', function () {
  let scratch = '';
  let repo = '';
  let env: NodeJS.ProcessEnv = {};

  suiteSetup(function () {
    if (!nvimVersion) {
      if (process.env.CI) throw new Error('nvim is not installed; .ci/run installs it');
      this.skip();
    }
    if (process.platform === 'win32') this.skip();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'render-lens-nvim-'));
    // A repository of its own (the snippet finds the root by its .git), away from this one.
    repo = path.join(scratch, 'repo');
    fs.cpSync(path.join(fixturesDir, 'demo'), repo, { recursive: true });
    fs.mkdirSync(path.join(repo, '.git'));
    const bin = path.join(scratch, 'bin');
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, 'render-lens-server'), `#!/bin/sh\nexec "${process.execPath}" "${path.join(projectRoot, 'dist', 'server-launcher.js')}" "$@"\n`, { mode: 0o755 });
    env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` };
  });

  suiteTeardown(() => {
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  function runSnippet(heading: string): string[] {
    const snippet = path.join(scratch, 'snippet.lua');
    fs.writeFileSync(snippet, readmeSnippet(heading));
    const file = path.join(repo, 'apps', 'postgres', 'migrations.yaml');
    const result = spawnSync('nvim', ['--headless', '--clean', '-n', '--cmd', `luafile ${snippet}`, '-c', `luafile ${path.join(fixturesDir, 'editors', 'neovim-check.lua')}`, file], {
      encoding: 'utf8',
      cwd: scratch,
      env,
      timeout: 60_000,
    });
    assert.equal(result.status, 0, `nvim failed: ${result.stderr}`);
    return result.stdout.trim().split('\n');
  }

  function assertSeesTheDemo(lines: string[]): void {
    assert.deepEqual(lines.filter((l) => l.startsWith('root ')), [`root ${repo}`]);
    assert.deepEqual(lines.filter((l) => l.startsWith('diagnostic')).map((l) => l.split(' ').slice(1, 3).join(' ')), [
      '17:14 ENVSUBST-PARSE',
      '21:57 DOLLAR-COLLAPSE',
      '21:8 DOLLAR-COLLAPSE',
    ]);
    assert.match(lines.find((l) => l.startsWith('hover')) ?? '', /^hover \*\*`\$\{cluster_name\}`\*\* — Flux post-build substitution$/);
  }

  test("the README's snippet for Neovim 0.7 to 0.9 shows the diagnostics and the hover of the demo repository", () => {
    assertSeesTheDemo(runSnippet('Neovim 0.7 to 0.9'));
  });

  test("the README's snippet for Neovim 0.10 and later, where that Neovim is installed", function () {
    if (Number(nvimVersion![1]) === 0 && Number(nvimVersion![2]) < 10) this.skip();
    assertSeesTheDemo(runSnippet('Neovim 0.10 and later'));
  });
});
