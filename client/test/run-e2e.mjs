#!/usr/bin/env node
/**
 * `npm run test:e2e`: the mocha suites in client/out-test/suite run in a real VS Code
 * extension host (code-server 4.99.4 = VS Code 1.99.3, installed by install-code-server.sh),
 * with the workbench open in headless Chromium: one code-server per suite, each on a fresh
 * copy of its workspace (the demo; the kochhaus-home cut). A suite's exit code arrives
 * through `window.codeAutomationExit`; when the suite asks (client/test/suite/browser.ts),
 * this script checks in the same page what the user sees (squiggles, a Problems row, hover
 * widgets, the quick fix menu, views) and keeps screenshots in client/out-test/screenshots/.
 *
 * Needs: `node esbuild.mjs` (dist/), `tsc -p client/test` (client/out-test/), code-server.
 *   CODE_SERVER_PREFIX   code-server's install prefix (default /opt/code-server-4.99.4)
 *   CHROMIUM_PATH        the browser (default /usr/bin/chromium)
 *   RENDER_LENS_E2E_TIMEOUT  seconds for the whole run (default 300)
 *   RENDER_LENS_E2E_SUITES   comma-separated suites to run (default: all; see `sessions`)
 *   RENDER_LENS_E2E_KEEP=1   keep the temporary workspace and data directories (kept on failure)
 *   E2E_DEBUG=1          print the browser console (the workbench log) too
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const prefix = process.env.CODE_SERVER_PREFIX || '/opt/code-server-4.99.4';
const serverMain = path.join(prefix, 'lib', 'node_modules', 'code-server', 'lib', 'vscode', 'out', 'server-main.js');
const browserPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const testsEntry = path.join(root, 'client', 'out-test', 'suite', 'index.js');
// Each suite (client/test/suite/<suite>.test.ts) with the workspace it is written for.
const sessions = [
  { suite: 'extension', fixture: path.join('test-fixtures', 'demo') },
  { suite: 'real-repo', fixture: path.join('test-fixtures', 'real-repo', 'kochhaus-home') },
].filter(({ suite }) => !process.env.RENDER_LENS_E2E_SUITES || process.env.RENDER_LENS_E2E_SUITES.split(',').includes(suite));
const screenshots = path.join(root, 'client', 'out-test', 'screenshots');
const logsDir = path.join(root, 'client', 'out-test', 'logs');
const timeoutMs = Number(process.env.RENDER_LENS_E2E_TIMEOUT || 300) * 1000;
const started = Date.now();

const log = (message) => console.log(`[e2e ${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s] ${message}`);

function need(file, hint) {
  if (!fs.existsSync(file)) {
    console.error(`run-e2e: ${file} is missing: ${hint}`);
    process.exit(2);
  }
}
need(serverMain, 'run `bash client/test/install-code-server.sh` (or set CODE_SERVER_PREFIX)');
need(browserPath, 'install Debian chromium (install-code-server.sh does) or set CHROMIUM_PATH');
need(path.join(root, 'dist', 'extension.js'), 'run `node esbuild.mjs`');
need(testsEntry, 'run `npx tsc -p client/test`');

fs.rmSync(screenshots, { recursive: true, force: true });
fs.rmSync(logsDir, { recursive: true, force: true });
fs.mkdirSync(screenshots, { recursive: true });

const settings = {
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'security.workspace.trust.enabled': false,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.colorTheme': 'Default Dark Modern',
  'chat.commandCenter.enabled': false,
  'git.enabled': false,
  'editor.minimap.enabled': false,
  'editor.hover.delay': 300,
  'window.commandCenter': false,
};

let browser;
/** Ends the running session's code-server; set while one runs. */
let stopServer = async () => {};
let finishing = false;

async function finish(code, reason) {
  if (finishing) return;
  finishing = true;
  if (reason) log(reason);
  await stopServer();
  await browser?.close().catch(() => {});
  log(`exit ${code}`);
  process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void finish(130));
setTimeout(() => void finish(1, `timed out after ${timeoutMs / 1000} s`), timeoutMs);

try {
  browser = await chromium.launch({
    executablePath: browserPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  let failed = 0;
  for (const session of sessions) if ((await runSession(session)) !== 0) failed++;
  await finish(failed === 0 ? 0 : 1, `${sessions.length - failed} of ${sessions.length} suite(s) passed`);
} catch (error) {
  await finish(1, `error: ${error?.stack ?? error}`);
}

/** One suite in its own code-server, on a fresh copy of its workspace; resolves with its exit code. */
async function runSession({ suite, fixture }) {
  // A fresh workspace, user data and UI channel for each suite.
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), `render-lens-e2e-${suite}-`));
  const workspace = path.join(scratch, path.basename(fixture));
  const data = path.join(scratch, 'data');
  const channel = path.join(scratch, 'ui');
  fs.cpSync(path.join(root, fixture), workspace, { recursive: true });
  fs.mkdirSync(path.join(data, 'User'), { recursive: true });
  fs.mkdirSync(path.join(data, 'extensions'), { recursive: true });
  fs.mkdirSync(channel);
  fs.writeFileSync(path.join(data, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
  log(`suite ${suite} on a copy of ${fixture}`);

  const port = await new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

  // server-main in its own session and process group (detached = setsid): its helpers (the
  // extension host, the file watcher, ptys) outlive a plain kill, so the group is killed.
  const serverLog = fs.createWriteStream(path.join(scratch, 'server.log'));
  const server = spawn(
    process.execPath,
    [
      serverMain,
      '--host', '127.0.0.1',
      '--port', String(port),
      '--without-connection-token',
      '--accept-server-license-terms',
      '--enable-smoke-test-driver',
      '--disable-telemetry',
      '--disable-workspace-trust',
      '--extensions-dir', path.join(data, 'extensions'),
      '--user-data-dir', data,
      '--server-data-dir', data,
    ],
    { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, RENDER_LENS_E2E_DIR: channel, RENDER_LENS_E2E_SUITE: suite } },
  );
  let serverExited = false;
  server.on('exit', () => (serverExited = true));
  server.stdout.pipe(serverLog);
  server.stderr.pipe(serverLog);
  let page;
  let stopped = false;
  stopServer = async () => {
    if (stopped) return;
    stopped = true;
    await page?.close().catch(() => {});
    const killGroup = (signal) => {
      try {
        process.kill(-server.pid, signal);
        return true;
      } catch {
        return false; // the group is already gone
      }
    };
    if (killGroup('SIGTERM')) {
      await new Promise((resolve) => {
        if (serverExited) return resolve();
        const timer = setTimeout(resolve, 5000);
        server.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      // Helpers (the extension host, watchers) may outlive server-main itself.
      killGroup('SIGKILL');
    }
    serverLog.end();
  };
  const end = async (code, reason) => {
    if (reason) log(reason);
    await stopServer();
    if (code !== 0) {
      fs.mkdirSync(logsDir, { recursive: true });
      fs.copyFileSync(path.join(scratch, 'server.log'), path.join(logsDir, `${suite}-server.log`));
      log(`server log: ${path.join(logsDir, `${suite}-server.log`)}`);
    }
    if (process.env.RENDER_LENS_E2E_KEEP === '1' || code !== 0) log(`kept ${scratch}`);
    else fs.rmSync(scratch, { recursive: true, force: true });
    log(`suite ${suite}: exit ${code}`);
    return code;
  };

  try {
    await new Promise((resolve, reject) => {
      let seen = '';
      const onData = (chunk) => {
        seen += chunk.toString();
        if (/Extension host agent listening on|Server bound to|Web UI available at/.test(seen)) {
          server.stdout.off('data', onData);
          resolve();
        }
      };
      server.stdout.on('data', onData);
      server.once('exit', (code) => reject(new Error(`server-main exited with ${code} before listening:\n${seen}`)));
    });
    log(`code-server (VS Code server) listening on 127.0.0.1:${port}`);

    const remote = (file) => `vscode-remote://127.0.0.1:${port}${file}`;
    const payload = JSON.stringify([
      ['extensionDevelopmentPath', remote(root)],
      ['extensionTestsPath', remote(testsEntry)],
    ]);
    const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(payload)}`;
    page = await browser.newPage({ viewport: { width: 1280, height: 760 } });

    let exitCode;
    const suiteDone = new Promise((resolve) => {
      exitCode = resolve;
    });
    await page.exposeFunction('codeAutomationExit', (code, logs) => {
      if (code !== 0 && Array.isArray(logs)) {
        for (const entry of logs) {
          const file = path.join(logsDir, `${suite}-workbench`, entry.relativePath ?? 'log.txt');
          fs.mkdirSync(path.dirname(file), { recursive: true });
          fs.writeFileSync(file, entry.contents ?? '');
        }
      }
      exitCode(code);
    });
    // The workbench's own log (and the extension host's console) only with E2E_DEBUG=1: it is
    // noisy (no open-vsx.org, no service worker here). The suite's report comes from mocha.log.
    if (process.env.E2E_DEBUG) page.on('console', (message) => console.log(`  [browser] ${message.text()}`));
    page.on('pageerror', (error) => log(`page error: ${error.message}`));

    // The suite asks for workbench checks when it has set each scene (see client/test/suite/browser.ts).
    const requests = serveRequests(page, channel);

    log('opening the workbench; the suite runs in the extension host');
    await page.goto(url);
    const code = await suiteDone;
    await requests.cancel();
    log(`the suite finished with exit code ${code}`);
    await page.screenshot({ path: path.join(screenshots, `${suite}-final.png`) }).catch(() => {});
    // A suite that never asked has skipped its workbench tests: that is a failure here.
    if (code === 0 && requests.served() === 0) return await end(1, 'the workbench was never checked (the suite did not ask)');
    return await end(code === 0 ? 0 : 1);
  } catch (error) {
    return await end(1, `error: ${error?.stack ?? error}`);
  }
}

/** Answers each `request-<name>.json` the suite writes, one at a time, with `verdict-<name>.json`. */
function serveRequests(page, channel) {
  const served = new Set();
  let running = Promise.resolve();
  const mochaLog = path.join(channel, 'mocha.log');
  let printed = 0;
  const printReport = () => {
    // The suite's reporter lines, as they come (see client/test/suite/index.ts).
    const size = fs.existsSync(mochaLog) ? fs.statSync(mochaLog).size : 0;
    if (size <= printed) return;
    const fd = fs.openSync(mochaLog, 'r');
    const buffer = Buffer.alloc(size - printed);
    fs.readSync(fd, buffer, 0, buffer.length, printed);
    fs.closeSync(fd);
    printed = size;
    process.stdout.write(buffer.toString('utf8'));
  };
  const onEvent = () => {
    printReport();
    for (const file of fs.readdirSync(channel)) {
      const name = /^request-(.+)\.json$/.exec(file)?.[1];
      if (!name || served.has(name)) continue;
      served.add(name);
      const request = JSON.parse(fs.readFileSync(path.join(channel, file), 'utf8'));
      running = running
        .then(() => (request.kind === 'look' ? look(page, name, request) : checkWorkbench(page, request)))
        .catch((error) => [`workbench check: ${error?.message ?? error}`])
        .then((failures) => {
          const verdictFile = path.join(channel, `verdict-${name}.json`);
          fs.writeFileSync(`${verdictFile}.tmp`, JSON.stringify({ failures, screenshots }));
          fs.renameSync(`${verdictFile}.tmp`, verdictFile);
        });
    }
  };
  const watcher = fs.watch(channel, onEvent);
  onEvent();
  return {
    served: () => served.size,
    cancel: async () => {
      printReport();
      watcher.close();
      await running.catch(() => {});
    },
  };
}

/**
 * Waits for a visible element matching `request.selector` whose text matches
 * `request.pattern` (a regular expression; `.` spans lines), then takes the screenshot.
 */
async function look(page, name, request) {
  log(`look (${name}): ${request.selector} /${request.pattern}/`);
  const textOf = ({ selector }) =>
    [...document.querySelectorAll(selector)].filter((element) => element.offsetParent !== null || getComputedStyle(element).position === 'fixed').map((element) => element.textContent.replace(/\u00a0/g, ' '));
  try {
    await page.waitForFunction(
      ({ selector, pattern }) => {
        const wanted = new RegExp(pattern, 's');
        return [...document.querySelectorAll(selector)].some((element) => (element.offsetParent !== null || getComputedStyle(element).position === 'fixed') && wanted.test(element.textContent.replace(/\u00a0/g, ' ')));
      },
      request,
      { timeout: 20_000 },
    );
  } catch {
    const seen = await page.evaluate(textOf, request).catch(() => []);
    await page.screenshot({ path: path.join(screenshots, `failed-${name}.png`) }).catch(() => {});
    log(`  ✗ ${name}: saw ${JSON.stringify(seen.map((text) => text.slice(0, 400)))}`);
    return [`${name}: no visible ${request.selector} matching /${request.pattern}/ (saw ${seen.length}; screenshot failed-${name}.png)`];
  }
  // Not mid fade-in: the hover widget fades in, and a screenshot taken then is half transparent.
  await page.evaluate(async ({ selector }) => {
    const animations = [...document.querySelectorAll(selector)].flatMap((element) => element.getAnimations({ subtree: true }));
    await Promise.all(animations.filter((a) => a.effect?.getComputedTiming().iterations !== Infinity).map((a) => a.finished.catch(() => {})));
  }, request);
  if (request.screenshot) await page.screenshot({ path: path.join(screenshots, `${request.screenshot}.png`) });
  log(`  ✓ ${name}`);
  return [];
}

/** What the user sees, checked in the DOM; returns the failures (empty: all good). */
async function checkWorkbench(page, request) {
  log(`workbench check on ${request.file}`);
  const failures = [];
  const step = async (name, body) => {
    try {
      await body();
      log(`  ✓ ${name}`);
    } catch (error) {
      failures.push(`${name}: ${String(error?.message ?? error).split('\n')[0]}`);
      log(`  ✗ ${name}: ${String(error?.message ?? error).split('\n')[0]}`);
      await shot(`failed-${failures.length}`).catch(() => {});
    }
  };
  const shot = (name) => page.screenshot({ path: path.join(screenshots, `${name}.png`) });
  const editor = '.editor-group-container.active .monaco-editor';

  await step(`squiggles: ${request.squiggles.error} error, ${request.squiggles.warning} warning`, async () => {
    await page.waitForFunction(
      ({ editor, error, warning }) => document.querySelectorAll(`${editor} .squiggly-error`).length >= error && document.querySelectorAll(`${editor} .squiggly-warning`).length >= warning,
      { editor, ...request.squiggles },
      { timeout: 30_000 },
    );
    const counts = await page.evaluate((editor) => ({ error: document.querySelectorAll(`${editor} .squiggly-error`).length, warning: document.querySelectorAll(`${editor} .squiggly-warning`).length }), editor);
    if (counts.error !== request.squiggles.error || counts.warning !== request.squiggles.warning) throw new Error(`saw ${JSON.stringify(counts)}`);
  });

  await step(`a Problems row says "${request.problem}"`, async () => {
    await page.waitForFunction(
      (needle) => [...document.querySelectorAll('.markers-panel .monaco-list-row')].some((row) => row.textContent.includes(needle)),
      request.problem,
      { timeout: 20_000 },
    );
  });
  await shot('squiggles-and-problems');

  await step(`the hover over the error squiggle shows ${request.hover.map((h) => `"${h}"`).join(', ')}`, async () => {
    const box = await page.locator(`${editor} .squiggly-error`).first().boundingBox();
    if (!box) throw new Error('no squiggle to hover');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForFunction(
      (needles) => [...document.querySelectorAll('.monaco-hover')].some((hover) => hover.offsetParent !== null && needles.every((needle) => hover.textContent.includes(needle))),
      request.hover,
      { timeout: 20_000 },
    );
    await shot('hover');
  });

  await step(`the quick fix menu offers "${request.quickFix}"`, async () => {
    await page.keyboard.press('Escape');
    await page.mouse.move(5, 5);
    await page.keyboard.press('Control+.');
    await page.waitForFunction(
      (needle) => [...document.querySelectorAll('.action-widget')].some((menu) => menu.offsetParent !== null && menu.textContent.includes(needle)),
      request.quickFix,
      { timeout: 20_000 },
    );
    await shot('quick-fix');
    await page.keyboard.press('Escape');
  });
  return failures;
}
