/**
 * Push diagnostics: every open YAML document is checked when it opens or changes, and its
 * diagnostics are published with the document version they belong to. A change that
 * reshapes the Flux graph (a Kustomization, a variable ConfigMap) re-checks the other open
 * files too, once edits pause.
 *
 * A keystroke only records that its document changed: the engine takes the document's text
 * when it is next checked, or when a request needs it (catchUp), with one span for every
 * keystroke since (edit-spans.ts). Each update re-parses what the edit touched, 10–40 ms in a
 * 10,000-line manifest: done per keystroke, a burst of a thousand queued them for 40–55 s
 * before the last one's diagnostics.
 */
import { FileChangeType, type Connection, type TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { toDiagnostics, warmLineOffsets } from '../convert';
import type { EditSpans } from '../edit-spans';
import type { FixStore } from '../fix-store';
import type { ForegroundWork } from '../foreground';
import type { Logger } from '../logger';
import type { Workspaces } from '../workspace';

export interface DiagnosticsScheduler {
  /** Re-checks every open document (after a settings or graph change). */
  refreshAll(): void;
  /** Runs `work` once no open document waits for its check (now, if none does). */
  whenIdle(work: () => void): void;
  /** Gives the engine every open document's newest text (before a request reads the engine). */
  catchUp(): void;
}

/**
 * How long the other open documents wait, after an edit changed the Flux graph, before they
 * are checked again: the editor is still reading the edited document's diagnostics (a
 * thousand of them is a message of a megabyte), and a burst of keystrokes re-checks them once.
 */
const othersQuietMs = 150;

/** Runs `work` after `ms` unless cancelled (the returned function); tests pass their own. */
export type Defer = (work: () => void, ms: number) => () => void;

const deferByTimer: Defer = (work, ms) => {
  const timer = setTimeout(work, ms);
  return () => clearTimeout(timer);
};

export function registerDiagnostics(
  connection: Connection,
  documents: TextDocuments<TextDocument>,
  workspaces: Workspaces,
  fixes: FixStore,
  log: Logger,
  defer: Defer = deferByTimer,
  edits?: EditSpans,
  foreground?: ForegroundWork,
): DiagnosticsScheduler {
  // Edits arrive faster than checks on a big file; only the newest version of each document
  // is checked, once the queue of pending events has drained. One document at a time, and the
  // next check waits until the last diagnostics are written: a big message leaves through the
  // pipe over several turns of the event loop, and a check started meanwhile (the other open
  // files, after a change to the Flux graph) held the first file's diagnostics back for as long
  // as it ran. An edit that arrives meanwhile replaces what is still pending.
  const pending = new Map<string, TextDocument>();
  const toldNotChecked = new Set<string>();
  /** Other open documents to check again once edits pause (after a graph change), and the timer. */
  const others = new Set<string>();
  let cancelOthers: (() => void) | undefined;
  let scheduled = false;
  let idleWork: Array<() => void> = [];
  let written: Promise<unknown> = Promise.resolve();

  /** After the last diagnostics are written, and a turn of the event loop (notifications already received are queued first). */
  const afterWritten = (work: () => void) => {
    const next = () => setImmediate(work);
    written.then(next, next);
  };

  /** The workspace check's thread stands aside until no document waits and the last diagnostics are written. */
  const markIdleOnceWritten = () =>
    afterWritten(() => {
      if (pending.size === 0 && !scheduled) foreground?.set(false);
    });

  const runIdleWork = () =>
    afterWritten(() => {
      if (pending.size > 0 || scheduled || others.size > 0) return;
      const work = idleWork;
      idleWork = [];
      work.forEach((w) => w());
    });

  /** Keystrokes received so far, and the count when the queue was last looked at. */
  let keystrokes = 0;
  let keystrokesSeen = 0;

  const flush = () => {
    // The protocol library hands on one queued message per turn of the event loop: while
    // keystrokes keep coming, the check waits for a turn without one, so a burst that queued
    // up behind a check is taken whole, not one check per keystroke.
    if (keystrokes !== keystrokesSeen) {
      keystrokesSeen = keystrokes;
      setImmediate(flush);
      return;
    }
    scheduled = false;
    const next = pending.values().next();
    if (next.done) {
      markIdleOnceWritten();
      return;
    }
    pending.delete(next.value.uri);
    try {
      publish(next.value);
    } finally {
      if (pending.size > 0 && !scheduled) {
        scheduled = true;
        afterWritten(flush);
      } else if (pending.size === 0) {
        markIdleOnceWritten();
        if (idleWork.length > 0) runIdleWork();
      }
    }
  };

  const schedule = (document: TextDocument) => {
    foreground?.set(true);
    pending.set(document.uri, document);
    if (!scheduled) {
      scheduled = true;
      afterWritten(flush);
    }
  };

  const refreshAll = () => {
    // Every document now, so none still waits for a pause.
    cancelOthers?.();
    cancelOthers = undefined;
    others.clear();
    documents.all().forEach(schedule);
  };

  /** Runs `work` once no document waits for its check and the last diagnostics are written. */
  const whenPublished = (work: () => void) =>
    afterWritten(() => {
      if (pending.size > 0 || scheduled) whenPublished(work);
      else written.then(work, work);
    });

  const checkOthers = () => {
    const uris = [...others];
    others.clear();
    for (const uri of uris) {
      const document = documents.get(uri);
      if (document) schedule(document);
    }
    if (pending.size === 0 && idleWork.length > 0) runIdleWork();
  };

  /**
   * After an edit that changed the graph, every other open document is checked again once
   * edits pause; any edit meanwhile (to any document) restarts the wait. The wait starts when
   * the edited document's diagnostics are out, not when the edit arrives: the check of a
   * manifest just opened can take longer than the wait, and the others' checks then ran
   * first, in the way of the next keystroke.
   */
  const refreshOthers = (edited: string, graphChanged: boolean) => {
    if (graphChanged) for (const document of documents.all()) if (document.uri !== edited) others.add(document.uri);
    if (others.size === 0) return;
    cancelOthers?.();
    let cancelled = false;
    let cancelWait: (() => void) | undefined;
    cancelOthers = () => {
      cancelled = true;
      cancelWait?.();
    };
    whenPublished(() => {
      if (cancelled) return;
      cancelWait = defer(() => {
        cancelOthers = undefined;
        checkOthers();
      }, othersQuietMs);
    });
  };

  const publish = (document: TextDocument) => {
    if (documents.get(document.uri)?.version !== document.version) return;
    catchUp();
    const located = workspaces.locate(document.uri);
    if (!located) return;
    const notChecked = located.engine.notCheckedBecause(located.file);
    if (notChecked !== undefined) {
      // Once per open file and reason: the user wonders why it shows nothing.
      const told = `${document.uri}\n${notChecked}`;
      if (!toldNotChecked.has(told)) log.info(`${located.file} is not checked: ${notChecked}`);
      toldNotChecked.add(told);
      return;
    }
    const started = Date.now();
    // An open document: keep per-document results, so its next edit re-checks what it touched.
    const { findings } = located.engine.analyzeFile(located.file, { keep: true });
    const analyzed = Date.now();
    const own = findings.filter((f) => f.file === located.file);
    const diagnostics = toDiagnostics(document, own, document.version, fixes, (other) => workspaces.uriOf(located, other), (other) => located.engine.index.text(other));
    log.debug(`checked ${located.file} v${document.version}: ${diagnostics.length} diagnostics in ${Date.now() - started} ms (${analyzed - started} ms analysing)`);
    written = connection.sendDiagnostics({ uri: document.uri, version: document.version, diagnostics });
    afterWritten(() => warmLineOffsets(document));
  };

  /** Documents whose newest text the engine has not taken yet. */
  const stale = new Set<string>();

  /** Hands the engine one stale document's newest text; a graph change re-checks the others once edits pause. */
  const bringCurrent = (uri: string) => {
    stale.delete(uri);
    const document = documents.get(uri);
    const located = document && workspaces.locate(uri);
    if (!document || !located) return;
    const started = Date.now();
    const graphChanged = located.engine.update(located.file, document.getText(), edits?.take(document));
    const ranged = located.engine.index.reparsesFromEdit(located.file) ? " from the editor's range" : '';
    log.debug(`updated ${located.file} v${document.version}${ranged} in ${Date.now() - started} ms${graphChanged ? '; the Flux graph will be rebuilt' : ''}`);
    refreshOthers(uri, graphChanged);
  };

  const catchUp = () => {
    for (const uri of [...stale]) if (stale.has(uri)) bringCurrent(uri);
  };

  const changed = (document: TextDocument) => {
    keystrokes++;
    stale.add(document.uri);
    // The edited document first: its diagnostics are the ones the user is waiting for.
    others.delete(document.uri);
    schedule(document);
    // An edit restarts the others' wait now; whether they need a re-check is known once the engine takes the text.
    refreshOthers(document.uri, false);
  };

  // Fired for an open too (TextDocuments fires it after onDidOpen): one update per version.
  documents.onDidChangeContent(({ document }) => changed(document));
  documents.onDidClose(({ document }) => {
    pending.delete(document.uri);
    stale.delete(document.uri);
    edits?.forget(document.uri);
    others.delete(document.uri);
    fixes.forget(document.uri);
    for (const told of toldNotChecked) if (told.startsWith(`${document.uri}\n`)) toldNotChecked.delete(told);
    const located = workspaces.locate(document.uri);
    // The file on disk is the truth again once its buffer closes.
    if (located?.engine.update(located.file, located.host.readFile(located.file))) refreshAll();
    void connection.sendDiagnostics({ uri: document.uri, diagnostics: [] });
  });
  connection.onDidChangeWatchedFiles(({ changes }) => {
    let graphChanged = false;
    const rescanned = new Set<unknown>();
    for (const change of changes) {
      const located = workspaces.locate(change.uri);
      if (!located || documents.get(change.uri)) continue;
      graphChanged = located.engine.update(located.file, located.host.readFile(located.file)) || graphChanged;
      // A folder copied in (`cp -r`) can reach the watcher as some of its files: the ones made
      // before the watcher saw the new folder are never reported. A creation lists the files again.
      if (change.type === FileChangeType.Created && !rescanned.has(located.engine)) {
        rescanned.add(located.engine);
        located.engine.rescan();
        graphChanged = true;
      }
    }
    if (graphChanged) refreshAll();
  });

  const whenIdle = (work: () => void) => {
    idleWork.push(work);
    if (pending.size === 0 && !scheduled && others.size === 0) runIdleWork();
  };

  return { refreshAll, whenIdle, catchUp };
}
