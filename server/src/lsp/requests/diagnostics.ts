/**
 * Push diagnostics: every open YAML document is checked when it opens or changes, and its
 * diagnostics are published with the document version they belong to. A change that
 * reshapes the Flux graph (a Kustomization, a variable ConfigMap) re-checks every open file.
 */
import type { Connection, TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { toDiagnostics } from '../convert';
import type { FixStore } from '../fix-store';
import type { Logger } from '../logger';
import type { Workspaces } from '../workspace';

export interface DiagnosticsScheduler {
  /** Re-checks every open document (after a settings or graph change). */
  refreshAll(): void;
  /** Runs `work` once no open document waits for its check (now, if none does). */
  whenIdle(work: () => void): void;
}

export function registerDiagnostics(connection: Connection, documents: TextDocuments<TextDocument>, workspaces: Workspaces, fixes: FixStore, log: Logger): DiagnosticsScheduler {
  // Edits arrive faster than checks on a big file; only the newest version of each document
  // is checked, once the queue of pending events has drained. One document per turn of the
  // event loop: its diagnostics go out before the next is checked (the connection writes on
  // its own setImmediate, queued by publish, so the next check is queued after it), and an
  // edit that arrives meanwhile replaces what is still pending.
  const pending = new Map<string, TextDocument>();
  let scheduled = false;
  let idleWork: Array<() => void> = [];

  /** After a turn of the event loop, so that notifications already received are queued first. */
  const runIdleWork = () =>
    setImmediate(() => {
      if (pending.size > 0 || scheduled) return;
      const work = idleWork;
      idleWork = [];
      work.forEach((w) => w());
    });

  const flush = () => {
    scheduled = false;
    const next = pending.values().next();
    if (next.done) return;
    pending.delete(next.value.uri);
    try {
      publish(next.value);
    } finally {
      if (pending.size > 0 && !scheduled) {
        scheduled = true;
        setImmediate(flush);
      } else if (pending.size === 0 && idleWork.length > 0) runIdleWork();
    }
  };

  const schedule = (document: TextDocument) => {
    pending.set(document.uri, document);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };

  const refreshAll = () => documents.all().forEach(schedule);

  const publish = (document: TextDocument) => {
    if (documents.get(document.uri)?.version !== document.version) return;
    const located = workspaces.locate(document.uri);
    if (!located || !located.engine.isChecked(located.file)) return;
    const started = Date.now();
    // An open document: keep per-document results, so its next edit re-checks what it touched.
    const { findings } = located.engine.analyzeFile(located.file, { keep: true });
    const own = findings.filter((f) => f.file === located.file);
    const diagnostics = toDiagnostics(document, own, document.version, fixes, (other) => workspaces.uriOf(located, other), (other) => located.engine.index.text(other));
    log.debug(`checked ${located.file} v${document.version}: ${diagnostics.length} diagnostics in ${Date.now() - started} ms`);
    void connection.sendDiagnostics({ uri: document.uri, version: document.version, diagnostics });
  };

  const changed = (document: TextDocument) => {
    const located = workspaces.locate(document.uri);
    const graphChanged = located?.engine.update(located.file, document.getText()) ?? false;
    // The edited document first: its diagnostics are the ones the user is waiting for.
    schedule(document);
    if (graphChanged) refreshAll();
  };

  documents.onDidOpen(({ document }) => changed(document));
  documents.onDidChangeContent(({ document }) => changed(document));
  documents.onDidClose(({ document }) => {
    pending.delete(document.uri);
    fixes.forget(document.uri);
    const located = workspaces.locate(document.uri);
    // The file on disk is the truth again once its buffer closes.
    if (located?.engine.update(located.file, located.host.readFile(located.file))) refreshAll();
    void connection.sendDiagnostics({ uri: document.uri, diagnostics: [] });
  });
  connection.onDidChangeWatchedFiles(({ changes }) => {
    let graphChanged = false;
    for (const change of changes) {
      const located = workspaces.locate(change.uri);
      if (!located || documents.get(change.uri)) continue;
      graphChanged = located.engine.update(located.file, located.host.readFile(located.file)) || graphChanged;
    }
    if (graphChanged) refreshAll();
  });

  const whenIdle = (work: () => void) => {
    idleWork.push(work);
    if (pending.size === 0 && !scheduled) runIdleWork();
  };

  return { refreshAll, whenIdle };
}
