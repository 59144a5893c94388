/** Log lines to the client's output channel, with levels; debug lines only when asked for. */
import type { Connection } from 'vscode-languageserver/node';

export interface Logger {
  error(message: string): void;
  info(message: string): void;
  debug(message: string): void;
}

export function createLogger(connection: Connection, verbose: () => boolean): Logger {
  const stamp = () => new Date().toISOString().slice(11, 23);
  return {
    error: (message) => connection.console.error(`[${stamp()} error] ${message}`),
    info: (message) => connection.console.info(`[${stamp()} info] ${message}`),
    debug: (message) => {
      if (verbose()) connection.console.log(`[${stamp()} debug] ${message}`);
    },
  };
}
