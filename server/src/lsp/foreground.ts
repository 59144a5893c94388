/**
 * Whether the server thread has an open document to check, shared with the workspace check's
 * thread, which stands aside meanwhile (between two files, and before it builds its graph).
 * The check's thread runs at a lower priority, but on a machine of two busy cores that is not
 * enough: the file the user opened as the check started got its diagnostics 1.5–2.5× later
 * than with no check running (docs/performance.md).
 */

/** The server thread's side: one flag in shared memory. */
export class ForegroundWork {
  readonly shared = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
  private readonly flag = new Int32Array(this.shared);

  /** Set while an open document waits for its check or its diagnostics are being written. */
  set(busy: boolean): void {
    if (Atomics.exchange(this.flag, 0, busy ? 1 : 0) === 1 && !busy) Atomics.notify(this.flag, 0);
  }
}

/**
 * How long the check's thread waits at most, each time: a server thread that stays busy (a
 * long burst of keystrokes) still lets the check go on, a file at a time.
 */
const longestWaitMs = 1000;

/** The check's side: returns once the server thread has no open document to check, or after longestWaitMs. */
export function standAside(shared: SharedArrayBuffer | undefined): void {
  if (!shared) return;
  Atomics.wait(new Int32Array(shared), 0, 1, longestWaitMs);
}
