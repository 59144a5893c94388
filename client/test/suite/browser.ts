/**
 * The handshake with the browser side of `npm run test:e2e` (client/test/run-e2e.mjs): the
 * suite sets a scene through VS Code's API, then asks the runner, which drives the page, to
 * check what is on screen and take a screenshot. A request is `request-<name>.json` in the
 * channel directory (RENDER_LENS_E2E_DIR); the answer is `verdict-<name>.json` (watched, not
 * polled). Without the runner (`npm run test:vscode`) there is no page, and no channel.
 */
import * as fs from 'fs';
import * as path from 'path';

/** The demo's editor check: squiggles, a Problems row, the hover widget and the quick fix menu. */
export interface EditorCheck {
  kind: 'editor-check';
  file: string;
  squiggles: { error: number; warning: number };
  problem: string;
  hover: string[];
  quickFix: string;
}

/** A visible element matching `selector` whose text matches `pattern` (`.` spans lines); then a screenshot. */
export interface Look {
  kind: 'look';
  selector: string;
  pattern: string;
  /** Saved as client/out-test/screenshots/<screenshot>.png. */
  screenshot?: string;
}

export interface Verdict {
  failures: string[];
  screenshots: string;
}

/** The channel directory when the runner drives a browser, else undefined. */
export const browserChannel = (): string | undefined => process.env.RENDER_LENS_E2E_DIR;

export function askTheBrowser(channel: string, name: string, request: EditorCheck | Look, timeoutMs = 100_000): Promise<Verdict> {
  const verdictFile = path.join(channel, `verdict-${name}.json`);
  return new Promise((resolve, reject) => {
    const read = () => {
      if (!fs.existsSync(verdictFile)) return;
      let verdict: Verdict;
      try {
        verdict = JSON.parse(fs.readFileSync(verdictFile, 'utf8')) as Verdict;
      } catch {
        return; // still being written; the next event completes it
      }
      done();
      resolve(verdict);
    };
    const watcher = fs.watch(channel, () => read());
    const deadline = setTimeout(() => {
      done();
      reject(new Error(`no verdict from the browser side in ${verdictFile} within ${timeoutMs} ms`));
    }, timeoutMs);
    const done = () => {
      watcher.close();
      clearTimeout(deadline);
    };
    const requestFile = path.join(channel, `request-${name}.json`);
    fs.writeFileSync(`${requestFile}.tmp`, JSON.stringify(request));
    fs.renameSync(`${requestFile}.tmp`, requestFile);
    read();
  });
}
