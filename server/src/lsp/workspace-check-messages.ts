/**
 * What the server thread and the workspace-check worker (workspace-check-worker.ts) say to
 * each other. The worker gets everything it needs when it starts and answers with messages;
 * the server ends it to stop a check.
 */
import type { Diagnostic } from 'vscode-languageserver/node';
import type { EngineSettings, Fix } from '../core';
import type { CheckWorkspaceResult } from '../protocol';

export interface WorkspaceCheckInput {
  /** The root folder of each workspace, as the server's Workspaces holds them. */
  roots: string[];
  /** The engine settings, without the log function (it stays in the server thread). */
  settings: Omit<EngineSettings, 'log'>;
  /** The open documents' texts by absolute path: the editor's text wins over the disk's. */
  open: Array<[string, string]>;
  /** URIs the last check published diagnostics for: each is published again (maybe empty) or reported gone. */
  published: string[];
  /** Log each folder's clusters first (the check at start). */
  logModel: boolean;
  /** The server thread's ForegroundWork flag (foreground.ts): the check stands aside while it is set. */
  foreground?: SharedArrayBuffer;
}

/** One checked file that has diagnostics, or had them at the last check. */
export interface CheckedFile {
  uri: string;
  diagnostics: Diagnostic[];
  /** Each finding's rule and fixes, in diagnostic order: the server's FixStore keeps them for code actions. */
  fixable: Array<{ rule: string; fixes: readonly Fix[] }>;
}

export type WorkspaceCheckMessage =
  | { kind: 'files'; files: CheckedFile[]; done: number; total: number; soFar: CheckWorkspaceResult }
  | { kind: 'log'; level: 'info' | 'error'; message: string }
  | { kind: 'done'; result: CheckWorkspaceResult; gone: string[] };
