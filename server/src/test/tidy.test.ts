/** Invariants of the codebase itself, checked like behaviour. */
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import { RULES } from '../core/rules';
import { version } from '../version';
import { listCases, loadCase, runCase } from './support/fixtures';
import { projectRoot } from './support/paths';

const coreDir = path.join(projectRoot, 'server', 'src', 'core');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The relative module specifiers a file imports (static and dynamic). */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:\bfrom|\bimport|\brequire\(|\bimport\()\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((match) => match[1]);
}

/** Source without its comments, so prose that mentions require( is not code. */
function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

suite('tidy', () => {
  test('rules are registered once each, sorted by id, with SCREAMING-KEBAB ids', () => {
    const ids = RULES.map((rule) => rule.id);
    assert.deepEqual(ids, [...ids].sort());
    assert.equal(new Set(ids).size, ids.length);
    for (const id of ids) assert.match(id, /^[A-Z][A-Z0-9]*(-[A-Z0-9]+)*$/);
  });

  test('each rule lives in a file named after its id', () => {
    for (const rule of RULES) assert.ok(fs.existsSync(path.join(coreDir, 'rules', `${rule.id.toLowerCase()}.ts`)), `missing rules/${rule.id.toLowerCase()}.ts`);
  });

  test('each rule docs page is generated from the rule (npm run docs)', () => {
    for (const rule of RULES) {
      const page = path.join(projectRoot, 'docs', 'rules', `${rule.id}.md`);
      assert.ok(fs.existsSync(page), `missing docs/rules/${rule.id}.md`);
      assert.equal(fs.readFileSync(page, 'utf8'), rule.docs, `docs/rules/${rule.id}.md is stale: run npm run docs`);
    }
  });

  test('each rule has fixture cases, and a .fixed golden when it offers fixes', () => {
    for (const rule of RULES) {
      const cases = listCases(rule.id).map(loadCase);
      assert.ok(cases.length > 0, `no fixture cases for ${rule.id}`);
      const offersFixes = cases.some((fixture) => runCase(fixture.files, [rule.id]).some((f) => f.fixes.length > 0));
      const hasGolden = cases.some((fixture) => Object.keys(fixture.fixed).length > 0);
      assert.ok(!offersFixes || hasGolden, `${rule.id} offers fixes but no case has a .fixed golden`);
    }
  });

  test('the analysis core imports no editor or file-system modules', () => {
    const forbidden = /from\s+['"](vscode[^'"]*|fs|node:fs|fs\/promises|node:fs\/promises|child_process|node:child_process)['"]/;
    for (const file of sourceFiles(coreDir)) assert.doesNotMatch(fs.readFileSync(file, 'utf8'), forbidden, path.relative(projectRoot, file));
  });

  test('the adapters reach the core only through its face, core/index.ts', () => {
    const adapters = [...sourceFiles(path.join(projectRoot, 'server', 'src', 'lsp')), ...sourceFiles(path.join(projectRoot, 'server', 'src', 'cli')), path.join(projectRoot, 'server', 'src', 'node-host.ts')];
    for (const file of adapters) {
      for (const specifier of importsOf(file)) {
        const target = path.resolve(path.dirname(file), specifier);
        if (target.startsWith(coreDir + path.sep)) assert.fail(`${path.relative(projectRoot, file)} imports ${specifier}: import it from core/index.ts`);
      }
    }
  });

  test('the client imports nothing of the server but protocol.ts', () => {
    const serverDir = path.join(projectRoot, 'server');
    for (const file of sourceFiles(path.join(projectRoot, 'client', 'src'))) {
      for (const specifier of importsOf(file)) {
        const target = path.resolve(path.dirname(file), specifier);
        if (target.startsWith(serverDir + path.sep)) assert.equal(path.relative(projectRoot, target), path.join('server', 'src', 'protocol'), `${path.relative(projectRoot, file)} imports ${specifier}`);
      }
    }
  });

  test('tests import nothing from the bench: what both use lives in test/support/', () => {
    const benchDir = path.join(projectRoot, 'server', 'src', 'bench');
    for (const file of sourceFiles(path.join(projectRoot, 'server', 'src', 'test'))) {
      for (const specifier of importsOf(file)) assert.ok(!path.resolve(path.dirname(file), specifier).startsWith(benchDir + path.sep), `${path.relative(projectRoot, file)} imports ${specifier}`);
    }
  });

  test('domain code does not reach up into rules, the engine or the features built on them', () => {
    const domain = ['flux', 'helm', 'fleet', 'kube', 'workspace', 'yaml', 'goyaml', 'gotemplate', 'envsubst', 'pipeline', 'model'];
    const above = /^(engine|rules|fixes|fix-all|hover|navigation|editor-requests|variable-completion|variable-key-hover|render|export|index)(\/|$)/;
    // The document cache runs the rules; Fleet's hover shows its rule's own verdict on a template.
    const allowed = new Set(['workspace/document-cache.ts -> rules/rule', 'fleet/hover.ts -> rules/fleet-values-template']);
    const found: string[] = [];
    for (const folder of domain) {
      for (const file of sourceFiles(path.join(coreDir, folder))) {
        for (const specifier of importsOf(file)) {
          const target = path.relative(coreDir, path.resolve(path.dirname(file), specifier)).split(path.sep).join('/');
          const edge = `${path.relative(coreDir, file).split(path.sep).join('/')} -> ${target}`;
          if (above.test(target) && !allowed.has(edge)) found.push(edge);
        }
      }
    }
    assert.deepEqual(found, []);
  });

  test('the core uses ES imports only (no require)', () => {
    for (const file of sourceFiles(coreDir)) assert.doesNotMatch(stripComments(fs.readFileSync(file, 'utf8')), /\brequire\s*\(/, path.relative(projectRoot, file));
  });

  test('rules/ holds the rules, their contract and registry; their helpers live in rules/support/', () => {
    const expected = new Set([...RULES.map((rule) => `${rule.id.toLowerCase()}.ts`), 'rule.ts', 'index.ts']);
    const present = fs.readdirSync(path.join(coreDir, 'rules'), { withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => entry.name);
    assert.deepEqual(present.filter((name) => !expected.has(name)), [], 'move helpers to rules/support/');
  });

  test('no shipped code runs another program (no child_process outside tests and benchmarks)', () => {
    // The one exception starts the server's own bundle with the node that runs the launcher.
    const launcher = path.join(projectRoot, 'server', 'src', 'lsp', 'launcher.ts');
    const shipped = [...sourceFiles(path.join(projectRoot, 'server', 'src')), ...sourceFiles(path.join(projectRoot, 'client', 'src'))].filter(
      (file) => !/[\\/](test|bench)[\\/]/.test(file) && file !== launcher,
    );
    for (const file of shipped) assert.doesNotMatch(fs.readFileSync(file, 'utf8'), /['"](node:)?child_process['"]/, path.relative(projectRoot, file));
    const launcherText = fs.readFileSync(launcher, 'utf8');
    assert.deepEqual(launcherText.match(/\bspawn\w*\(.*/g), ["spawn(process.execPath, [...options, ...process.execArgv, server, ...args], { stdio: 'inherit', env });"]);
    assert.match(launcherText, /^const server = path\.join\(__dirname, 'server\.js'\);$/m);
    assert.doesNotMatch(launcherText, /\b(exec|execFile|execSync|fork)\w*\(|\bshell:/);
    // What it starts with: its own options, or none when node does not know them.
    assert.deepEqual(launcherText.match(/\bstart\(.*?\)/g), ['start(options: readonly string[])', 'start([])', 'start(serverNodeOptions)']);
  });

  test('the version matches package.json, and the changelog names every rule', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string };
    assert.equal(version, manifest.version);
    const changelog = fs.readFileSync(path.join(projectRoot, 'CHANGELOG.md'), 'utf8');
    for (const rule of RULES) assert.ok(changelog.includes(rule.id), `CHANGELOG.md does not mention ${rule.id}`);
  });
});
