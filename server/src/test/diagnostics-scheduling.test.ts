/**
 * The order in which the server checks open documents and sends their diagnostics. Over a real
 * pipe this is a matter of timing (a big publish leaves over several turns of the event loop),
 * so the connection here is a stand-in whose writes finish when the test says so; documents,
 * workspaces and the engine are stand-ins that record what was asked of them.
 */
import * as assert from 'assert/strict';
import type { Connection, PublishDiagnosticsParams, TextDocuments } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { FixStore } from '../lsp/fix-store';
import { ForegroundWork } from '../lsp/foreground';
import { registerDiagnostics } from '../lsp/requests/diagnostics';
import type { Workspaces } from '../lsp/workspace';

type Handler = (event: { document: TextDocument }) => void;

/** Lets queued immediates and promise callbacks run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Lets every check run and every write finish, until nothing is left to do. */
async function drainWrites(writes: Array<{ finish: () => void }>): Promise<void> {
  for (let written = -1; written !== writes.length; ) {
    written = writes.length;
    writes.forEach((w) => w.finish());
    await settle();
  }
}

function harness() {
  const open = new Map<string, TextDocument>();
  const handlers: Record<'open' | 'change' | 'close', Handler[]> = { open: [], change: [], close: [] };
  const documents = {
    onDidOpen: (h: Handler) => handlers.open.push(h),
    onDidChangeContent: (h: Handler) => handlers.change.push(h),
    onDidClose: (h: Handler) => handlers.close.push(h),
    get: (uri: string) => open.get(uri),
    all: () => [...open.values()],
  } as unknown as TextDocuments<TextDocument>;

  const checked: string[] = [];
  const writes: Array<{ params: PublishDiagnosticsParams; finish: () => void; fail: () => void }> = [];
  const connection = {
    sendDiagnostics: (params: PublishDiagnosticsParams) => new Promise<void>((finish, reject) => writes.push({ params, finish, fail: () => reject(new Error('pipe closed')) })),
    onDidChangeWatchedFiles: () => undefined,
  } as unknown as Connection;
  const engine = {
    // Every new file changes the Flux graph, as the bench's manifests do: all open files are re-checked.
    update: () => true,
    notCheckedBecause: () => undefined,
    analyzeFile: (file: string) => {
      checked.push(file);
      return { findings: [], fields: 0 };
    },
    index: { text: () => undefined, reparsesFromEdit: () => false },
  };
  const workspaces = {
    locate: (uri: string) => ({ engine, file: uri.slice('file:///ws/'.length), host: { readFile: () => undefined } }),
    uriOf: (_located: unknown, file: string) => `file:///ws/${file}`,
  } as unknown as Workspaces;
  const log = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
  // Deferred work (the other documents' re-check) runs when the test says the quiet period is over.
  const deferred: Array<{ work: () => void; ms: number; cancelled: boolean }> = [];
  const defer = (work: () => void, ms: number) => {
    const entry = { work, ms, cancelled: false };
    deferred.push(entry);
    return () => (entry.cancelled = true);
  };
  const quietPeriodEnds = () => deferred.splice(0).forEach((d) => d.cancelled || d.work());
  const foreground = new ForegroundWork();
  const scheduler = registerDiagnostics(connection, documents, workspaces, new FixStore(), log as never, defer, undefined, foreground);
  /** What the workspace check's thread reads: set, it stands aside. */
  const checkStandsAside = () => Atomics.load(new Int32Array(foreground.shared), 0) === 1;

  const openDocument = (file: string) => {
    const document = TextDocument.create(`file:///ws/${file}`, 'yaml', 1, 'a: 1\n');
    open.set(document.uri, document);
    for (const h of [...handlers.open, ...handlers.change]) h({ document });
  };
  const changeDocument = (file: string) => {
    const before = open.get(`file:///ws/${file}`)!;
    const document = TextDocument.create(before.uri, 'yaml', before.version + 1, `${before.getText()}b: 2\n`);
    open.set(document.uri, document);
    for (const h of handlers.change) h({ document });
  };
  return { openDocument, changeDocument, checked, writes, deferred, quietPeriodEnds, scheduler, checkStandsAside };
}

suite('diagnostics scheduling', () => {
  test('the workspace check stands aside from when an open document waits for its check until its diagnostics are written', async () => {
    const { openDocument, changeDocument, writes, checkStandsAside } = harness();
    assert.equal(checkStandsAside(), false);
    openDocument('a.yaml');
    assert.equal(checkStandsAside(), true, 'set as the document is opened, before its check');
    await settle();
    assert.equal(writes.length, 1);
    assert.equal(checkStandsAside(), true, 'still set while its diagnostics are written');
    writes[0].finish();
    await settle();
    assert.equal(checkStandsAside(), false);
    changeDocument('a.yaml');
    assert.equal(checkStandsAside(), true, 'set again by a keystroke');
    await drainWrites(writes);
    assert.equal(checkStandsAside(), false);
  });

  test('the next check waits until the last diagnostics are written', async () => {
    const { openDocument, checked, writes, deferred, quietPeriodEnds } = harness();
    openDocument('a.yaml');
    await settle();
    assert.deepEqual(checked, ['a.yaml']);
    assert.equal(writes.length, 1);
    writes[0].finish();
    await settle();

    // b.yaml changes the graph: b is checked first, then a again once edits pause. The pause
    // is counted from when b's diagnostics are out (b's check may outlast it).
    openDocument('b.yaml');
    await settle();
    assert.deepEqual(checked, ['a.yaml', 'b.yaml']);
    assert.deepEqual(
      writes.map((w) => w.params.uri),
      ['file:///ws/a.yaml', 'file:///ws/b.yaml'],
    );
    assert.equal(deferred.length, 0, 'no wait starts while b is checked and its diagnostics are written');
    quietPeriodEnds();
    await settle();
    assert.deepEqual(checked, ['a.yaml', 'b.yaml']);
    writes[1].finish();
    await settle();
    assert.deepEqual(checked, ['a.yaml', 'b.yaml']);
    assert.equal(deferred.length, 1, "the wait starts once b's diagnostics are out");
    quietPeriodEnds();
    await settle();
    assert.deepEqual(checked, ['a.yaml', 'b.yaml', 'a.yaml']);
    writes[2].finish();
    await settle();
    assert.deepEqual(checked, ['a.yaml', 'b.yaml', 'a.yaml']);
  });

  test('after edits that change the graph, the other open documents are checked once, when the edits pause', async () => {
    const { openDocument, changeDocument, checked, writes, deferred, quietPeriodEnds } = harness();
    const drain = () => drainWrites(writes);
    openDocument('a.yaml');
    openDocument('b.yaml');
    quietPeriodEnds();
    await drain();
    checked.length = 0;

    // Three keystrokes in b, each changing the graph: b is checked for each; a waits.
    for (let i = 0; i < 3; i++) {
      changeDocument('b.yaml');
      await drain();
    }
    assert.deepEqual(checked, ['b.yaml', 'b.yaml', 'b.yaml']);
    assert.ok(deferred.every((d) => d.ms > 0));
    assert.equal(deferred.filter((d) => !d.cancelled).length, 1, 'each keystroke restarts the quiet period');
    quietPeriodEnds();
    await drain();
    assert.deepEqual(checked, ['b.yaml', 'b.yaml', 'b.yaml', 'a.yaml']);
  });

  test('a settings change checks every open document at once, also those waiting for a pause', async () => {
    const { openDocument, checked, writes, quietPeriodEnds, scheduler } = harness();
    openDocument('a.yaml');
    openDocument('b.yaml');
    await drainWrites(writes);
    assert.deepEqual(checked, ['a.yaml', 'b.yaml']);
    scheduler.refreshAll();
    await drainWrites(writes);
    assert.deepEqual(checked, ['a.yaml', 'b.yaml', 'a.yaml', 'b.yaml']);
    quietPeriodEnds();
    await drainWrites(writes);
    assert.deepEqual(checked, ['a.yaml', 'b.yaml', 'a.yaml', 'b.yaml']);
  });

  test('a document opened while diagnostics are being written is checked once they are out', async () => {
    const { openDocument, checked, writes } = harness();
    openDocument('a.yaml');
    await settle();
    openDocument('b.yaml');
    await settle();
    assert.deepEqual(checked, ['a.yaml']);
    writes[0].finish();
    await settle();
    assert.deepEqual(checked, ['a.yaml', 'b.yaml']);
  });

  test('a write that fails does not stop the checks that follow', async () => {
    const { openDocument, checked, writes } = harness();
    openDocument('a.yaml');
    await settle();
    openDocument('b.yaml');
    writes[0].fail();
    await settle();
    assert.deepEqual(checked, ['a.yaml', 'b.yaml']);
  });
});
