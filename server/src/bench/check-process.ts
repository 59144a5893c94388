/** `render-lens check` as a user runs it, in a fresh process, with its peak RSS (rss-probe.ts). */
import { spawnSync } from 'child_process';
import * as path from 'path';
import { benchDir, renderLensCli } from '../dev/project-paths';
import { rssMarker } from './report';

/** `render-lens check --root ROOT --format json ROOT` in a fresh process (the root given: `.bench/` sits inside this project's git repository): wall time and the peak RSS it reported. */
export function checkProcess(root: string, env: Record<string, string> = {}): { ms: number; maxRssBytes: number; status: number | null; stdoutBytes: number } {
  const probe = path.join(__dirname, 'rss-probe.js');
  const started = process.hrtime.bigint();
  const run = spawnSync(process.execPath, ['--require', probe, renderLensCli, 'check', '--root', root, '--format', 'json', root], {
    encoding: 'utf8',
    maxBuffer: 1024 * 1024 * 1024,
    env: { ...process.env, RENDER_LENS_CACHE_DIR: path.join(benchDir, 'compile-cache'), ...env },
  });
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  const reported = new RegExp(`${rssMarker} (\\d+)`).exec(run.stderr ?? '');
  return { ms: elapsed, maxRssBytes: reported ? Number(reported[1]) * 1024 : NaN, status: run.status, stdoutBytes: (run.stdout ?? '').length };
}

