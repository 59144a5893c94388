/**
 * "Check Workspace": every file of every folder, published as diagnostics, open or not. It
 * runs on request, and once in the background at start (after the files open then are
 * checked: indexing never keeps the user waiting for the file in front of them).
 *
 * A workspace can hold 100,000 files, so the check reports work-done progress, yields to the
 * event loop between slices of files (to hear `$/cancelRequest` and to let open files' edits
 * be checked first) and publishes each file as it goes.
 */
import { LSPErrorCodes, ResponseError, WorkDoneProgressReporter, type CancellationToken, type Connection } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { checkWorkspaceCommand, type CheckWorkspaceResult } from '../../protocol';
import { toDiagnostics } from '../convert';
import type { FixStore } from '../fix-store';
import type { Logger } from '../logger';
import type { Workspaces } from '../workspace';

/** Work between yields and progress reports: short enough that a cancel or an edit is heard at once. */
const sliceMs = 50;

export interface WorkspaceCheck {
  /** Checks the workspace in the background with server-initiated progress; once at a time. */
  runInBackground(): void;
}

export function registerCheckWorkspace(connection: Connection, workspaces: Workspaces, fixes: FixStore, isOpen: (uri: string) => boolean, log: Logger): WorkspaceCheck {
  // Files published with diagnostics by the last check: a file that is clean now is cleared.
  const published = new Set<string>();
  // One check at a time: a request made during the background check waits for it.
  let running: Promise<unknown> = Promise.resolve();

  const check = async (progress: WorkDoneProgressReporter, token: CancellationToken | undefined, stoppedByUser: () => boolean): Promise<CheckWorkspaceResult> => {
    const result: CheckWorkspaceResult = { files: 0, findings: 0, errors: 0 };
    const stale = new Set(published);
    progress.begin('Render Lens: checking the workspace', 0, undefined, true);
    try {
      let sliceStart = Date.now();
      for (const workspace of workspaces.all()) {
        workspace.engine.rescan();
        for (const { file, analysis, done, total } of workspace.engine.analyzeEach([''])) {
          result.files++;
          const uri = workspaces.uriOf(workspace, file);
          stale.delete(uri);
          // An open file's diagnostics belong to its editor buffer's version: the open-file path publishes them.
          if (!isOpen(uri) && (analysis.findings.length > 0 || published.has(uri))) {
            const document = TextDocument.create(uri, 'yaml', 0, workspace.engine.index.text(file) ?? '');
            const diagnostics = toDiagnostics(document, analysis.findings, null, fixes, (other) => workspaces.uriOf(workspace, other), (other) => workspace.engine.index.text(other));
            void connection.sendDiagnostics({ uri, diagnostics });
            if (analysis.findings.length > 0) published.add(uri);
            else published.delete(uri);
          }
          result.findings += analysis.findings.length;
          result.errors += analysis.findings.filter((f) => f.severity === 'error').length;
          if (Date.now() - sliceStart < sliceMs) continue;
          progress.report(Math.floor((100 * done) / total), `${done}/${total} files`);
          await new Promise((resolve) => setImmediate(resolve));
          sliceStart = Date.now();
          if (token?.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'Check Workspace was cancelled');
          // Stopped from the progress notification: keep what was published, say how far it got.
          if (stoppedByUser()) return result;
        }
      }
      // Files that are gone since the last check lose their diagnostics.
      for (const uri of stale) {
        published.delete(uri);
        fixes.forget(uri);
        void connection.sendDiagnostics({ uri, diagnostics: [] });
      }
      return result;
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
          return check(created ?? workDone, token, () => created?.token.isCancellationRequested === true);
        }),
  );

  return {
    runInBackground() {
      void exclusive(async () => {
        const progress = await connection.window.createWorkDoneProgress();
        const started = Date.now();
        const result = await check(progress, undefined, () => progress.token.isCancellationRequested);
        // The clusters found were logged before the check (model-log.ts); this says what the check found.
        log.info(`workspace checked at start: ${result.files} file(s), ${result.findings} finding(s), ${result.errors} error(s) in ${Date.now() - started} ms`);
        return result;
      }).catch(() => undefined);
    },
  };
}
