/**
 * Values as Go holds them after decoding YAML (go-yaml v2/v3) or JSON into `interface{}`.
 * The controller path moves resources through several such decodes; keeping Go's shapes
 * (int64 vs uint64 vs float64, maps with non-string keys) is what lets us reproduce its
 * exact output and error texts. Integers are bigints so values past 2^53 stay exact.
 */

/** Go `int` (int64), or `uint64` when the decoder had to widen (`unsigned`). */
export class GoInt {
  constructor(
    readonly value: bigint,
    readonly unsigned = false,
  ) {}
}

/** Go `float64`. */
export class GoFloat {
  constructor(readonly value: number) {}
}

/**
 * Go `map[interface{}]interface{}` (from YAML) or `map[string]interface{}` (from JSON).
 * Entries keep decode order; Go's own iteration order is random, so encoders sort.
 */
export class GoMap {
  readonly entries: Array<[GoValue, GoValue]> = [];

  /** True when every key is a Go string (a `map[string]interface{}`). */
  constructor(readonly stringKeys = false) {}

  get(key: string): GoValue | undefined {
    for (const [k, v] of this.entries) if (k === key) return v;
    return undefined;
  }

  set(key: GoValue, value: GoValue): void {
    for (const entry of this.entries) {
      if (goEqualKeys(entry[0], key)) {
        entry[1] = value;
        return;
      }
    }
    this.entries.push([key, value]);
  }
}

export type GoValue = null | boolean | string | GoInt | GoFloat | GoValue[] | GoMap;

function goEqualKeys(a: GoValue, b: GoValue): boolean {
  if (a instanceof GoInt && b instanceof GoInt) return a.value === b.value && a.unsigned === b.unsigned;
  if (a instanceof GoFloat && b instanceof GoFloat) return a.value === b.value;
  return a === b;
}
