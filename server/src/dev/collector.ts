import * as v8 from 'v8';
import * as vm from 'vm';

/** `global.gc` when node runs with --expose-gc; else the flag is turned on now and the function taken from a new context. */
export function collector(): (() => void) | undefined {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc: unknown = vm.runInNewContext('gc');
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}
