/**
 * The Render Lens language server. Started by the VS Code client, or by any LSP client, as
 * `render-lens-server --stdio` (`--node-ipc` and `--socket` work too). It wires requests to
 * the core and nothing more.
 */
// First: before anything allocates much, or is optimized.
import { youngGenerationSize } from '../runtime/young-generation';
import '../runtime/compiler-flags';
import { Console } from 'console';
import { CodeActionKind, ProposedFeatures, StreamMessageWriter, TextDocumentSyncKind, TextDocuments, createConnection, type Connection, type InitializeResult, type MessageReader } from 'vscode-languageserver/node';
import { jsonEncoder } from '../runtime/diagnostic-json';
import { version } from '../version';
import { FixStore } from './fix-store';
import { createLogger } from './logger';
import { checkWorkspaceCommand, type InitializationOptions } from '../protocol';
import { registerCheckWorkspace } from './requests/check-workspace';
import { fixAllKind, registerCodeActions } from './requests/code-actions';
import { completionTriggers, registerCompletion } from './requests/completion';
import { registerDiagnostics } from './requests/diagnostics';
import { registerHover } from './requests/hover';
import { registerNavigation } from './requests/navigation';
import { registerRenderRequests } from './requests/render';
import { toEngineSettings, watchSettings } from './settings';
import { prepareFieldTypes, type EngineSettings } from '../core';
import { Workspaces, fsPath } from './workspace';
import { EditSpans } from './edit-spans';
import { ForegroundWork } from './foreground';
import { endWithLauncher } from './launched-server';

if (process.argv.includes('--version')) {
  process.stdout.write(`render-lens-server ${version}\n`);
  process.exit(0);
}

// Started by hand, without the transport an editor gives: say so, not a stack trace from deep in the protocol library.
if (!process.argv.slice(2).some((arg) => /^--(stdio|node-ipc|socket|pipe)(=|$)/.test(arg))) {
  const help = process.argv.includes('--help');
  (help ? process.stdout : process.stderr).write(
    `render-lens-server ${version}: the Render Lens language server. Your editor starts it with the transport it speaks: --stdio, --node-ipc, --socket=PORT or --pipe=NAME (--version prints the version).\n`,
  );
  process.exit(help ? 0 : 2);
}

endWithLauncher();
const connection = process.argv.includes('--stdio') ? stdioConnection() : createConnection(ProposedFeatures.all);
const editSpans = new EditSpans();
const documents = new TextDocuments(editSpans.documents);
const log = createLogger(connection, () => process.env.RENDER_LENS_LOG === 'debug');
const workspaces = new Workspaces({ log: (message) => log.error(message) });

let configurationSupported = false;
let yamlSyntaxElsewhere = false;

connection.onInitialize((params): InitializeResult => {
  configurationSupported = params.capabilities.workspace?.configuration === true;
  yamlSyntaxElsewhere = (params.initializationOptions as InitializationOptions | undefined)?.yamlSyntaxReportedElsewhere === true;
  const folders = params.workspaceFolders?.map((folder) => folder.uri) ?? (params.rootUri ? [params.rootUri] : []);
  workspaces.setFolders(folders);
  log.info(`render-lens-server ${version} started for ${folders.length} workspace folder(s)`);
  log.debug(`process ${process.pid}, node ${process.version}, V8 young generation: ${youngGenerationSize()}`);
  // Once this answer is out, before any file is opened.
  setImmediate(prepareFieldTypes);
  return {
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, fixAllKind] },
      hoverProvider: true,
      completionProvider: { triggerCharacters: completionTriggers },
      definitionProvider: true,
      referencesProvider: true,
      renameProvider: { prepareProvider: true },
      executeCommandProvider: { commands: [checkWorkspaceCommand] },
    },
    serverInfo: { name: 'render-lens', version },
  };
});

const fixes = new FixStore();
let startupCheckQueued = false;
let engineSettings: EngineSettings = {};
const foreground = new ForegroundWork();
const diagnostics = registerDiagnostics(connection, documents, workspaces, fixes, log, undefined, editSpans, foreground);
workspaces.beforeLocate = diagnostics.catchUp;
watchSettings(
  connection,
  () => configurationSupported,
  (settings) => {
    engineSettings = toEngineSettings(settings, log);
    // Do not repeat the YAML extension's syntax errors; an explicit user setting still wins.
    if (yamlSyntaxElsewhere) engineSettings.severities = { 'YAML-SYNTAX': 'off', ...engineSettings.severities };
    workspaces.configure(engineSettings);
    diagnostics.refreshAll();
    // The files open at start first, then (once) the rest of the workspace in the background.
    if (settings.checkWorkspaceOnStartup && !startupCheckQueued) {
      startupCheckQueued = true;
      diagnostics.whenIdle(() => workspaceCheck.runInBackground());
    }
  },
  log,
);
registerCodeActions(connection, documents, workspaces, fixes);
registerHover(connection, documents, workspaces);
registerCompletion(connection, documents, workspaces);
const workspaceCheck = registerCheckWorkspace(
  connection,
  workspaces,
  fixes,
  {
    openTexts: () =>
      documents.all().flatMap((document): Array<[string, string]> => {
        const file = fsPath(document.uri);
        return file === undefined ? [] : [[file, document.getText()]];
      }),
    isOpen: (uri) => documents.get(uri) !== undefined,
    settings: () => engineSettings,
    refreshOpen: () => diagnostics.refreshAll(),
    foreground: foreground.shared,
    idle: () => new Promise((resolve) => diagnostics.whenIdle(resolve)),
    prepareGraphs: () => diagnostics.whenIdle(() => workspaces.all().forEach((workspace) => workspace.engine.fluxGraph())),
  },
  log,
);
registerNavigation(connection, documents, workspaces);
registerRenderRequests(connection, documents, workspaces);

// A bug must never take the server down with the user's editor session; log and go on.
process.on('uncaughtException', (error) => log.error(`uncaught: ${error.stack ?? error.message}`));
// Node ends the process on an unhandled rejection (a client that refuses a registration, a
// notification sent as the connection closes): log those too.
process.on('unhandledRejection', (reason) => log.error(`unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`));

documents.listen(connection);
connection.listen();

/**
 * Over stdio, with the encoder that writes kept diagnostics from their bytes (diagnostic-json.ts).
 * Given stdin as a stream, createConnection ends the process when it closes, with the exit
 * code it keeps for a shutdown request, as it does for `--stdio` (vscode-languageserver's
 * node/main.js; its typings name streams or a reader and writer, not this mix, which it and
 * vscode-jsonrpc's createMessageConnection both take). What it would do besides is keep
 * console output off stdout, which carries the protocol: here the console writes to stderr,
 * which clients show as the server's log.
 */
function stdioConnection(): Connection {
  globalThis.console = new Console({ stdout: process.stderr, stderr: process.stderr });
  const writer = new StreamMessageWriter(process.stdout, { charset: 'utf-8', contentTypeEncoder: jsonEncoder });
  return createConnection(ProposedFeatures.all, process.stdin as unknown as MessageReader, writer);
}
