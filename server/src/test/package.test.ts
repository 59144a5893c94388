/**
 * The Marketplace package. The suite builds it itself, exactly as a release does
 * (`npm run package -- --out TMP/render-lens.vsix`: a minified esbuild bundle, then
 * `vsce package --no-dependencies`, offline), reads the .vsix (a zip) and checks the exact
 * list of files, the bundles and the manifest. Afterwards it rebuilds the development bundle
 * (`node esbuild.mjs`), so dist/ keeps its source maps for the other tests and for debugging.
 */
import * as assert from 'assert/strict';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as zlib from 'zlib';
import { projectRoot } from './support/paths';

/** The entries of a zip file (stored or deflated), by name. Enough for a .vsix. */
function readZip(file: string): Map<string, Buffer> {
  const zip = fs.readFileSync(file);
  let end = -1;
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at--) {
    if (zip.readUInt32LE(at) === 0x06054b50) {
      end = at;
      break;
    }
  }
  assert.ok(end >= 0, `${file} is not a zip file`);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    assert.equal(zip.readUInt32LE(at), 0x02014b50, 'corrupt central directory');
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    assert.equal(zip.readUInt32LE(local), 0x04034b50, `corrupt local header for ${name}`);
    const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(dataStart, dataStart + compressedSize);
    assert.ok(method === 0 || method === 8, `${name}: unsupported compression ${method}`);
    entries.set(name, method === 8 ? zlib.inflateRawSync(data) : Buffer.from(data));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function filesUnder(relative: string): string[] {
  const dir = path.join(projectRoot, relative);
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.posix.join(relative, path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')));
}

/** The files the package may hold, as written in the repository. */
function allowedFiles(): string[] {
  return ['CHANGELOG.md', 'LICENSE', 'README.md', 'dist/cli-main.js', 'dist/cli.js', 'dist/extension.js', 'dist/server-launcher.js', 'dist/server.js', 'images/icon.png', 'package.json', ...filesUnder('syntaxes'), ...filesUnder('server/schemas'), ...filesUnder('walkthrough')].sort();
}

/** vsce stores these three under the names the Marketplace reads. */
const vsixName = (file: string) => ({ LICENSE: 'LICENSE.txt', 'README.md': 'readme.md', 'CHANGELOG.md': 'changelog.md' })[file] ?? file;

function pngSize(png: Buffer): { width: number; height: number } {
  assert.equal(png.subarray(0, 8).toString('hex'), '89504e470d0a1a0a', 'not a PNG');
  assert.equal(png.toString('ascii', 12, 16), 'IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

function run(command: string, args: string[]) {
  const result = spawnSync(command, args, { cwd: projectRoot, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } });
  assert.equal(result.status, 0, `${command} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

suite('package: the .vsix', function () {
  this.timeout(240_000);
  let scratch = '';
  let entries = new Map<string, Buffer>();
  let packaged: Record<string, any> = {};

  suiteSetup(() => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'render-lens-vsix-'));
    const vsix = path.join(scratch, 'render-lens.vsix');
    run('npm', ['run', 'package', '--silent', '--', '--out', vsix]);
    entries = readZip(vsix);
    packaged = JSON.parse(entries.get('extension/package.json')?.toString('utf8') ?? '{}');
  });

  suiteTeardown(() => {
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
    run(process.execPath, ['esbuild.mjs']);
  });

  test('holds exactly the bundles, the manifest files, the grammars, the schema and the icon', () => {
    const names = [...entries.keys()].sort();
    assert.deepEqual(
      names.filter((name) => !name.startsWith('extension/')),
      ['[Content_Types].xml', 'extension.vsixmanifest'],
    );
    assert.deepEqual(
      names.filter((name) => name.startsWith('extension/')).map((name) => name.slice('extension/'.length)),
      allowedFiles().map(vsixName).sort(),
    );
    for (const name of names) assert.doesNotMatch(name, /node_modules|\.tsx?$|\.map$|test-fixtures|\/src\/|\/test\//, `${name} must not be packaged`);
  });

  test('`vsce ls` lists the same files, from package.json\'s `files` (which `npm pack` reads too)', () => {
    const listed = run(process.execPath, [path.join(projectRoot, 'node_modules', '@vscode', 'vsce', 'vsce'), 'ls', '--no-dependencies'])
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.length > 0)
      .sort();
    assert.deepEqual(listed, allowedFiles());
  });

  test('the bundles are minified, without source maps, and leave `vscode` to VS Code', () => {
    // The small launchers of the CLI (cli/launcher.ts) and of the server (lsp/launcher.ts), minified too.
    for (const launcher of ['dist/cli.js', 'dist/server-launcher.js']) {
      assert.doesNotMatch(entries.get(`extension/${launcher}`)?.toString('utf8') ?? '//# sourceMappingURL=', /\/\/# sourceMappingURL=/, launcher);
    }
    for (const file of ['dist/extension.js', 'dist/server.js', 'dist/cli-main.js']) {
      const text = entries.get(`extension/${file}`)?.toString('utf8') ?? '';
      assert.ok(text.length > 10_000, `${file} is missing or empty`);
      assert.doesNotMatch(text, /\/\/# sourceMappingURL=/, `${file} points at a source map`);
      const lines = text.split('\n').length;
      assert.ok(text.length / lines > 300, `${file} does not look minified: ${lines} lines for ${text.length} characters`);
    }
    assert.match(entries.get('extension/dist/extension.js')!.toString('utf8'), /require\("vscode"\)/);
    assert.equal(packaged.main, './dist/extension.js');
  });

  test('the packaged CLI runs from the package alone, with Go\'s regexp syntax for a Fleet name regex', () => {
    // Unpacked outside the repository, so no node_modules can stand in for a missing bundle.
    const unpacked = path.join(scratch, 'unpacked');
    for (const [name, data] of entries) {
      if (!name.startsWith('extension/dist/')) continue;
      fs.mkdirSync(path.dirname(path.join(unpacked, name)), { recursive: true });
      fs.writeFileSync(path.join(unpacked, name), data);
    }
    const fixture = path.join(scratch, 'fleet');
    fs.cpSync(path.join(projectRoot, 'test-fixtures', 'rules', 'FLEET-PATCH-NAME', 'invalid'), fixture, { recursive: true });
    const result = spawnSync(process.execPath, [path.join(unpacked, 'extension', 'dist', 'cli.js'), 'check', '--no-color', '.'], { cwd: fixture, encoding: 'utf8', env: { ...process.env, RENDER_LENS_CACHE_DIR: path.join(scratch, 'cache') } });
    assert.equal(result.status, 1, result.stderr);
    assert.match(result.stdout, /FLEET-PATCH-NAME: .*error parsing regexp: missing closing \]/);
  });

  test('the manifest: a 128×128 PNG icon, and the trust and virtual-workspace support it really has', () => {
    assert.equal(packaged.icon, 'images/icon.png');
    assert.deepEqual(pngSize(entries.get('extension/images/icon.png')!), { width: 128, height: 128 });
    assert.match(packaged.galleryBanner?.color ?? '', /^#[0-9a-f]{6}$/i);
    assert.equal(packaged.license, 'MIT');
    assert.match(entries.get('extension/LICENSE.txt')!.toString('utf8'), /^MIT License\n\nCopyright \(c\) \d{4} Render Lens contributors\n/);

    // Render Lens only reads files and runs no workspace code: it is safe in Restricted Mode.
    assert.equal(packaged.capabilities?.untrustedWorkspaces?.supported, true);
    // It reads the whole Flux tree from disk, and the client serves only file: and untitled:
    // documents, so it cannot work in a virtual workspace; the manifest must say so.
    const virtual = packaged.capabilities?.virtualWorkspaces;
    assert.equal(virtual?.supported, false);
    assert.ok(typeof virtual.description === 'string' && virtual.description.length > 20, 'say why virtual workspaces are not supported');
    const client = fs.readFileSync(path.join(projectRoot, 'client', 'src', 'extension.ts'), 'utf8');
    const schemes = new Set([...client.matchAll(/scheme:\s*'([^']+)'/g)].map((match) => match[1]));
    assert.ok(schemes.size > 0);
    assert.deepEqual([...schemes].filter((scheme) => scheme !== 'file' && scheme !== 'untitled'), []);

    // code-server 4.99.4 (VS Code 1.99) is where the end-to-end tests run it.
    assert.equal(packaged.engines?.vscode, '^1.99.0');
  });

  test('the README\'s images exist and point at the repository once packaged', () => {
    const readme = fs.readFileSync(path.join(projectRoot, 'README.md'), 'utf8');
    const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map((match) => match[1]);
    assert.ok(images.some((image) => /^images\/screenshot-.+\.png$/.test(image)), 'the README shows a screenshot');
    for (const image of images.filter((image) => !/^\w+:/.test(image))) pngSize(fs.readFileSync(path.join(projectRoot, image)));
    const packagedReadme = entries.get('extension/readme.md')!.toString('utf8');
    for (const image of images.filter((image) => !/^\w+:/.test(image))) assert.ok(packagedReadme.includes(`https://github.com/render-lens/render-lens/raw/HEAD/${image}`), `${image} is not rewritten to an absolute URL`);
  });
});
