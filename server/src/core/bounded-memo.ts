/**
 * A memo of a pure function with at most `limit` entries; past it the oldest entry goes
 * (a Map keeps insertion order). Long editor sessions see endless distinct inputs, so an
 * unbounded cache would be a leak.
 */
export class BoundedMemo<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly limit: number) {}

  get(key: K, compute: () => V): V {
    const known = this.entries.get(key);
    if (known !== undefined || this.entries.has(key)) return known as V;
    const value = compute();
    if (this.entries.size >= this.limit) this.entries.delete(this.entries.keys().next().value as K);
    this.entries.set(key, value);
    return value;
  }
}
