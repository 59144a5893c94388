/**
 * What Render Lens prints about a hostile repository: bounded in size whatever the input,
 * with real positions in every format, control characters escaped, and a CLI that exits when
 * its cache folder cannot be made. Every input is built here.
 */
import * as assert from 'assert/strict';
import { spawnSync } from 'child_process';
import * as path from 'path';
import type { Log } from 'sarif';
import { maxMessageLength } from '../../core/limits';
import { frameWidth } from '../../cli/terminal-text';
import { maxFramesPerFile } from '../../cli/format-text';
import { configMap, fluxKustomization } from '../support/hostile-repos';
import { projectRoot } from '../support/paths';
import { ProbeClient } from '../support/probe-client';
import { runCli, suiteWorkspaces } from '../support/temp-workspace';

interface JsonFinding {
  rule: string;
  file: string;
  message: string;
  start: { line: number; column: number };
  end: { line: number; column: number };
}

/** ESC, BEL, CSI and the bidirectional override: what retitles, clears or disguises a terminal's text. */
const controls = /[\u0007\u001b\u009b\u202e]/;

suite('robustness: hostile output', function () {
  this.timeout(60000);
  const { temp } = suiteWorkspaces();

  test('a 600 KB line of `$$ `: the text format prints bounded frames, 50 per file, and says how many more', async () => {
    const line = '$$ '.repeat(200_000);
    const root = temp({ ...fluxKustomization('apps', 'apps'), 'apps/line.yaml': configMap('line', `  k: ${line}\n`) });
    const cli = await runCli(['check', '--format', 'text', '--exit-zero', '.'], root);
    assert.equal(cli.code, 0, cli.stderr);
    assert.ok(cli.stdout.length < 100_000, `${cli.stdout.length} characters of output`);
    const frames = cli.stdout.split('\n').filter((l) => /^ {2}7 \| /.test(l));
    assert.equal(frames.length, maxFramesPerFile);
    for (const frame of frames) assert.ok(frame.length <= frameWidth + 10, `a frame line is ${frame.length} characters`);
    assert.match(cli.stdout, /apps\/line\.yaml: and 951 more findings in this file \(--format json lists them all\)/);
    // The carets of a finding far along the line stay under it: the frame is a window around it.
    const json = JSON.parse((await runCli(['check', '--format', 'json', '--exit-zero', '.'], root)).stdout) as { findings: JsonFinding[] };
    assert.equal(json.findings.filter((f) => f.file === 'apps/line.yaml').length, 1001);
  });

  test('a code frame far along a long line is a window around the finding, with the carets under it', async () => {
    const root = temp({ ...fluxKustomization('apps', 'apps'), 'apps/far.yaml': configMap('far', `  k: ${'x'.repeat(5000)} $$ ${'y'.repeat(5000)}\n`) });
    const cli = await runCli(['check', '--format', 'text', '--exit-zero', 'apps'], root);
    const lines = cli.stdout.split('\n');
    const at = lines.findIndex((l) => l.startsWith('apps/far.yaml:7:5007: warning DOLLAR-COLLAPSE'));
    assert.ok(at >= 0, cli.stdout);
    const [frame, carets] = [lines[at + 1], lines[at + 2]];
    assert.match(frame, /^ {2}7 \| …x+ \$\$ y+…$/);
    assert.equal(frame.indexOf('$$'), carets.indexOf('^^'));
    assert.ok(frame.length <= frameWidth + 10);
  });

  test('a binary file gives one short message, not one per byte sequence quoting it', async () => {
    const bytes = Buffer.alloc(64 * 1024);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919 + (i >> 3)) & 0xff;
    const root = temp({ ...fluxKustomization('apps', 'apps'), 'apps/blob.yaml': bytes, 'apps/long-token.yaml': `a: b\n]${'z'.repeat(40_000)}\n` });
    const json = JSON.parse((await runCli(['check', '--format', 'json', '--exit-zero', '.'], root)).stdout) as { findings: JsonFinding[] };
    const blob = json.findings.filter((f) => f.file === 'apps/blob.yaml');
    assert.deepEqual(blob.map((f) => f.message), ['Not checked: this file holds a NUL byte (line 1), so it is binary, not YAML text.']);
    for (const finding of json.findings) assert.ok(finding.message.length <= maxMessageLength + 40, `${finding.rule}: a message of ${finding.message.length} characters`);
    // A document broken by a 40,000-character token: one finding for the document, and a short one.
    const token = json.findings.filter((f) => f.file === 'apps/long-token.yaml');
    assert.deepEqual(token.map((f) => f.rule), ['YAML-SYNTAX']);
    assert.ok(token[0].message.length <= 120, token[0].message);
  });

  test('an emoji before an unterminated `${` in a comment: integer end columns in JSON, SARIF, GitHub and LSP', async () => {
    const files = { ...fluxKustomization('apps', 'apps'), 'apps/x.yaml': 'a: b\n# \u{1F4A1} ${\n' };
    const root = temp(files);
    const json = JSON.parse((await runCli(['check', '--format', 'json', '--exit-zero', '.'], root)).stdout) as { findings: JsonFinding[] };
    const [parse] = json.findings.filter((f) => f.file === 'apps/x.yaml');
    assert.deepEqual([parse.rule, parse.start, parse.end], ['ENVSUBST-PARSE', { offset: 10, line: 2, column: 6 }, { offset: 12, line: 2, column: 8 }]);
    const sarif = JSON.parse((await runCli(['check', '--format', 'sarif', '--exit-zero', '.'], root)).stdout) as Log;
    const regions = sarif.runs[0].results!.map((r) => r.locations![0].physicalLocation!.region!);
    for (const region of regions) for (const value of [region.startLine, region.startColumn, region.endLine, region.endColumn]) assert.ok(Number.isInteger(value), JSON.stringify(region));
    const github = (await runCli(['check', '--format', 'github', '--exit-zero', '.'], root)).stdout;
    assert.match(github, /file=apps\/x\.yaml,line=2,col=6,endLine=2,endColumn=8,/);
    assert.doesNotMatch(github, /NaN|undefined/);

    const client = await ProbeClient.start(root);
    try {
      const published = await client.open(client.uriOf(root, 'apps/x.yaml'), files['apps/x.yaml']);
      assert.deepEqual(
        published.diagnostics.filter((d) => d.code === 'ENVSUBST-PARSE').map((d) => d.range),
        [{ start: { line: 1, character: 5 }, end: { line: 1, character: 7 } }],
      );
    } finally {
      await client.stop();
    }
  });

  test('terminal escapes in lines and file names are shown escaped in text, GitHub, explain output and usage errors', async () => {
    const name = 'apps/esc\u001b]0;pwned\u0007.yaml';
    const root = temp({ ...fluxKustomization('apps', 'apps'), [name]: configMap('esc', '  k: "\u001b[2J\u001b]0;title\u0007 $$ \u202e \u009b"\n'), 'apps/vars.yaml': configMap('v', '  k: "${A}"\n') });
    for (const format of ['text', 'github']) {
      const cli = await runCli(['check', '--format', format, '--exit-zero', '.'], root);
      assert.equal(cli.code, 0, cli.stderr);
      assert.doesNotMatch(cli.stdout, controls, format);
      assert.ok(cli.stdout.includes('esc\\x1b]0;pwned\\x07.yaml'), `${format}: the file name is shown escaped`);
    }
    const text = (await runCli(['check', '--format', 'text', '--exit-zero', '.'], root)).stdout;
    assert.ok(text.includes('"\\x1b[2J\\x1b]0;title\\x07 $$ \\u202e \\x9b"'), text);
    // The carets sit under the `$$` of the escaped line.
    const lines = text.split('\n');
    const frame = lines.findIndex((l) => l.includes('$$ \\u202e'));
    assert.equal(lines[frame + 1].indexOf('^^'), lines[frame].indexOf('$$'));
    const explain = await runCli(['explain', name], root);
    assert.doesNotMatch(explain.stdout, controls);
    // A cluster named by a folder with an escape in it, listed in a usage error on stderr.
    const other = temp({ 'clusters/\u001b]0;x\u0007/apps.yaml': fluxKustomization('apps', 'apps')['clusters/prod/apps.yaml'], 'apps/cm.yaml': configMap('cm', '  k: v\n') });
    const usage = await runCli(['check', '--cluster', 'nope', '.'], other);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /the clusters are: \\x1b\]0;x\\x07/);
    assert.doesNotMatch(usage.stderr, controls);
  });

  test('a cache folder that cannot be made (under /proc) costs the cache, not the exit', function () {
    if (process.platform !== 'linux') this.skip();
    const root = temp({ ...fluxKustomization('apps', 'apps'), 'apps/cm.yaml': configMap('cm', '  k: "${A}"\n') });
    for (const env of [{ RENDER_LENS_CACHE_DIR: '/proc/x' }, { RENDER_LENS_CACHE_DIR: '', XDG_CACHE_HOME: '', HOME: '/proc/self' }]) {
      // The bound only stops a hung process from outliving the test; a correct run takes a second.
      const run = spawnSync(process.execPath, [path.join(projectRoot, 'dist', 'cli.js'), 'check', '--exit-zero', '.'], { cwd: root, encoding: 'utf8', timeout: 30_000, env: { ...process.env, NO_COLOR: '1', RENDER_LENS_LOG: 'debug', ...env } });
      assert.equal(run.error, undefined, `${JSON.stringify(env)}: ${String(run.error)}`);
      assert.equal(run.status, 0, run.stderr);
      assert.match(run.stdout, /TYPE-CHANGE/);
      assert.match(run.stderr, /compile cache: not written: .*mkdir '\/proc\//);
    }
  });
});
