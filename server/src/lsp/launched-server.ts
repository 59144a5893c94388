/**
 * A server started by `render-lens-server` (launcher.ts) ends when its launcher is gone. The
 * launcher passes stop signals on, but one killed outright cannot, and the server's stdin
 * closes only once the editor closes its end: until then the server would run on, owned by
 * nobody. Where a process outlives its parent it gets a new one (POSIX), which a check every
 * second notices; on Windows a launcher's children end with it.
 */
export const launcherPidVariable = 'RENDER_LENS_LAUNCHER_PID';

const checkEveryMs = 1000;

/** Starts the check when the launcher started this process (it says so in the environment). */
export function endWithLauncher(): void {
  const variable = process.env[launcherPidVariable];
  // Nothing the server might start should take this for its own.
  delete process.env[launcherPidVariable];
  if (variable === undefined) return;
  const launcher = Number(variable);
  const launcherGone = () => process.ppid !== launcher;
  // Killed while the server was still loading: it is gone already.
  if (launcherGone()) process.exit(1);
  setInterval(() => {
    if (launcherGone()) process.exit(1);
  }, checkEveryMs).unref();
}
