/**
 * Push diagnostics: every open YAML document is checked when it opens or changes, and its
 * diagnostics are published with the document version they belong to.
 */
import type { Connection, TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { analyzeFile, isYamlFile } from '../../core/analyze';
import { toDiagnostic } from '../convert';
import type { Logger } from '../logger';
import type { Workspaces } from '../workspace';

export function registerDiagnostics(connection: Connection, documents: TextDocuments<TextDocument>, workspaces: Workspaces, log: Logger): void {
  // Edits arrive faster than checks on a big file; only the newest version of each document
  // is checked, once the queue of pending events has drained.
  const pending = new Map<string, TextDocument>();
  let scheduled = false;

  const flush = () => {
    scheduled = false;
    const batch = [...pending.values()];
    pending.clear();
    for (const document of batch) publish(document);
  };

  const schedule = (document: TextDocument) => {
    pending.set(document.uri, document);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };

  const publish = (document: TextDocument) => {
    if (documents.get(document.uri)?.version !== document.version) return;
    const located = workspaces.locate(document.uri);
    if (!located || !isYamlFile(located.file)) return;
    const { host, file } = located;
    host.setOverlay(file, document.getText());
    const started = Date.now();
    const { findings } = analyzeFile(host, file, { log: (message) => log.error(message) });
    const diagnostics = findings.filter((f) => f.file === file).map((f) => toDiagnostic(document, f, (other) => workspaces.uriOf(host, other)));
    log.debug(`checked ${file} v${document.version}: ${diagnostics.length} diagnostics in ${Date.now() - started} ms`);
    void connection.sendDiagnostics({ uri: document.uri, version: document.version, diagnostics });
  };

  documents.onDidOpen(({ document }) => schedule(document));
  documents.onDidChangeContent(({ document }) => schedule(document));
  documents.onDidClose(({ document }) => {
    pending.delete(document.uri);
    const located = workspaces.locate(document.uri);
    located?.host.clearOverlay(located.file);
    void connection.sendDiagnostics({ uri: document.uri, diagnostics: [] });
  });
}
