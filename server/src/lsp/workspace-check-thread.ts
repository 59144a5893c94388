/**
 * Starts the workspace check in a worker thread (workspace-check-worker.ts) and relays what
 * it says. Stopping ends the thread at once, wherever it is: nothing it holds outlives it.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Worker } from 'worker_threads';
import type { CheckWorkspaceResult } from '../protocol';
import type { CheckedFile, WorkspaceCheckInput, WorkspaceCheckMessage } from './workspace-check-messages';

/** The worker's bundle, next to the server's (esbuild.mjs); run from tsc's output instead, its compiled module. */
const workerScript = [path.join(__dirname, 'workspace-check.js'), path.join(__dirname, 'workspace-check-worker.js')].find((file) => fs.existsSync(file)) ?? path.join(__dirname, 'workspace-check.js');

export interface WorkspaceCheckListener {
  /** A batch of checked files with diagnostics (or that had them), and how far the check is. */
  files(files: readonly CheckedFile[], done: number, total: number): void;
  log(level: 'info' | 'error', message: string): void;
}

export interface RunningCheck {
  /** The check's totals; `stopped` when it was stopped before the end (the totals so far). */
  readonly finished: Promise<{ result: CheckWorkspaceResult; gone: string[]; stopped: boolean }>;
  stop(): void;
}

export function startWorkspaceCheck(input: WorkspaceCheckInput, listener: WorkspaceCheckListener): RunningCheck {
  const worker = new Worker(workerScript, { workerData: input });
  let soFar: CheckWorkspaceResult = { files: 0, findings: 0, errors: 0 };
  let stopped = false;
  const finished = new Promise<{ result: CheckWorkspaceResult; gone: string[]; stopped: boolean }>((resolve, reject) => {
    worker.on('message', (message: WorkspaceCheckMessage) => {
      if (stopped) return;
      if (message.kind === 'files') {
        soFar = message.soFar;
        listener.files(message.files, message.done, message.total);
      } else if (message.kind === 'log') {
        listener.log(message.level, message.message);
      } else {
        resolve({ result: message.result, gone: message.gone, stopped: false });
        void worker.terminate();
      }
    });
    worker.on('error', (error) => reject(error));
    worker.on('exit', (code) => {
      if (stopped) resolve({ result: soFar, gone: [], stopped: true });
      else reject(new Error(`the workspace check's thread ended (exit code ${code}) before it finished`));
    });
  });
  return {
    finished,
    stop() {
      if (stopped) return;
      stopped = true;
      void worker.terminate();
    },
  };
}
