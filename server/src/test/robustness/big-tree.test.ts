/**
 * A 100,000-file tree (98,000 source files and 2,000 manifests a Flux Kustomization renders),
 * written to a temp directory. The engine keeps a bounded number of parses while it checks
 * it; the server reports work-done progress for Check Workspace and stops when cancelled.
 */
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { LSPErrorCodes } from 'vscode-languageserver-protocol';
import { Engine } from '../../core/engine';
import { NodeHost } from '../../node-host';
import { checkWorkspaceCommand, type CheckWorkspaceResult } from '../../protocol';
import { configMap, fluxKustomization } from '../support/hostile-repos';
import { CancellationTokenSource, ProbeClient, type ProgressValue } from '../support/probe-client';
import { removeWorkspace } from '../support/temp-workspace';

const manifests = 2000;
const sources = 98000;

function writeTree(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'render-lens-tree-'));
  const write = (file: string, text: string) => fs.writeFileSync(path.join(root, ...file.split('/')), text);
  // Source files are hard links to a few written ones: a directory entry each, a tenth of
  // the system time of writing 98,000 files (a file system allows ~65,000 links per inode).
  const seeds: string[] = [];
  for (let d = 0; d < sources / 100; d++) {
    fs.mkdirSync(path.join(root, 'src', `m${d % 40}`, `p${d}`), { recursive: true });
    for (let f = 0; f < 100; f++) {
      const file = path.join(root, 'src', `m${d % 40}`, `p${d}`, `f${f}.go`);
      if (seeds.length < 10) {
        fs.writeFileSync(file, 'package p\n');
        seeds.push(file);
      } else fs.linkSync(seeds[(d * 100 + f) % seeds.length], file);
    }
  }
  for (let d = 0; d < 20; d++) fs.mkdirSync(path.join(root, 'apps', `team${d}`), { recursive: true });
  for (let i = 0; i < manifests; i++) write(`apps/team${i % 20}/cm${i}.yaml`, configMap(`cm${i}`, '  port: "${A}"\n'));
  fs.mkdirSync(path.join(root, 'clusters', 'prod'), { recursive: true });
  for (const [file, text] of Object.entries(fluxKustomization('apps', 'apps'))) write(file, text);
  return root;
}

/** Resolves with the first token whose progress satisfies `predicate`. */
async function progressUntilAny(client: ProbeClient, predicate: (values: ProgressValue[]) => boolean): Promise<string> {
  for (;;) {
    const found = [...client.progress].find(([, values]) => predicate(values));
    if (found) return found[0];
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Resolves once `predicate` holds for the progress recorded under `token`. */
async function progressUntil(client: ProbeClient, token: string, predicate: (values: ProgressValue[]) => boolean): Promise<ProgressValue[]> {
  for (;;) {
    const values = client.progress.get(token) ?? [];
    if (predicate(values)) return values;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

suite('robustness: a 100,000-file tree', function () {
  this.timeout(60000);
  let root: string;
  let client: ProbeClient | undefined;

  suiteSetup(() => {
    root = writeTree();
  });
  suiteTeardown(async () => {
    if (client?.alive) await client.stop();
    removeWorkspace(root);
  });

  test('the engine checks it holding a bounded number of parses, and reports progress per file', () => {
    const engine = new Engine(new NodeHost(root));
    engine.index.cacheLimits = { files: 100, source: 64 * 1024 };
    const progress: number[] = [];
    const result = engine.analyzeWorkspace([''], { progress: (done, total) => progress.push(done / total) });
    assert.equal(engine.index.files().length, sources + manifests + 1);
    assert.equal(result.files, manifests + 1);
    assert.equal(result.findings.filter((f) => f.rule === 'TYPE-CHANGE').length, manifests);
    assert.equal(progress.length, manifests + 1);
    assert.ok(progress.every((p, i) => i === 0 || p > progress[i - 1]) && progress[progress.length - 1] === 1);
    const cached = engine.index.cachedParses();
    assert.ok(cached.files <= 100 && cached.source <= 64 * 1024, JSON.stringify(cached));
  });

  test('at start the open file is checked first, and the whole tree follows in the background with progress', async () => {
    const background = await ProbeClient.start(root);
    try {
      const uri = background.uriOf(root, 'apps/team1/cm1.yaml');
      const published = await background.open(uri, fs.readFileSync(path.join(root, 'apps', 'team1', 'cm1.yaml'), 'utf8'));
      assert.deepEqual(published.diagnostics.map((d) => d.code), ['TYPE-CHANGE']);
      // The server asked for a token of its own (no command was run) and ends it when done.
      const token = await progressUntilAny(background, (values) => values.some((v) => v.kind === 'end'));
      const at = (predicate: (event: ProbeClient['timeline'][number]) => boolean) => background.timeline.findIndex(predicate);
      const end = at((e) => e.kind === 'progress' && e.token === token && e.value.kind === 'end');
      assert.ok(at((e) => e.kind === 'publish' && e.uri === uri) < end, 'the open file was not kept waiting for the whole tree');
      const closed = new Set(background.timeline.flatMap((e) => (e.kind === 'publish' && e.uri !== uri ? [e.uri] : [])));
      assert.equal(closed.size, manifests - 1, 'every other manifest got its diagnostics in the background');
      assert.ok((background.progress.get(token) ?? []).some((v) => v.kind === 'report'), 'progress was reported');
    } finally {
      await background.stop();
    }
  });

  test('Check Workspace reports work-done progress, on its own token or the client\'s', async () => {
    // The background check at start is off here: the only check is the one requested.
    client = await ProbeClient.start(root, {}, { checkWorkspaceOnStartup: false });
    const result = (await client.executeCommand(checkWorkspaceCommand)) as CheckWorkspaceResult;
    assert.equal(result.files, manifests + 1);
    assert.ok(result.errors >= manifests);
    // The client gave no token: the server asked for one (window/workDoneProgress/create).
    const [created] = [...client.progress.values()];
    for (const values of [created, await runWithToken(client, 'check-1')]) {
      assert.equal(values[0].kind, 'begin');
      assert.equal(values[values.length - 1].kind, 'end');
      const reports = values.filter((v): v is Extract<ProgressValue, { kind: 'report' }> => v.kind === 'report');
      assert.ok(reports.length >= 1, 'at least one report');
      assert.ok(reports.every((r, i) => i === 0 || (r.percentage ?? 0) >= (reports[i - 1].percentage ?? 0)), 'percentages never go down');
    }
  });

  test('Check Workspace stops when cancelled, and the server goes on', async () => {
    client ??= await ProbeClient.start(root, {}, { checkWorkspaceOnStartup: false });
    const cancel = new CancellationTokenSource();
    const running = client.executeCommand(checkWorkspaceCommand, { workDoneToken: 'cancel-me', cancel });
    await progressUntil(client, 'cancel-me', (values) => values.some((v) => v.kind === 'report'));
    cancel.cancel();
    await assert.rejects(running, (error: { code?: number }) => error.code === LSPErrorCodes.RequestCancelled);
    const values = await progressUntil(client, 'cancel-me', (v) => v.some((p) => p.kind === 'end'));
    const last = values.filter((v) => v.kind === 'report').pop() as { percentage?: number } | undefined;
    assert.ok((last?.percentage ?? 0) < 100, 'it stopped before the end');
    const uri = client.uriOf(root, 'apps/team0/cm0.yaml');
    const published = await client.open(uri, fs.readFileSync(path.join(root, 'apps', 'team0', 'cm0.yaml'), 'utf8'));
    assert.deepEqual(published.diagnostics.map((d) => d.code), ['TYPE-CHANGE'], 'the server still answers');
  });
});

async function runWithToken(client: ProbeClient, token: string): Promise<ProgressValue[]> {
  await client.executeCommand(checkWorkspaceCommand, { workDoneToken: token });
  return client.progress.get(token) ?? [];
}
