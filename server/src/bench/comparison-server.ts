/**
 * The server the LSP bench compares against (yaml-language-server) lives in bench/comparison with
 * its own package.json and lockfile, not in the project's devDependencies: it declares a newer
 * Node than the project supports, and there it made every `npm ci` warn. The bench installs it
 * on first use, and again whenever the lockfile changes.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { comparisonDir, yamlLanguageServer } from '../dev/project-paths';

/** Installs bench/comparison when it is missing or stale; says what it did, or why the comparison is skipped. */
export function ensureComparisonServer(): string | undefined {
  const lockfile = path.join(comparisonDir, 'package-lock.json');
  // npm writes the tree it installed here; the same text as the lockfile's packages means up to date.
  const installed = path.join(comparisonDir, 'node_modules', '.package-lock.json');
  if (fs.existsSync(yamlLanguageServer) && fs.existsSync(installed) && samePackages(lockfile, installed)) return undefined;
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: comparisonDir, encoding: 'utf8', shell: process.platform === 'win32' });
  if (result.status !== 0 || !fs.existsSync(yamlLanguageServer)) {
    return `yaml-language-server: \`npm ci\` in ${path.relative(process.cwd(), comparisonDir)} failed (${result.status ?? result.error?.message}); skipped\n${result.stderr}`;
  }
  return `yaml-language-server: installed in ${path.relative(process.cwd(), comparisonDir)} from its lockfile`;
}

/** Whether the installed tree holds the lockfile's packages at the lockfile's versions. */
function samePackages(lockfile: string, installed: string): boolean {
  try {
    const wanted = versions(lockfile);
    const have = versions(installed);
    return wanted.size > 0 && [...wanted].every(([name, version]) => have.get(name) === version);
  } catch {
    return false;
  }
}

function versions(file: string): Map<string, string | undefined> {
  const packages = (JSON.parse(fs.readFileSync(file, 'utf8')) as { packages?: Record<string, { version?: string }> }).packages ?? {};
  return new Map(Object.entries(packages).filter(([name]) => name !== '').map(([name, entry]) => [name, entry.version]));
}
