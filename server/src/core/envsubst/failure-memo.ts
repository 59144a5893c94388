/**
 * What the editor's scan remembers about expressions that failed to parse, so that no part of
 * a text is parsed over and over.
 *
 * The scan goes on after an error, and the next expression it parses may be one that a failed
 * parse already went through as a nested `${…}` (each line of `${A:-` ⏎ `${A:-` ⏎ … holds
 * all the lines below it). Parsing an expansion depends only on the text from its `${` on, so
 * every expansion still open when a parse fails fails the same way, with the same stop, when
 * parsed on its own: recording them makes the scan linear instead of quadratic.
 */
import type { NameRef } from './ast';

/**
 * The names a failed parse read, from one expansion's first name on. The expansions open in
 * one failed parse share its ranges, so recording each of them costs one entry, not a copy.
 */
export class NamesRead {
  constructor(
    private readonly text: string,
    /** Start and end offsets of names, in pairs. */
    private readonly ranges: readonly number[],
    /** The index in `ranges` of the first pair that belongs to this expansion. */
    private readonly from: number,
  ) {}

  toRefs(): NameRef[] {
    const { text, ranges } = this;
    const refs: NameRef[] = [];
    for (let i = this.from; i + 1 < ranges.length; i += 2) {
      const start = ranges[i] ?? 0;
      const end = ranges[i + 1] ?? 0;
      refs.push({ name: text.slice(start, end), start, end });
    }
    return refs;
  }
}

/** How the expansion at a `${` fails: Flux's message, where the parser stops, the names read. */
export interface KnownFailure {
  readonly message: string;
  readonly stop: number;
  readonly names: NamesRead;
}

/** The failures of one scan of one text, by the offset of the `$` of each failing expansion. */
export class FailureMemo {
  /** Made on the first record: most scans see no nested failure, and the editor scans every scalar. */
  private byDollar: Map<number, KnownFailure> | undefined;

  get(dollar: number): KnownFailure | undefined {
    return this.byDollar?.get(dollar);
  }

  record(dollar: number, failure: KnownFailure): void {
    (this.byDollar ??= new Map()).set(dollar, failure);
  }
}
