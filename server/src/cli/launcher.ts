/**
 * `render-lens`: loads the CLI bundle (cli-main.js) with V8's code cache. Node compiles a
 * script's functions the first time each runs; a check of the bench's 2,000-file repository
 * spent about 50 ms of each run compiling the bundle (its top level, then every function it
 * called). The cache holds that bytecode, made at the end of the first `check` on a machine,
 * so every later run skips it. Node 22 does the same with `module.enableCompileCache()`;
 * this works on Node 20 too.
 *
 * The cache is per user (`$XDG_CACHE_HOME/render-lens`, `~/.cache/render-lens`, the platform's
 * cache folder on macOS and Windows), in a folder no other user can write to, never a
 * shared temp folder; its file name holds the bundle's SHA-256 and the Node version, and V8
 * checks the rest (its version, flags, the source length) and rejects a cache that does not
 * fit, which the next check makes again. Any failure to read or write it only costs the
 * compile. RENDER_LENS_NO_COMPILE_CACHE=1 (or Node's NODE_DISABLE_COMPILE_CACHE=1) turns it
 * off, RENDER_LENS_CACHE_DIR (absolute) moves it, and RENDER_LENS_LOG=debug says what happened.
 */
import { isAscii } from 'buffer';
import { createHash } from 'crypto';
import * as fs from 'fs';
import { createRequire, wrap } from 'module';
import * as os from 'os';
import * as path from 'path';
import * as vm from 'vm';
// Before the bundle is compiled: V8 accepts a cache only under the flags it was made with.
import '../runtime/compiler-flags';

const bundle = path.join(__dirname, 'cli-main.js');
const bytes = fs.readFileSync(bundle);
// The published (minified) bundle is ASCII: esbuild escapes other characters and drops the
// comments that hold some. Read as one-byte text it needs no UTF-8 decoding, which took
// about 3 ms of every start; a development build is decoded as UTF-8.
const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
const debug = (message: string) => {
  if (process.env.RENDER_LENS_LOG === 'debug') process.stderr.write(`render-lens: compile cache: ${message}\n`);
};

/** The per-user folder for caches, or undefined when there is none to use. */
function cacheDir(): string | undefined {
  if (process.env.RENDER_LENS_NO_COMPILE_CACHE === '1' || process.env.NODE_DISABLE_COMPILE_CACHE === '1') return undefined;
  const chosen = process.env.RENDER_LENS_CACHE_DIR;
  if (chosen) {
    // A relative folder would land in whatever repository the check runs in.
    if (path.isAbsolute(chosen)) return chosen;
    debug(`off: RENDER_LENS_CACHE_DIR must be an absolute path (${chosen})`);
    return undefined;
  }
  const home = os.homedir();
  if (process.platform === 'win32') return process.env.LOCALAPPDATA ? path.join(process.env.LOCALAPPDATA, 'render-lens', 'Cache') : undefined;
  if (process.platform === 'darwin') return home ? path.join(home, 'Library', 'Caches', 'render-lens') : undefined;
  const xdg = process.env.XDG_CACHE_HOME;
  return xdg && path.isAbsolute(xdg) ? path.join(xdg, 'render-lens') : home ? path.join(home, '.cache', 'render-lens') : undefined;
}

/**
 * Compiled code is run as it is: the folder must be this user's alone (where that can be
 * told), or another user could have put a cache there. A folder not made yet is made so.
 */
function ownFolder(dir: string): boolean {
  try {
    const stat = fs.statSync(dir);
    if (!stat.isDirectory()) return false;
    if (process.getuid === undefined) return true;
    return stat.uid === process.getuid() && (stat.mode & 0o022) === 0;
  } catch {
    return true;
  }
}

const dir = cacheDir();
const usable = dir !== undefined && ownFolder(dir);
if (dir !== undefined && !usable) debug(`off: ${dir} is not a folder of this user's alone`);
const digest = createHash('sha256').update(bytes).update(`${process.version} ${process.arch}`).digest('hex').slice(0, 32);
const cacheFile = usable ? path.join(dir, `cli-${digest}.v8cache`) : undefined;
let cached: Buffer | undefined;
try {
  if (cacheFile) cached = fs.readFileSync(cacheFile);
} catch {
  // None yet (or unreadable): a check compiles, and leaves one.
}

const wrapped = wrap(source);
// Columns in stack traces as in the file: the wrapper's text comes before its first line.
const script = new vm.Script(wrapped, { filename: bundle, cachedData: cached, columnOffset: -wrapped.indexOf(source) });
if (cached) debug(script.cachedDataRejected ? `rejected ${cacheFile}` : `used ${cacheFile}`);

/** Caches of other bundles, left by another version, are removed once nobody wrote them for this long. */
const staleAfterMs = 30 * 24 * 3600 * 1000;

// Made at the end of a check, the cache holds every function a check compiles; other
// commands run less of the bundle, and a cache is not made again once it is accepted.
if (cacheFile && (!cached || script.cachedDataRejected) && process.argv[2] === 'check') {
  process.once('exit', (code) => {
    // A usage or internal error (exit 2) ran little of the bundle.
    if (code === 2) return;
    // Written whole and renamed, so a run started meanwhile never reads half a file.
    const partial = `${cacheFile}.${process.pid}.tmp`;
    try {
      makeFolders(path.dirname(cacheFile));
      fs.writeFileSync(partial, script.createCachedData(), { mode: 0o600 });
      fs.renameSync(partial, cacheFile);
      debug(`wrote ${cacheFile}`);
      const folder = path.dirname(cacheFile);
      for (const name of fs.readdirSync(folder)) {
        const other = path.join(folder, name);
        if (/^cli-[0-9a-f]{32}\.v8cache$/.test(name) && other !== cacheFile && Date.now() - fs.statSync(other).mtimeMs > staleAfterMs) fs.rmSync(other, { force: true });
      }
    } catch (error) {
      debug(`not written: ${error instanceof Error ? error.message : String(error)}`);
      try {
        fs.rmSync(partial, { force: true });
      } catch {
        // The folder itself is unusable: nothing was written.
      }
    }
  });
}

/**
 * Makes `dir` and the folders above it that are missing, one `mkdir` each, and gives up on the
 * first that fails. Node 20's `mkdirSync(…, { recursive: true })` loops forever under `/proc`
 * (RENDER_LENS_CACHE_DIR=/proc/x, or HOME=/proc/self): the check had printed its results and
 * the process never ended.
 */
function makeFolders(dir: string): void {
  const missing: string[] = [];
  for (let at = dir; !fs.existsSync(at); at = path.dirname(at)) {
    if (path.dirname(at) === at || missing.length >= 32) throw new Error(`no folder to make ${dir} in`);
    missing.push(at);
  }
  for (const folder of missing.reverse()) fs.mkdirSync(folder, { mode: 0o700 });
}

const module_ = { exports: {} };
(script.runInThisContext() as (exports: unknown, require: NodeRequire, module: unknown, filename: string, dirname: string) => void)(module_.exports, createRequire(bundle), module_, bundle, __dirname);
