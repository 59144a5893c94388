/**
 * An LSP client for the robustness tests. Like LspTestClient it spawns the built server and
 * speaks JSON-RPC over stdio, and it also records what a user never sees at once: every log
 * line (window/logMessage and stderr), every work-done progress report and whether the
 * process is still alive. It can send a workDoneToken and cancel a request.
 */
import { spawn, type ChildProcess } from 'child_process';
import * as path from 'path';
import { pathToFileURL } from 'url';
import {
  CancellationTokenSource,
  CodeActionRequest,
  ConfigurationRequest,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExecuteCommandRequest,
  ExitNotification,
  HoverRequest,
  InitializeRequest,
  InitializedNotification,
  LogMessageNotification,
  PublishDiagnosticsNotification,
  RegistrationRequest,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  WorkDoneProgressCreateRequest,
  createProtocolConnection,
  type CodeAction,
  type Diagnostic,
  type Hover,
  type Position,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type WorkDoneProgressBegin,
  type WorkDoneProgressEnd,
  type WorkDoneProgressReport,
} from 'vscode-languageserver-protocol/node';
import type { RenderLensSettings } from '../../protocol';
import { projectRoot } from './paths';

export type ProgressValue = WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd;

export class ProbeClient {
  /** Every log line the server wrote, through the protocol or to stderr. */
  readonly log: string[] = [];
  /** Every diagnostics notification, in arrival order. */
  readonly published: PublishDiagnosticsParams[] = [];
  /** Work-done progress values by token, in arrival order. */
  readonly progress = new Map<string, ProgressValue[]>();
  /** Diagnostics and progress as they arrived relative to each other. */
  readonly timeline: Array<{ kind: 'publish'; uri: string } | { kind: 'progress'; token: string; value: ProgressValue }> = [];
  exitCode: number | null | undefined;
  private readonly waiters: Array<{ uri: string; version?: number; resolve: (p: PublishDiagnosticsParams) => void }> = [];
  private readonly exited: Promise<number | null>;
  private readonly logListeners = new Set<(line: string) => void>();
  private readonly progressListeners = new Set<() => void>();

  /** The first token (asked for or to come) whose progress values satisfy `predicate`; an empty list once the server asked for the token. */
  progressWhere(predicate: (values: readonly ProgressValue[]) => boolean): Promise<string> {
    const find = () => [...this.progress].find(([, values]) => predicate(values))?.[0];
    const found = find();
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve) => {
      const listener = () => {
        const token = find();
        if (token === undefined) return;
        this.progressListeners.delete(listener);
        resolve(token);
      };
      this.progressListeners.add(listener);
    });
  }

  /** The first log line (already written or to come) that matches `pattern`. */
  logged(pattern: RegExp): Promise<string> {
    const seen = this.log.find((line) => pattern.test(line));
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve) => {
      const listener = (line: string) => {
        if (!pattern.test(line)) return;
        this.logListeners.delete(listener);
        resolve(line);
      };
      this.logListeners.add(listener);
    });
  }

  private constructor(
    private readonly child: ChildProcess,
    readonly connection: ProtocolConnection,
  ) {
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve((this.exitCode = code))));
    child.stderr!.on('data', (chunk: Buffer) => this.log.push(chunk.toString()));
    connection.onNotification(LogMessageNotification.type, (params) => {
      this.log.push(params.message);
      for (const listener of [...this.logListeners]) listener(params.message);
    });
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      this.published.push(params);
      this.timeline.push({ kind: 'publish', uri: params.uri });
      for (let i = this.waiters.length - 1; i >= 0; i--) {
        const waiter = this.waiters[i];
        if (waiter.uri === params.uri && (waiter.version === undefined || waiter.version === params.version)) {
          this.waiters.splice(i, 1);
          waiter.resolve(params);
        }
      }
    });
    connection.onRequest(WorkDoneProgressCreateRequest.type, ({ token }) => {
      this.progress.set(String(token), []);
      for (const listener of [...this.progressListeners]) listener();
    });
    // No handler is registered per token, so every `$/progress` arrives here (the method is
    // on the underlying MessageConnection, not in ProtocolConnection's type).
    const progress = connection as unknown as { onUnhandledProgress(handler: (params: { token: string | number; value: unknown }) => void): void };
    progress.onUnhandledProgress((params) => {
      const list = this.progress.get(String(params.token)) ?? [];
      list.push(params.value as ProgressValue);
      this.timeline.push({ kind: 'progress', token: String(params.token), value: params.value as ProgressValue });
      this.progress.set(String(params.token), list);
      for (const listener of [...this.progressListeners]) listener();
    });
    connection.onRequest(RegistrationRequest.type, () => undefined);
  }

  /**
   * Starts the server over one workspace folder, or several. With `settings`, the client
   * answers `workspace/configuration` with them for `renderLens`; without, it cannot, and the
   * server runs on its defaults. `script` is what starts it: the server's bundle, or the
   * launcher that `render-lens-server` runs.
   */
  static async start(workspaceRoots: string | readonly string[], env: Record<string, string> = {}, settings?: Partial<RenderLensSettings>, script: 'server.js' | 'server-launcher.js' = 'server.js'): Promise<ProbeClient> {
    const roots = typeof workspaceRoots === 'string' ? [workspaceRoots] : workspaceRoots;
    const server = path.join(projectRoot, 'dist', script);
    const child = spawn(process.execPath, [server, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    const connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    const client = new ProbeClient(child, connection);
    if (settings) connection.onRequest(ConfigurationRequest.type, ({ items }) => items.map((item) => (item.section === 'renderLens' ? settings : null)));
    connection.listen();
    await connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: pathToFileURL(roots[0]).toString(),
      workspaceFolders: roots.map((root) => ({ uri: pathToFileURL(root).toString(), name: path.basename(root) })),
      capabilities: {
        ...(settings ? { workspace: { configuration: true } } : {}),
        window: { workDoneProgress: true },
        textDocument: { publishDiagnostics: { relatedInformation: true, versionSupport: true, codeDescriptionSupport: true, dataSupport: true } },
      },
    });
    await connection.sendNotification(InitializedNotification.type, {});
    return client;
  }

  get alive(): boolean {
    return this.exitCode === undefined;
  }

  uriOf(root: string, file: string): string {
    return pathToFileURL(path.join(root, ...file.split('/'))).toString();
  }

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

  /** A keystroke as an editor sends it: `text` replaces `range` of the version before. */
  async edit(uri: string, range: { start: Position; end: Position }, text: string, version: number): Promise<PublishDiagnosticsParams> {
    const published = this.nextDiagnostics(uri, version);
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ range, text }] });
    return published;
  }

  async close(uri: string): Promise<void> {
    const cleared = this.nextDiagnostics(uri);
    await this.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
    await cleared;
  }

  /** Any request by method name (custom Render Lens requests, definition, rename…). */
  request<R>(method: string, params: unknown): Promise<R> {
    return this.connection.sendRequest(method, params) as Promise<R>;
  }

  hover(uri: string, position: Position): Promise<Hover | null> {
    return this.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position });
  }

  codeActions(uri: string, diagnostic: Diagnostic): Promise<CodeAction[]> {
    return this.connection.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range: diagnostic.range, context: { diagnostics: [diagnostic] } }) as Promise<CodeAction[]>;
  }

  /** Runs a command; with `workDoneToken` its progress is recorded under that token; `cancel` stops it. */
  executeCommand(command: string, options: { workDoneToken?: string; cancel?: CancellationTokenSource } = {}): Promise<unknown> {
    const params = { command, arguments: [], ...(options.workDoneToken ? { workDoneToken: options.workDoneToken } : {}) };
    if (options.workDoneToken) this.progress.set(options.workDoneToken, []);
    return options.cancel ? this.connection.sendRequest(ExecuteCommandRequest.type, params, options.cancel.token) : this.connection.sendRequest(ExecuteCommandRequest.type, params);
  }

  async stop(): Promise<number | null> {
    if (!this.alive) return this.exitCode ?? null;
    await this.connection.sendRequest(ShutdownRequest.type);
    return this.exit();
  }

  /** Ends the process at once, for a test that failed half-way. */
  kill(): void {
    if (this.alive) this.child.kill();
    this.connection.dispose();
  }

  /** Sends `exit` (after `shutdown` from stop, or alone, as a client that lost track would) and waits for the process to end. */
  async exit(): Promise<number | null> {
    await this.connection.sendNotification(ExitNotification.type);
    const code = await this.exited;
    this.connection.dispose();
    return code;
  }
}

export { CancellationTokenSource };
