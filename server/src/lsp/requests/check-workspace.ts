/**
 * "Check Workspace": every file of every folder, published as diagnostics, open or not.
 * A workspace can hold 100,000 files, so the check reports work-done progress, yields to the
 * event loop between files (to hear `$/cancelRequest`) and publishes each file as it goes.
 */
import { LSPErrorCodes, ResponseError, WorkDoneProgressReporter, type Connection } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { checkWorkspaceCommand, type CheckWorkspaceResult } from '../../protocol';
import { toDiagnostic } from '../convert';
import type { Workspaces } from '../workspace';

/** Work between yields and progress reports: short enough that a cancel is heard at once. */
const sliceMs = 50;

export function registerCheckWorkspace(connection: Connection, workspaces: Workspaces): void {
  // Files published with diagnostics by the last check: a file that is clean now is cleared.
  const published = new Set<string>();

  connection.onExecuteCommand(async ({ command }, token, workDone) => {
    if (command !== checkWorkspaceCommand) return undefined;
    // The client's token when the request carries one; otherwise the server asks for one
    // (a no-op reporter when the client cannot show progress).
    const created = WorkDoneProgressReporter.isNullInstance(workDone) ? await connection.window.createWorkDoneProgress() : undefined;
    const progress = created ?? workDone;
    const stoppedByUser = () => created?.token.isCancellationRequested === true;
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
          if (analysis.findings.length > 0 || published.has(uri)) {
            const document = TextDocument.create(uri, 'yaml', 0, workspace.engine.index.text(file) ?? '');
            void connection.sendDiagnostics({ uri, diagnostics: analysis.findings.map((f) => toDiagnostic(document, f, (other) => workspaces.uriOf(workspace, other), (other) => workspace.engine.index.text(other))) });
            if (analysis.findings.length > 0) published.add(uri);
            else published.delete(uri);
          }
          result.findings += analysis.findings.length;
          result.errors += analysis.findings.filter((f) => f.severity === 'error').length;
          if (Date.now() - sliceStart < sliceMs) continue;
          progress.report(Math.floor((100 * done) / total), `${done}/${total} files`);
          await new Promise((resolve) => setImmediate(resolve));
          sliceStart = Date.now();
          if (token.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'Check Workspace was cancelled');
          // Stopped from the progress notification: keep what was published, say how far it got.
          if (stoppedByUser()) return result;
        }
      }
      // Files that are gone since the last check lose their diagnostics.
      for (const uri of stale) {
        published.delete(uri);
        void connection.sendDiagnostics({ uri, diagnostics: [] });
      }
      return result;
    } finally {
      progress.done();
    }
  });
}
