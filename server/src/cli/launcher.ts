/**
 * `render-lens`: loads the CLI bundle (cli-main.js) with V8's code cache. Node compiles a
 * script's functions the first time each runs; a check of the bench's 2,000-file repository
 * spent about 50 ms of each run compiling the bundle (its top level, then every function it
 * called). The cache holds that bytecode, made at the end of a run, so later runs skip it.
 * Node 22 does the same with `module.enableCompileCache()`; this works on Node 20 too.
 *
 * The cache is per user (`$XDG_CACHE_HOME/render-lens`, `~/.cache/render-lens`, the platform's
 * cache folder on macOS and Windows), never a shared temp folder another user could write
 * to; its file name holds the bundle's SHA-256 and the Node version, and V8 checks the rest
 * (its version, flags, the source length) and rejects a cache that does not fit, which is
 * then made again. Any failure to read or write it only costs the compile.
 * RENDER_LENS_NO_COMPILE_CACHE=1 (or Node's NODE_DISABLE_COMPILE_CACHE=1) turns it off,
 * RENDER_LENS_CACHE_DIR moves it, and RENDER_LENS_LOG=debug says what happened.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import { createRequire, wrap } from 'module';
import * as os from 'os';
import * as path from 'path';
import * as vm from 'vm';
// Before the bundle is compiled: V8 accepts a cache only under the flags it was made with.
import '../no-inlining';

const bundle = path.join(__dirname, 'cli-main.js');
const source = fs.readFileSync(bundle, 'utf8');
const debug = (message: string) => {
  if (process.env.RENDER_LENS_LOG === 'debug') process.stderr.write(`render-lens: compile cache: ${message}\n`);
};

/** The per-user folder for caches, or undefined when there is none to use. */
function cacheDir(): string | undefined {
  if (process.env.RENDER_LENS_NO_COMPILE_CACHE === '1' || process.env.NODE_DISABLE_COMPILE_CACHE === '1') return undefined;
  if (process.env.RENDER_LENS_CACHE_DIR) return process.env.RENDER_LENS_CACHE_DIR;
  const home = os.homedir();
  if (process.platform === 'win32') return process.env.LOCALAPPDATA ? path.join(process.env.LOCALAPPDATA, 'render-lens', 'Cache') : undefined;
  if (process.platform === 'darwin') return home ? path.join(home, 'Library', 'Caches', 'render-lens') : undefined;
  const xdg = process.env.XDG_CACHE_HOME;
  return xdg && path.isAbsolute(xdg) ? path.join(xdg, 'render-lens') : home ? path.join(home, '.cache', 'render-lens') : undefined;
}

const dir = cacheDir();
const digest = createHash('sha256').update(source).update(`${process.version} ${process.arch}`).digest('hex').slice(0, 32);
const cacheFile = dir && path.join(dir, `cli-${digest}.v8cache`);
let cached: Buffer | undefined;
try {
  if (cacheFile) cached = fs.readFileSync(cacheFile);
} catch {
  // None yet (or unreadable): this run compiles, and leaves one.
}

const script = new vm.Script(wrap(source), { filename: bundle, cachedData: cached });
if (cached) debug(script.cachedDataRejected ? `rejected ${cacheFile}` : `used ${cacheFile}`);

if (cacheFile && (!cached || script.cachedDataRejected)) {
  // At exit, the cache also holds every function the run compiled on the way.
  process.once('exit', () => {
    // Written whole and renamed, so a run started meanwhile never reads half a file.
    const partial = `${cacheFile}.${process.pid}.tmp`;
    try {
      fs.mkdirSync(path.dirname(cacheFile), { recursive: true, mode: 0o700 });
      fs.writeFileSync(partial, script.createCachedData(), { mode: 0o600 });
      fs.renameSync(partial, cacheFile);
      debug(`wrote ${cacheFile}`);
      // One bundle's cache at a time: those of earlier versions are of no use.
      for (const name of fs.readdirSync(path.dirname(cacheFile))) {
        if (/^cli-[0-9a-f]{32}\.v8cache$/.test(name) && name !== path.basename(cacheFile)) fs.rmSync(path.join(path.dirname(cacheFile), name), { force: true });
      }
    } catch (error) {
      fs.rmSync(partial, { force: true });
      debug(`not written: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
}

const module_ = { exports: {} };
(script.runInThisContext() as (exports: unknown, require: NodeRequire, module: unknown, filename: string, dirname: string) => void)(module_.exports, createRequire(bundle), module_, bundle, __dirname);
