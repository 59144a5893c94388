/**
 * The core's one cache. A value derived from an input object is kept with that object and
 * goes when the object goes. Every input it is used with stands for one version of
 * something (a file's parse or objects, a Flux graph, a render context, the schema table)
 * and is replaced, never changed, when that changes: nothing kept can be stale, and nothing
 * needs clearing. Facts of a file's raw text are kept the same way by the file index, per
 * file version (`FileIndex.derived`).
 */
export class Memo<K extends object, V> {
  private readonly values = new WeakMap<K, V>();
  private readonly along = new WeakMap<K, unknown>();

  /** The value for `key`, computed once. */
  of(key: K, compute: (key: K) => V): V {
    const known = this.values.get(key);
    if (known !== undefined || this.values.has(key)) return known as V;
    const value = compute(key);
    this.values.set(key, value);
    return value;
  }

  /**
   * The value for `key` while `along` stays the same; computed again when it changes (a
   * patch read for another file, sources read through another index). Only the last is kept.
   */
  ofAlong(key: K, along: unknown, compute: (key: K) => V): V {
    if (this.values.has(key) && this.along.get(key) === along) return this.values.get(key) as V;
    const value = compute(key);
    this.values.set(key, value);
    this.along.set(key, along);
    return value;
  }
}
