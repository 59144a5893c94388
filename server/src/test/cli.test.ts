/** The built CLI, run as a user or a script runs it. */
import * as assert from 'assert/strict';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import { createRequire } from 'module';
import * as os from 'os';
import * as path from 'path';
import { fixturesDir, loadConformance, projectRoot } from './support/paths';
import { testCompileCache } from './support/temp-workspace';

const cli = path.join(projectRoot, 'dist', 'cli.js');

function run(args: string[], options: { input?: string; env?: Record<string, string> } = {}) {
  const result = spawnSync(process.execPath, [cli, ...args], {
    cwd: projectRoot,
    input: options.input ?? '',
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', RENDER_LENS_CACHE_DIR: testCompileCache, ...options.env },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Compares with a golden file; UPDATE_GOLDENS=1 rewrites it instead. */
function golden(name: string, actual: string): void {
  const file = path.join(fixturesDir, 'cli', name);
  if (process.env.UPDATE_GOLDENS === '1') fs.writeFileSync(file, actual);
  assert.equal(actual, fs.readFileSync(file, 'utf8'), `output differs from test-fixtures/cli/${name}`);
}

const demo = path.join('test-fixtures', 'demo');

suite('cli: check', () => {
  test('prints each finding with its source line and carets, then a summary, and exits 1 on errors', () => {
    const { code, stdout } = run(['check', '--root', demo, demo]);
    assert.equal(code, 1);
    golden('demo-check.txt', stdout);
  });

  test('the kochhaus-home cut (the README\'s screenshots): one SILENT-DEFAULT warning and unused-variable hints, no error', () => {
    const realRepo = path.join('test-fixtures', 'real-repo', 'kochhaus-home');
    const { code, stdout } = run(['check', '--root', realRepo, realRepo]);
    assert.equal(code, 0);
    golden('real-repo-check.txt', stdout);
  });

  test('--exit-zero and --max-severity decide the exit code', () => {
    assert.equal(run(['check', '--root', demo, '--exit-zero', demo]).code, 0);
    assert.equal(run(['check', '--root', demo, '--max-severity', 'error', path.join(demo, 'infrastructure')]).code, 0);
    assert.equal(run(['check', '--root', demo, '--max-severity', 'warning', path.join(demo, 'infrastructure')]).code, 1);
  });

  test('--format json reports positions as offsets and 1-based lines and columns', () => {
    const { stdout } = run(['check', '--root', demo, '--format', 'json', demo]);
    const report = JSON.parse(stdout) as { version: number; summary: { files: number; findings: number }; findings: Array<{ rule: string; file: string; start: { line: number; column: number; offset: number } }> };
    assert.equal(report.version, 1);
    assert.equal(report.summary.findings, report.findings.length);
    const parse = report.findings.find((f) => f.rule === 'ENVSUBST-PARSE');
    assert.ok(parse);
    const text = fs.readFileSync(path.join(demo, parse.file), 'utf8');
    assert.equal(text.slice(parse.start.offset, parse.start.offset + 2), '${');
    assert.equal(text.split('\n')[parse.start.line - 1][parse.start.column - 1], '$');
  });

  test('a run that checked nothing exits 1 and says so, unless --allow-empty', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'render-lens-empty-'));
    const empty = run(['check', '--root', dir, dir]);
    assert.equal(empty.code, 1);
    assert.match(empty.stderr, /nothing checked: 0 files, 0 substituted values, 0 Helm string fields, 0 Fleet patches\. Pass --allow-empty/);
    assert.equal(run(['check', '--root', dir, '--allow-empty', dir]).code, 0);
    // Files, but none a Flux Kustomization substitutes: no field any rule reads.
    fs.writeFileSync(path.join(dir, 'service.yaml'), 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n');
    const unread = run(['check', '--root', dir, '--format', 'json', dir]);
    assert.equal(unread.code, 1);
    assert.deepEqual((JSON.parse(unread.stdout) as { summary: { checked: object } }).summary.checked, { substitutedValues: 0, helmStringFields: 0, fleetPatches: 0 });
    assert.match(run(['check', '--root', dir, '--format', 'github', dir]).stdout, /^::error title=Render Lens::nothing checked: 1 file, 0 substituted values/m);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('usage errors exit 2 with a message', () => {
    const { code, stderr } = run(['check', '--format', 'xml']);
    assert.equal(code, 2);
    assert.match(stderr, /--format must be one of text, json/);
    assert.equal(run(['frobnicate']).code, 2);
  });
});

suite('cli: explain', () => {
  test('prints the contexts of a file with the variables and where they come from', () => {
    const { code, stdout } = run(['explain', '--root', demo, path.join(demo, 'apps', 'backup', 'cronjob.yaml')]);
    assert.equal(code, 0);
    assert.match(stdout, /^production\/apps \(Kustomization flux-system\/apps, clusters\/production\/apps\.yaml:6\)$/m);
    assert.match(stdout, /substitutes: yes, strict \(Flux v2\.9\.1/);
    assert.match(stdout, /^ {2}region = `eu-west-1`\n {4}from `eu-west-1` — ConfigMap cluster-vars, clusters\/production\/cluster-vars\.yaml:7$/m);
    const json = JSON.parse(run(['explain', '--json', '--root', demo, path.join(demo, 'infrastructure', 'ingress.yaml')]).stdout) as { contexts: Array<{ substitutes: boolean; skipped: string }> };
    assert.deepEqual(json.contexts.map((c) => [c.substitutes, c.skipped]), [[false, 'no-postbuild']]);
  });

  test('--json values are plain data, without Markdown', () => {
    type Layer = { value: unknown; source: string };
    const json = JSON.parse(run(['explain', '--json', '--root', demo, path.join(demo, 'apps', 'backup', 'cronjob.yaml')]).stdout) as { contexts: Array<{ variables: Array<{ name: string; value: unknown; layers: Layer[] }> }> };
    const region = json.contexts[0].variables.find((v) => v.name === 'region');
    assert.deepEqual([region?.value, region?.layers.map((l) => l.value)], ['eu-west-1', ['eu-west-1']]);
    const variable = JSON.parse(run(['explain', '--json', '--root', demo, 'region']).stdout) as { contexts: Array<{ value: unknown }> };
    assert.ok(variable.contexts.some((c) => c.value === 'eu-west-1'));
    assert.doesNotMatch(JSON.stringify(json), /`/);
  });
});

suite('cli: envsubst', () => {
  test('substitutes stdin with the environment, as flux envsubst does', () => {
    const { code, stdout } = run(['envsubst'], { input: 'image: app:${TAG:-latest} pid=$$ ${UNSET}.\n', env: { TAG: '1.2' } });
    assert.equal(code, 0);
    assert.equal(stdout, 'image: app:1.2 pid=$ .\n');
  });

  test('bytes that are not UTF-8 pass through unchanged, as flux envsubst passes them', () => {
    const input = Buffer.concat([Buffer.from('a'), Buffer.from([0xff]), Buffer.from('${X} é $$ ${Y:-'), Buffer.from([0xfe, 0xe2, 0x82]), Buffer.from('}\n')]);
    const result = spawnSync(process.execPath, [cli, 'envsubst'], { input, env: { PATH: process.env.PATH ?? '', X: '1', RENDER_LENS_CACHE_DIR: testCompileCache } });
    assert.equal(result.status, 0);
    assert.deepEqual(result.stdout, Buffer.concat([Buffer.from('a'), Buffer.from([0xff]), Buffer.from('1 é $ '), Buffer.from([0xfe, 0xe2, 0x82]), Buffer.from('\n')]));
  });

  test('--strict fails with the exact error text and exit 1', () => {
    const { code, stdout, stderr } = run(['envsubst', '--strict'], { input: 'a: ${UNSET}\n' });
    assert.equal(code, 1);
    assert.equal(stdout, '');
    assert.equal(stderr, 'variable not set (strict mode): "UNSET"\n');
  });

  test('--vars adds variables from a dotenv or YAML file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'render-lens-vars-'));
    fs.writeFileSync(path.join(dir, 'vars.env'), '# cluster\nDOMAIN="example.com"\nexport MODE=fast\n');
    fs.writeFileSync(path.join(dir, 'vars.yaml'), 'DOMAIN: example.org\nPORT: 0755\n');
    assert.equal(run(['envsubst', '--vars', path.join(dir, 'vars.env')], { input: '${DOMAIN} ${MODE}' }).stdout, 'example.com fast');
    assert.equal(run(['envsubst', '--vars', path.join(dir, 'vars.yaml')], { input: '${DOMAIN}:${PORT}' }).stdout, 'example.org:0755');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('--jsonl answers every curated conformance vector exactly', () => {
    type Vector = { input: string; env: Record<string, string>; strict: boolean; output?: string; output_b64?: string; error?: string; panic?: string };
    const vectors = loadConformance<Vector>('envsubst/curated.jsonl');
    const input = vectors.map((v) => JSON.stringify({ input: v.input, env: v.env, strict: v.strict })).join('\n') + '\n';
    const answers = run(['envsubst', '--jsonl'], { input }).stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, string>);
    assert.equal(answers.length, vectors.length);
    const wrong = vectors.filter((v, i) => {
      const a = answers[i];
      if (v.error !== undefined) return a.error !== v.error;
      if (v.panic !== undefined) return a.panic !== v.panic;
      return a.output !== v.output || a.output_b64 !== v.output_b64;
    });
    assert.deepEqual(wrong.slice(0, 5), []);
  });
});

suite('cli: substitute', () => {
  test('--jsonl runs every pipeline vector through the controller path', () => {
    type Vector = { id: string; source: string; vars: Record<string, string>; strict: boolean; always: boolean; final?: string; skip_reason?: string; stage?: string; error?: string; controller_error?: string };
    const vectors = loadConformance<Vector>('pipeline/pipeline.jsonl');
    const input = vectors.map((v) => JSON.stringify({ source: v.source, vars: v.vars, strict: v.strict, always: v.always })).join('\n') + '\n';
    const answers = run(['substitute', '--jsonl'], { input }).stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, string>);
    assert.equal(answers.length, vectors.length);
    const canonical = (json: string | undefined) => (json === undefined ? undefined : JSON.stringify(JSON.parse(json.replace(/(?<=[:\[,]\s*)(-?\d{16,})(?=\s*[,}\]])/g, '"$1"'))));
    const wrong = vectors.filter((v, i) => {
      const a = answers[i];
      if (v.skip_reason !== undefined) return a.skipped !== v.skip_reason;
      if (v.stage !== undefined) return a.stage !== v.stage || a.error !== v.error;
      if (v.final !== undefined) return canonical(a.final) !== canonical(v.final);
      return false;
    });
    assert.deepEqual(wrong.map((v) => v.id).slice(0, 5), []);
  });
});

suite('cli: check formats for CI', () => {
  test('--format sarif is valid SARIF 2.1.0 with rules, exact regions and related locations', () => {
    const { stdout } = run(['check', '--root', demo, '--format', 'sarif', demo]);
    const log = JSON.parse(stdout) as import('sarif').Log;
    const projectRequire = createRequire(path.join(projectRoot, 'package.json'));
    const schema = JSON.parse(fs.readFileSync(projectRequire.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8')) as object;
    // The published SARIF schema is draft-04, which needs ajv's draft-04 build.
    const Ajv = (projectRequire('ajv-draft-04') as { default: new (options: object) => { validate(schema: object, data: unknown): boolean; errorsText(): string } }).default;
    const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
    assert.ok(ajv.validate(schema, log), ajv.errorsText());
    assert.ok(!ajv.validate(schema, { ...log, version: '2.0.9' }), 'the schema check can fail');
    const run0 = log.runs[0];
    assert.ok(run0.tool.driver.rules?.some((rule) => rule.id === 'ENVSUBST-PARSE' && /docs\/rules\/ENVSUBST-PARSE\.md$/.test(rule.helpUri ?? '')));
    const parse = run0.results?.find((r) => r.ruleId === 'ENVSUBST-PARSE');
    const region = parse?.locations?.[0].physicalLocation?.region;
    assert.deepEqual([parse?.locations?.[0].physicalLocation?.artifactLocation?.uri, region?.startLine, region?.startColumn, region?.endColumn], ['apps/postgres/migrations.yaml', 17, 14, 33]);
    assert.ok((parse?.relatedLocations ?? []).length > 0);
    assert.ok((parse?.fixes ?? []).length > 0);
  });

  test('--format github prints one workflow annotation per finding', () => {
    const { stdout } = run(['check', '--root', demo, '--format', 'github', demo]);
    golden('demo-github.txt', stdout);
  });

  test('--format json and sarif match their goldens on the demo repository', () => {
    golden('demo-check.json', run(['check', '--root', demo, '--format', 'json', demo]).stdout);
    golden('demo-check.sarif', run(['check', '--root', demo, '--format', 'sarif', demo]).stdout);
  });

  test('--strict turns every cluster strict; --cluster restricts to one', () => {
    const dir = path.join('test-fixtures', 'rules', 'UNDEFINED-VAR', 'two-clusters');
    const severities = (extra: string[]) =>
      (JSON.parse(run(['check', '--root', dir, '--format', 'json', '--exit-zero', ...extra, dir]).stdout) as { findings: Array<{ rule: string; severity: string; message: string }> }).findings
        .filter((f) => f.rule === 'UNDEFINED-VAR')
        .map((f) => `${f.severity}: ${f.message}`);
    assert.ok(severities([]).some((s) => s.startsWith('warning: `domain`')));
    assert.ok(severities(['--strict']).every((s) => s.startsWith('error')));
    assert.deepEqual(severities(['--cluster', 'production']).map((s) => s.replace(/:.*/, '')), ['error']);
    const { code, stderr } = run(['check', '--root', dir, '--cluster', 'nowhere', dir]);
    assert.equal(code, 2);
    assert.match(stderr, /no cluster named nowhere; the clusters are: production, staging/);
  });
});

suite('cli: render', () => {
  test('prints each document as the controller applies it, with secrets redacted', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'render-lens-render-'));
    const write = (file: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    };
    write('clusters/prod/apps.yaml', 'apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: apps\n  namespace: flux-system\nspec:\n  path: ./apps\n  postBuild:\n    substitute:\n      port: "8080"\n    substituteFrom:\n      - kind: Secret\n        name: creds\n');
    write('clusters/prod/creds.yaml', 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: creds\n  namespace: flux-system\nstringData:\n  token: s3cr3t-t0ken\n');
    write('apps/app.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n  url: "http://app:${port}"\n  auth: Bearer ${token}\n  sql: DO $$ BEGIN END $$\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: app\nstringData:\n  password: hunter2-hunter2\n');
    const { code, stdout } = run(['render', '--root', dir, path.join(dir, 'apps', 'app.yaml')]);
    fs.rmSync(dir, { recursive: true, force: true });
    assert.equal(code, 0);
    assert.match(stdout, /^# apps\/app\.yaml as kustomize-controller applies it in prod\/apps \(strict\)\./);
    assert.match(stdout, /^ {2}url: http:\/\/app:8080$/m);
    assert.match(stdout, /^ {2}sql: DO \$ BEGIN END \$$/m);
    assert.match(stdout, /^ {2}auth: Bearer <secret token>$/m);
    // 15 characters: short enough to guess, so no hash either (render/redaction.ts).
    assert.match(stdout, /^ {2}password: <redacted>$/m);
    assert.doesNotMatch(stdout, /s3cr3t|hunter2/);
  });
});

suite('cli: compile cache', () => {
  const said = (stderr: string) => [...stderr.matchAll(/^render-lens: compile cache: (\w+)/gm)].map((m) => m[1]);
  const withCache = (test: (cache: string, check: (env?: Record<string, string>, args?: string[]) => ReturnType<typeof run>) => void) => {
    const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'render-lens-cache-'));
    const check = (env: Record<string, string> = {}, args = ['check', '--root', demo, '--format', 'json', demo]) => run(args, { env: { RENDER_LENS_CACHE_DIR: cache, RENDER_LENS_LOG: 'debug', ...env } });
    try {
      test(cache, check);
    } finally {
      fs.rmSync(cache, { recursive: true, force: true });
    }
  };
  const cachedIn = (cache: string) => fs.readdirSync(cache).filter((name) => name.endsWith('.v8cache')).sort();

  test('a check leaves the compiled bundle in the user cache; later runs use it, and redo a damaged one', () =>
    withCache((cache, check) => {
      // Other bundles' caches: one not written for 40 days goes, a recent one (another installed version) stays.
      const stale = 'cli-0123456789abcdef0123456789abcdef.v8cache';
      const recent = 'cli-fedcba9876543210fedcba9876543210.v8cache';
      fs.writeFileSync(path.join(cache, stale), 'old');
      fs.writeFileSync(path.join(cache, recent), 'other version');
      const longAgo = new Date(Date.now() - 40 * 24 * 3600 * 1000);
      fs.utimesSync(path.join(cache, stale), longAgo, longAgo);

      // Other commands run a part of the bundle only: they leave no cache.
      assert.deepEqual(said(check({}, ['--version']).stderr), []);
      assert.deepEqual(cachedIn(cache), [recent, stale].sort());

      const first = check();
      assert.deepEqual(said(first.stderr), ['wrote']);
      const [file] = cachedIn(cache).filter((name) => name !== recent && name !== stale);
      assert.match(file, /^cli-[0-9a-f]{32}\.v8cache$/);
      assert.deepEqual(cachedIn(cache), [file, recent].sort(), 'the stale cache is removed, the recent one kept');
      if (process.platform !== 'win32') assert.equal(fs.statSync(path.join(cache, file)).mode & 0o777, 0o600);

      const second = check();
      assert.deepEqual(said(second.stderr), ['used']);
      assert.equal(second.stdout, first.stdout);
      assert.equal(second.code, first.code);
      assert.deepEqual(said(check({}, ['--version']).stderr), ['used']);

      fs.writeFileSync(path.join(cache, file), 'not a code cache');
      const third = check();
      assert.deepEqual(said(third.stderr), ['rejected', 'wrote']);
      assert.equal(third.stdout, first.stdout);
      assert.ok(fs.statSync(path.join(cache, file)).size > 10_000, 'made again');

      fs.rmSync(path.join(cache, file));
      const off = check({ RENDER_LENS_NO_COMPILE_CACHE: '1' });
      assert.deepEqual(said(off.stderr), []);
      assert.equal(off.stdout, first.stdout);
      assert.deepEqual(cachedIn(cache), [recent], 'turned off: nothing written');
    }));

  test('a cache folder that cannot be used costs only the compile: not a folder, relative, or writable by others', () =>
    withCache((cache, check) => {
      const reference = check({ RENDER_LENS_NO_COMPILE_CACHE: '1' });
      const notAFolder = path.join(cache, 'file');
      fs.writeFileSync(notAFolder, '');
      const cases: Array<[string, string]> = [
        [path.join(notAFolder, 'below'), 'not'],
        ['relative/cache', 'off'],
      ];
      if (process.platform !== 'win32') {
        const shared = path.join(cache, 'shared');
        fs.mkdirSync(shared, { mode: 0o777 });
        fs.chmodSync(shared, 0o777);
        cases.push([shared, 'off']);
      }
      for (const [folder, word] of cases) {
        const result = check({ RENDER_LENS_CACHE_DIR: folder });
        assert.equal(result.code, reference.code, folder);
        assert.equal(result.stdout, reference.stdout, folder);
        assert.deepEqual(said(result.stderr), [word], `${folder}: ${result.stderr}`);
        assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
      }
      assert.ok(!fs.existsSync(path.join(process.cwd(), 'relative')), 'nothing written relative to the working directory');
    }));
});
