/**
 * The bench's LSP client: it spawns a language server as an editor would (a separate node
 * process speaking JSON-RPC over stdio) and times what a user waits for. The same code drives
 * Render Lens and yaml-language-server, so the two are measured alike. It answers
 * `workspace/configuration` with the settings it was given, so no server fetches anything.
 * (The protocol tests have their own client in test/support; benches do not import tests.)
 */
import { spawn, type ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { pathToFileURL } from 'url';
import {
  ConfigurationRequest,
  DidChangeConfigurationNotification,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  HoverRequest,
  InitializeRequest,
  InitializedNotification,
  PublishDiagnosticsNotification,
  RegistrationRequest,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  WorkDoneProgressCreateRequest,
  createProtocolConnection,
  type Hover,
  type Position,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type Range,
} from 'vscode-languageserver-protocol/node';

export interface ServerSpec {
  name: string;
  /** The script node runs, and its arguments; `nodeOptions` go to node before the script. */
  script: string;
  args: string[];
  nodeOptions?: readonly string[];
  /** Settings by section, as `workspace/configuration` returns them. */
  settings: Record<string, unknown>;
  languageId: string;
  /** The server publishes each open document's diagnostics with its version: a publish without one (from a workspace check) is not the answer to an edit. */
  versioned?: boolean;
}

interface Waiter {
  uri: string;
  version: number;
  resolve: (params: PublishDiagnosticsParams) => void;
}

export class BenchLspClient {
  private readonly waiters: Waiter[] = [];
  /** URIs whose last published diagnostics are not empty: what the Problems panel lists. */
  private readonly withDiagnostics = new Set<string>();
  private configured: (() => void) | undefined;
  private progressEnd: ((at: number) => void) | undefined;
  private readonly progressEnded = new Promise<number>((resolve) => (this.progressEnd = resolve));
  private progressCreate: ((at: number) => void) | undefined;
  private readonly progressCreated = new Promise<number>((resolve) => (this.progressCreate = resolve));
  private progressBegin: ((at: number) => void) | undefined;
  private readonly progressBegun = new Promise<number>((resolve) => (this.progressBegin = resolve));
  /** Whether the first work-done progress has ended (a loop of hovers stops then). */
  progressOver = false;
  readonly stderr: string[] = [];

  private constructor(
    readonly spec: ServerSpec,
    private readonly child: ChildProcess,
    private readonly connection: ProtocolConnection,
  ) {
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      if (params.diagnostics.length > 0) this.withDiagnostics.add(params.uri);
      else this.withDiagnostics.delete(params.uri);
      for (let i = this.waiters.length - 1; i >= 0; i--) {
        const waiter = this.waiters[i];
        // A server that sends no version (yaml-language-server) answers the newest change: the
        // bench only sends a change after the previous one's diagnostics arrived.
        if (waiter.uri === params.uri && (params.version === waiter.version || (!spec.versioned && (params.version === undefined || params.version === null)))) {
          this.waiters.splice(i, 1);
          waiter.resolve(params);
        }
      }
    });
    connection.onRequest(ConfigurationRequest.type, (params) => {
      const answer = params.items.map((item) => (item.section !== undefined ? (spec.settings[item.section] ?? null) : null));
      this.configured?.();
      return answer;
    });
    connection.onRequest(RegistrationRequest.type, () => undefined);
    connection.onRequest(WorkDoneProgressCreateRequest.type, () => {
      this.progressCreate?.(performance.now());
      return undefined;
    });
    // No handler per token: every `$/progress` arrives here (a MessageConnection method).
    const progress = connection as unknown as { onUnhandledProgress(handler: (params: { value: { kind?: string } }) => void): void };
    progress.onUnhandledProgress(({ value }) => {
      if (value.kind === 'begin') this.progressBegin?.(performance.now());
      if (value.kind === 'end') {
        this.progressOver = true;
        this.progressEnd?.(performance.now());
      }
    });
  }

  /**
   * Spawns the server, initializes it for `workspaceRoot` and waits until it has read its
   * settings; with `settle`, also lets it apply them before anything is timed.
   */
  static async start(spec: ServerSpec, workspaceRoot: string, settle = true): Promise<BenchLspClient> {
    const child = spawn(process.execPath, [...(spec.nodeOptions ?? []), spec.script, ...spec.args], { stdio: ['pipe', 'pipe', 'pipe'], cwd: workspaceRoot });
    const connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    const client = new BenchLspClient(spec, child, connection);
    child.stderr!.on('data', (chunk: Buffer) => client.stderr.push(chunk.toString()));
    const configured = new Promise<void>((resolve) => (client.configured = resolve));
    connection.listen();
    const rootUri = pathToFileURL(workspaceRoot).toString();
    await connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: path.basename(workspaceRoot) }],
      capabilities: {
        workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true } },
        window: { workDoneProgress: true },
        textDocument: {
          synchronization: { dynamicRegistration: false, didSave: false },
          publishDiagnostics: { relatedInformation: true, versionSupport: true, codeDescriptionSupport: true, dataSupport: true },
          hover: { contentFormat: ['markdown', 'plaintext'] },
        },
      },
    });
    await connection.sendNotification(InitializedNotification.type, {});
    await connection.sendNotification(DidChangeConfigurationNotification.type, { settings: spec.settings });
    // Both servers pull their settings once initialized; wait for that (but not forever).
    await Promise.race([configured, delay(5000)]);
    // Let the server apply what it read before anything is timed.
    if (settle) await delay(200);
    return client;
  }

  /** The diagnostics published for this version of the document (ask before sending what makes them). */
  diagnostics(uri: string, version: number): Promise<PublishDiagnosticsParams> {
    return new Promise((resolve) => this.waiters.push({ uri, version, resolve }));
  }

  /** didOpen; resolves with the diagnostics published for this version. */
  async open(uri: string, text: string, version: number): Promise<PublishDiagnosticsParams> {
    const published = this.diagnostics(uri, version);
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: this.spec.languageId, version, text } });
    return published;
  }

  /** An incremental didChange (one range replaced); resolves with that version's diagnostics. */
  async change(uri: string, version: number, range: Range, text: string): Promise<PublishDiagnosticsParams> {
    const published = this.diagnostics(uri, version);
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ range, text }] });
    return published;
  }

  /** An incremental didChange, not waiting for its diagnostics (a burst of keystrokes). */
  sendChange(uri: string, version: number, range: Range, text: string): Promise<void> {
    return this.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ range, text }] });
  }

  /** When the server first asked for a work-done progress token (a background check is about to start). */
  firstProgressCreated(): Promise<number> {
    return this.progressCreated;
  }

  /** When the first work-done progress the server started began (performance.now()). */
  firstProgressBegin(): Promise<number> {
    return this.progressBegun;
  }

  /** When the first work-done progress the server started ended (performance.now()). */
  firstProgressEnd(): Promise<number> {
    return this.progressEnded;
  }

  /** How many files the Problems panel would list now. */
  publishedUris(): number {
    return this.withDiagnostics.size;
  }

  hover(uri: string, position: Position): Promise<Hover | null> {
    return this.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position });
  }

  /** The server process's peak resident set (VmHWM), in bytes; undefined off Linux. */
  peakRss(): number | undefined {
    try {
      const status = fs.readFileSync(`/proc/${this.child.pid}/status`, 'utf8');
      const match = /^VmHWM:\s*(\d+)\s*kB/m.exec(status);
      return match ? Number(match[1]) * 1024 : undefined;
    } catch {
      return undefined;
    }
  }

  async stop(): Promise<void> {
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    try {
      await Promise.race([this.connection.sendRequest(ShutdownRequest.type), delay(5000)]);
      await this.connection.sendNotification(ExitNotification.type);
    } catch {
      // A server that already went away is stopped.
    }
    // A server that ignores exit is killed (by its own pid, which this client started).
    const timer = setTimeout(() => this.child.kill(), 5000);
    await exited;
    clearTimeout(timer);
    this.connection.dispose();
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
