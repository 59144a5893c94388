/**
 * A minimal LSP client for protocol tests: it spawns the built server as a separate process
 * and speaks JSON-RPC over its stdio, like any editor would. Waiting is always on an event.
 */
import { spawn, type ChildProcess } from 'child_process';
import * as path from 'path';
import { pathToFileURL } from 'url';
import {
  CodeActionRequest,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExecuteCommandRequest,
  ExitNotification,
  HoverRequest,
  InitializeRequest,
  InitializedNotification,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  createProtocolConnection,
  type CodeAction,
  type Hover,
  type Position,
  type Diagnostic,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { projectRoot } from './paths';

export class LspTestClient {
  private readonly waiters: Array<{ uri: string; version?: number; resolve: (p: PublishDiagnosticsParams) => void }> = [];
  readonly stderr: string[] = [];

  private constructor(
    private readonly child: ChildProcess,
    private readonly connection: ProtocolConnection,
  ) {
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      for (let i = this.waiters.length - 1; i >= 0; i--) {
        const waiter = this.waiters[i];
        if (waiter.uri === params.uri && (waiter.version === undefined || waiter.version === params.version)) {
          this.waiters.splice(i, 1);
          waiter.resolve(params);
        }
      }
    });
  }

  static async start(workspaceRoot: string): Promise<LspTestClient> {
    const server = path.join(projectRoot, 'dist', 'server.js');
    const child = spawn(process.execPath, [server, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    const client = new LspTestClient(child, connection);
    child.stderr!.on('data', (chunk: Buffer) => client.stderr.push(chunk.toString()));
    connection.listen();
    const rootUri = pathToFileURL(workspaceRoot).toString();
    await connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: path.basename(workspaceRoot) }],
      capabilities: { textDocument: { publishDiagnostics: { relatedInformation: true, versionSupport: true, codeDescriptionSupport: true, dataSupport: true } } },
    });
    await connection.sendNotification(InitializedNotification.type, {});
    return client;
  }

  /** Resolves with the next diagnostics published for `uri` (and `version`, if given). */
  nextDiagnostics(uri: string, version?: number): Promise<PublishDiagnosticsParams> {
    return new Promise((resolve) => this.waiters.push({ uri, version, resolve }));
  }

  async open(uri: string, text: string, version = 1): Promise<PublishDiagnosticsParams> {
    const published = this.nextDiagnostics(uri, version);
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'yaml', version, text } });
    return published;
  }

  async replace(uri: string, text: string, version: number): Promise<PublishDiagnosticsParams> {
    const published = this.nextDiagnostics(uri, version);
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text }] });
    return published;
  }

  codeActions(uri: string, diagnostic: Diagnostic): Promise<Array<CodeAction>> {
    return this.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: diagnostic.range,
      context: { diagnostics: [diagnostic] },
    }) as Promise<CodeAction[]>;
  }

  /** Any request by method name (custom Render Lens requests, definition, rename…). */
  request<R>(method: string, params: unknown): Promise<R> {
    return this.connection.sendRequest(method, params) as Promise<R>;
  }

  executeCommand(command: string): Promise<unknown> {
    return this.connection.sendRequest(ExecuteCommandRequest.type, { command, arguments: [] });
  }

  hover(uri: string, position: Position): Promise<Hover | null> {
    return this.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position });
  }

  async stop(): Promise<number | null> {
    const exited = new Promise<number | null>((resolve) => this.child.once('exit', (code) => resolve(code)));
    await this.connection.sendRequest(ShutdownRequest.type);
    await this.connection.sendNotification(ExitNotification.type);
    const code = await exited;
    this.connection.dispose();
    return code;
  }
}
