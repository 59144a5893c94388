/**
 * "Check Workspace": every file of every folder, published as diagnostics, open or not. It
 * runs on request, and once in the background at start (after the files open then are
 * checked: indexing never keeps the user waiting for the file in front of them).
 *
 * The check runs in a worker thread (workspace-check-worker.ts), so requests and the open
 * files' checks never wait behind it. It reports work-done progress, publishes files in
 * batches as the worker sends them, and stops the worker when cancelled.
 */
import { LSPErrorCodes, ResponseError, WorkDoneProgressReporter, type CancellationToken, type Connection } from 'vscode-languageserver/node';
import { checkWorkspaceCommand, type CheckWorkspaceResult } from '../../protocol';
import type { EngineSettings } from '../../core';
import type { FixStore } from '../fix-store';
import type { Logger } from '../logger';
import type { Workspaces } from '../workspace';
import { startWorkspaceCheck } from '../workspace-check-thread';

export interface WorkspaceCheck {
  /** Checks the workspace in the background with server-initiated progress; once at a time. */
  runInBackground(): void;
}

/** What the check needs of the server's state when it starts. */
export interface CheckInputs {
  /** The open documents: absolute path and text. */
  openTexts(): Array<[string, string]>;
  isOpen(uri: string): boolean;
  settings(): EngineSettings;
  /** Checks every open document again (their diagnostics are the open-file path's). */
  refreshOpen(): void;
  /** The server thread's ForegroundWork flag: the check stands aside while the user's files are checked. */
  foreground?: SharedArrayBuffer;
  /** Resolves once no open document waits for its check (a file the editor opened while the progress was being created). */
  idle?(): Promise<void>;
  /** Builds the server thread's Flux graphs, for the files the user will open. */
  prepareGraphs?(): void;
}

export function registerCheckWorkspace(connection: Connection, workspaces: Workspaces, fixes: FixStore, inputs: CheckInputs, log: Logger): WorkspaceCheck {
  // Files published with diagnostics by the last check: a file that is clean now is cleared.
  const published = new Set<string>();
  // One check at a time: a request made during the background check waits for it.
  let running: Promise<unknown> = Promise.resolve();

  const check = async (progress: WorkDoneProgressReporter, token: CancellationToken | undefined, stoppedByUser: CancellationToken | undefined, logModel = false): Promise<CheckWorkspaceResult> => {
    progress.begin('Render Lens: checking the workspace', 0, undefined, true);
    try {
      // The log function stays here: the worker sends its lines back.
      const settings = { ...inputs.settings() };
      delete settings.log;
      const roots = workspaces.all().map((workspace) => workspace.host.root);
      const worker = startWorkspaceCheck(
        { roots, settings, open: inputs.openTexts(), published: [...published], logModel, foreground: inputs.foreground },
        {
          files(files, done, total) {
            for (const { uri, diagnostics, fixable } of files) {
              // An open file's diagnostics belong to its editor buffer's version: the open-file path publishes them.
              if (inputs.isOpen(uri)) continue;
              fixes.remember(uri, null, fixable);
              void connection.sendDiagnostics({ uri, diagnostics });
              if (diagnostics.length > 0) published.add(uri);
              else published.delete(uri);
            }
            progress.report(Math.floor((100 * done) / Math.max(1, total)), `${done}/${total} files`);
          },
          log: (level, message) => (level === 'info' ? log.info(message) : log.error(message)),
        },
      );
      const cancelled = token?.onCancellationRequested(() => worker.stop());
      const stopped = stoppedByUser?.onCancellationRequested(() => worker.stop());
      try {
        const { result, gone, stopped: wasStopped } = await worker.finished;
        if (wasStopped && token?.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'Check Workspace was cancelled');
        // Stopped from the progress notification: keep what was published, say how far it got.
        if (wasStopped) return result;
        // Files that are gone since the last check lose their diagnostics.
        for (const uri of gone) {
          published.delete(uri);
          fixes.forget(uri);
          void connection.sendDiagnostics({ uri, diagnostics: [] });
        }
        return result;
      } finally {
        cancelled?.dispose();
        stopped?.dispose();
      }
    } finally {
      progress.done();
    }
  };

  /** Runs `work` after any check in progress; the chain survives a failed or cancelled check. */
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const next = running.then(work, work);
    running = next.catch(() => undefined);
    return next;
  };

  connection.onExecuteCommand(async ({ command }, token, workDone) =>
    command !== checkWorkspaceCommand
      ? undefined
      : exclusive(async () => {
          // The client's token when the request carries one; otherwise the server asks for one
          // (a no-op reporter when the client cannot show progress).
          const created = WorkDoneProgressReporter.isNullInstance(workDone) ? await connection.window.createWorkDoneProgress() : undefined;
          // Asked for: files created since without an editor event count from now on for the open files too (the check reads the disk anew anyway).
          for (const workspace of workspaces.all()) workspace.engine.rescan();
          // The open files too: a cluster folder copied in may change what they render in.
          inputs.refreshOpen();
          return check(created ?? workDone, token, created?.token);
        }),
  );

  return {
    runInBackground() {
      void exclusive(async () => {
        const progress = await connection.window.createWorkDoneProgress();
        // The check's thread starts after the files the editor opens meanwhile are checked: it
        // would compete with them from its first moment, before it can stand aside.
        await inputs.idle?.();
        const started = Date.now();
        // The clusters found are logged first, from the worker (model-log.ts); this says what the check found.
        const checking = check(progress, undefined, progress.token, true);
        // Meanwhile, on this thread, its own Flux graph, which every file the user opens needs
        // (about a second at 5,000 files): the first file opened after that does not wait for
        // it. A file opened sooner is checked first and builds the graph itself.
        setImmediate(() => inputs.prepareGraphs?.());
        const result = await checking;
        log.info(`workspace checked at start: ${result.files} file(s), ${result.findings} finding(s), ${result.errors} error(s) in ${Date.now() - started} ms`);
        return result;
      }).catch((error: unknown) => log.error(`the workspace check failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`));
    },
  };
}
