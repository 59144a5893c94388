/** "Check Workspace": every file of every folder, published as diagnostics, open or not. */
import type { Connection } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { checkWorkspaceCommand, type CheckWorkspaceResult } from '../../protocol';
import { toDiagnostic } from '../convert';
import type { Workspaces } from '../workspace';

export function registerCheckWorkspace(connection: Connection, workspaces: Workspaces): void {
  connection.onExecuteCommand(async ({ command }, token) => {
    if (command !== checkWorkspaceCommand) return undefined;
    const result: CheckWorkspaceResult = { files: 0, findings: 0, errors: 0 };
    for (const workspace of workspaces.all()) {
      workspace.engine.rescan();
      const analysis = workspace.engine.analyzeWorkspace(['']);
      result.files += analysis.files;
      const byFile = new Map<string, typeof analysis.findings>();
      for (const finding of analysis.findings) byFile.set(finding.file, [...(byFile.get(finding.file) ?? []), finding]);
      for (const [file, findings] of byFile) {
        if (token.isCancellationRequested) return result;
        const uri = workspaces.uriOf(workspace, file);
        const document = TextDocument.create(uri, 'yaml', 0, workspace.engine.index.text(file) ?? '');
        void connection.sendDiagnostics({ uri, diagnostics: findings.map((f) => toDiagnostic(document, f, (other) => workspaces.uriOf(workspace, other))) });
        result.findings += findings.length;
        result.errors += findings.filter((f) => f.severity === 'error').length;
      }
    }
    return result;
  });
}
