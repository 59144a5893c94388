/**
 * The workspace check, in a worker thread (dist/workspace-check.js): its own engines over
 * the files on disk, with the editor's open texts laid over them, so the server thread keeps
 * answering the user while every file is read, parsed and checked. One 50,000-line manifest
 * alone takes about 0.75 s to check, and a check cannot stop inside a file: no slicing of the
 * check on the server thread keeps a hover under 5 ms beside such a file.
 *
 * It converts findings to diagnostics here too, and sends them in batches with progress.
 */
import * as os from 'os';
import { pathToFileURL } from 'url';
import { parentPort, workerData } from 'worker_threads';
import { TextDocument } from 'vscode-languageserver-textdocument';
import '../runtime/compiler-flags';
import { Engine } from '../core';
import { NodeHost } from '../node-host';
import { toDiagnostics } from './convert';
import { FixStore } from './fix-store';
import { standAside } from './foreground';
import { describeFolder } from './model-log';
import type { CheckedFile, WorkspaceCheckInput, WorkspaceCheckMessage } from './workspace-check-messages';

/** A batch goes out at least this often, with the progress so far. */
const batchMs = 50;

/** The check's thread runs at this nice value (Linux): behind the thread that answers the user, on a machine whose cores are busy. */
const backgroundNice = 10;

/**
 * On Linux a nice value belongs to a thread, and setpriority(2) with pid 0 sets the calling
 * thread's: this lowers the check's thread only. Elsewhere pid 0 would mean the whole
 * process, server thread included, so it is left alone.
 */
function runBehindTheServer(): void {
  if (process.platform !== 'linux') return;
  try {
    os.setPriority(0, backgroundNice);
  } catch {
    // Not allowed here (a sandbox): the check runs at the server's priority.
  }
}

function run(input: WorkspaceCheckInput): void {
  const send = (message: WorkspaceCheckMessage) => parentPort!.postMessage(message);
  const settings = { ...input.settings, log: (message: string) => send({ kind: 'log', level: 'error', message }) };
  const published = new Set(input.published);
  const seen = new Set<string>();
  const result = { files: 0, findings: 0, errors: 0 };
  // The worker's own store: it numbers each diagnostic's fixes as the server's store will (fixable).
  const fixes = new FixStore();
  let batch: CheckedFile[] = [];
  let batchStart = Date.now();
  for (const root of input.roots) {
    standAside(input.foreground);
    const host = new NodeHost(root);
    const engine = new Engine(host, settings);
    for (const [absolute, text] of input.open) {
      const file = host.relative(absolute);
      if (file !== undefined) engine.update(file, text);
    }
    if (input.logModel) send({ kind: 'log', level: 'info', message: describeFolder(host, engine) });
    const uriOf = (file: string) => pathToFileURL(host.absolute(file)).toString();
    const textOf = (file: string) => engine.index.text(file);
    for (const { file, analysis, done, total } of engine.analyzeEach([''])) {
      result.files++;
      result.findings += analysis.findings.length;
      for (const finding of analysis.findings) if (finding.severity === 'error') result.errors++;
      const uri = uriOf(file);
      seen.add(uri);
      if (analysis.findings.length > 0 || published.has(uri)) {
        const document = TextDocument.create(uri, 'yaml', 0, textOf(file) ?? '');
        const diagnostics = toDiagnostics(document, analysis.findings, null, fixes, uriOf, textOf);
        fixes.forget(uri);
        batch.push({ uri, diagnostics, fixable: analysis.findings.map(({ rule, fixes: own }) => ({ rule, fixes: own })) });
      }
      if (Date.now() - batchStart >= batchMs || done === total) {
        send({ kind: 'files', files: batch, done, total, soFar: { ...result } });
        batch = [];
        batchStart = Date.now();
      }
      // Between two files: the next one waits while the user's are checked.
      standAside(input.foreground);
    }
  }
  if (batch.length > 0) send({ kind: 'files', files: batch, done: result.files, total: result.files, soFar: { ...result } });
  send({ kind: 'done', result, gone: input.published.filter((uri) => !seen.has(uri)) });
}

runBehindTheServer();
run(workerData as WorkspaceCheckInput);
