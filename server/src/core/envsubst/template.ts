/**
 * The editor's view of a text: every run of `$` at the top level and every `${…}`, with
 * UTF-16 ranges, scanned the way Flux scans it.
 *
 * Top-level text is simple enough to scan without the expression scanner: Flux collapses
 * each `$$` to `$` from left to right, so in a run of n dollars only an odd last one can
 * start an expansion, and only when `{` follows (flux.md §3.1). Flux also stops at the first
 * NUL, so nothing after it is reported.
 *
 * Unlike Flux, the scan goes on after an expression that does not parse, so the editor can
 * show every broken expression at once. The failing expression is taken to end just after
 * its own `}` when one closes it on the same line (counting nested `${`), otherwise where
 * Flux's parser stopped, but not beyond the end of that line; scanning resumes there. Up to
 * the first error, the scan is exactly Flux's, so its first error is Flux's error. A failed
 * parse may have gone through expressions the scan reaches later (an open default word runs
 * on over the following lines); those fail the same way and are not parsed again
 * (failure-memo.ts), so the scan stays linear.
 */
import type { ExpansionNode, NameRef } from './ast';
import { FailureMemo, type NamesRead } from './failure-memo';
import { ParseFailure } from './messages';
import { measureExpansion, parseExpansion, refsOf } from './parser';
import { DOLLAR, LBRACE, RBRACE } from './scanner';

/** A maximal run of `$` in top-level text (not inside `${…}`). */
export interface DollarRun {
  start: number;
  end: number;
  /** The number of `$`. Flux writes `floor(count / 2)` of them, plus the odd one when it is not live. */
  count: number;
  /** What follows the run; an odd run before `{` ends in a live `$` that starts an expansion. */
  next: 'brace' | 'other' | 'eof';
}

/** One `${…}` at the top level, nested expansions included in it. */
export interface Expansion {
  /** The live `$` (for an odd run, its last `$`). */
  start: number;
  /**
   * Just after the closing `}`. When the expression does not parse: just after the `}` that
   * closes it on the same line if there is one, else `stop` clamped to the end of the line
   * (and to a NUL); always at least `start + 2`.
   */
  end: number;
  /** Flux's exact parse error text, when the expression does not parse. */
  error?: string;
  /** On a parse error, the offset just after the character Flux's parser rejected. */
  stop?: number;
  /** Every distinct variable name referenced, nested ones included, in source order (for an error: those read before it). */
  names: readonly string[];
  /** Every name as written, with its range, in source order. */
  refs: NameRef[];
  /** The parsed expression, which evaluateExpansion runs; absent when `error` is set. */
  node?: ExpansionNode;
  /**
   * The name, when the expression is a bare `${NAME}` (a letter or `_`, then letters, digits
   * and `_`): most are, and this is known without parsing the expression.
   */
  readonly plainName?: string;
}

/**
 * The dollar runs of one scan, packed three numbers to a run (start, end, what follows). A
 * shell script in a ConfigMap holds dozens of `$`, and an open manifest keeps the scans of
 * all its values: as one object per run, the 10k-line manifest of `npm run bench` kept 12,500
 * of them (0.7 MB), which every young-generation collection during its open copied. Rules read
 * the fields by index; `at` makes an object for the few callers that want one.
 */
export class DollarRuns {
  /** Made by scanTemplate, exactly as long as its runs need: a kept scan holds no spare capacity. */
  constructor(private readonly packed: readonly number[] = []) {}

  get length(): number {
    return this.packed.length / 3;
  }

  start(i: number): number {
    return this.packed[3 * i];
  }

  end(i: number): number {
    return this.packed[3 * i + 1];
  }

  /** The number of `$`. */
  count(i: number): number {
    return this.packed[3 * i + 1] - this.packed[3 * i];
  }

  next(i: number): DollarRun['next'] {
    return nextKinds[this.packed[3 * i + 2]];
  }

  /** Run `i` as an object, made on each call. */
  at(i: number): DollarRun {
    return { start: this.start(i), end: this.end(i), count: this.count(i), next: this.next(i) };
  }

  /** The run that covers `offset`, if one does. */
  covering(offset: number): DollarRun | undefined {
    for (let i = 0; i < this.length; i++) if (offset >= this.start(i) && offset < this.end(i)) return this.at(i);
    return undefined;
  }

  /** Every run as an object, in source order. */
  all(): DollarRun[] {
    return Array.from({ length: this.length }, (_, i) => this.at(i));
  }
}

const nextKinds: ReadonlyArray<DollarRun['next']> = ['brace', 'other', 'eof'];

/** The runs of a text without `$`, shared (nothing adds to them). */
export const noRuns: DollarRuns = Object.freeze(new DollarRuns()) as DollarRuns;

export interface TemplateScan {
  runs: DollarRuns;
  expansions: Expansion[];
  /** The offset of the first NUL: Flux stops reading there and drops the rest. */
  nul?: number;
}

const NEWLINE = 0x0a;

/**
 * What a scan collects, in arrays that keep their room from scan to scan (a scan never starts
 * another; setting their length to 0 would give it back). An open manifest keeps the scans of
 * all its values, and arrays grown by push kept up to three times the room they used (the
 * 10k-line bench manifest's 1,362 scans: about 0.3 MB), copied by every young-generation
 * collection during its open. Each scan keeps exact copies.
 */
const scratchRuns: number[] = [];
const scratchExpansions: Expansion[] = [];
/**
 * Room always kept between scans. More is given back by the first scan that needs under a
 * quarter of it: a value with tens of thousands of `$` does not pin its arrays for the life
 * of the server once other values are scanned, and one scanned again and again (a big value
 * being edited) does not grow them from nothing each time, which took half of such a scan
 * (`npm run bench`, envsubst section: a 10 MB value scanned at 42–49 instead of 92–97 MB/s).
 */
const keptScratch = 3 * 1024;
/** Room never kept past a scan (about 8 MB of runs): a value of millions of `$` gives it back at once. */
const maxKeptScratch = 1 << 20;

export function scanTemplate(text: string): TemplateScan {
  let runs = 0;
  let expansions = 0;
  try {
    const limit = endOfInput(text);
    const braces = new LineBraces(text, limit);
    const failures = new FailureMemo();
    forEachDollarRun(text, limit, (start, end, next) => {
      scratchRuns[runs++] = start;
      scratchRuns[runs++] = end;
      scratchRuns[runs++] = nextKinds.indexOf(next);
      if (!startsExpansion(end - start, next)) return end;
      const expansion = scanExpansion(text, end - 1, braces, failures);
      scratchExpansions[expansions++] = expansion;
      return expansion.end;
    });
    return { runs: new DollarRuns(scratchRuns.slice(0, runs)), expansions: scratchExpansions.slice(0, expansions), nul: limit < text.length ? limit : undefined };
  } finally {
    // The expansions are the scan's now (or garbage, after a failure): the scratch must not keep them alive.
    scratchExpansions.fill(undefined as unknown as Expansion, 0, expansions);
    if (scratchRuns.length > keptScratch && (runs * 4 < scratchRuns.length || scratchRuns.length > maxKeptScratch)) scratchRuns.length = 0;
    if (scratchExpansions.length > keptScratch && (expansions * 4 < scratchExpansions.length || scratchExpansions.length > maxKeptScratch)) scratchExpansions.length = 0;
  }
}

/** Where Flux stops reading: at the first NUL, else at the end. */
export function endOfInput(text: string): number {
  const nul = text.indexOf('\u0000');
  return nul < 0 ? text.length : nul;
}

/** Whether a run of `count` dollars followed by `next` ends in a live `$` that starts an expansion. */
export function startsExpansion(count: number, next: DollarRun['next']): boolean {
  return next === 'brace' && count % 2 === 1;
}

/**
 * Visits every maximal run of `$` in the top-level text before `limit`, left to right. The
 * visitor returns where reading resumes: after the run, or after the expansion it starts.
 */
export function forEachDollarRun(text: string, limit: number, visit: (start: number, end: number, next: DollarRun['next']) => number): void {
  let at = text.indexOf('$');
  while (at >= 0 && at < limit) {
    let after = at + 1;
    while (after < limit && text.charCodeAt(after) === DOLLAR) after++;
    const next = after >= limit ? 'eof' : text.charCodeAt(after) === LBRACE ? 'brace' : 'other';
    at = text.indexOf('$', visit(at, after, next));
  }
}

/**
 * Parses the expansion at `dollar`, or takes its failure from `failures` when a failed parse
 * went through it. A bare `${NAME}` (most of them) is read without the parser: it always
 * parses, ending at its `}`, and no failed parse leaves it open.
 */
function scanExpansion(text: string, dollar: number, braces: LineBraces, failures: FailureMemo): Expansion {
  const bare = bareNameEnd(text, dollar);
  if (bare > 0) return new BareExpansion(text, dollar, bare, onlyName(text.slice(dollar + 2, bare - 1)));
  const parsed = measureExpansion(text, dollar, failures);
  if (typeof parsed === 'number') return new ScannedExpansion(text, dollar, parsed, undefined, undefined, undefined);
  let end = braces.closeOf(dollar);
  if (end < 0) end = Math.min(parsed.stop, braces.lineEndOf(dollar));
  end = Math.max(dollar + 2, end);
  return new ScannedExpansion(text, dollar, end, parsed.message, parsed.stop, parsed.names);
}

/**
 * `[name]` for a bare `${NAME}`, one frozen array per name: a big manifest scans tens of
 * thousands, and its expansions keep this one array (and so one string per name).
 */
const onlyNames = new Map<string, readonly string[]>();

function onlyName(name: string): readonly string[] {
  let names = onlyNames.get(name);
  if (!names) {
    names = Object.freeze([name]);
    // Bounded: a file of generated names must not grow this for the life of the server.
    if (onlyNames.size < 10_000) onlyNames.set(name, names);
  }
  return names;
}

/**
 * An Expansion whose node and `refs` are made on first use. Most scans are only read for
 * errors and ranges, and the editor scans every scalar of files many megabytes long, where
 * building every node up front doubles the time spent collecting garbage.
 */
abstract class LazyExpansion implements Expansion {
  private builtNode: ExpansionNode | undefined;
  private cachedRefs: NameRef[] | undefined;

  constructor(
    private readonly source: string,
    readonly start: number,
    readonly end: number,
  ) {}

  abstract readonly error: string | undefined;
  abstract readonly stop: number | undefined;
  abstract readonly names: readonly string[];

  get node(): ExpansionNode | undefined {
    if (this.error !== undefined) return undefined;
    if (this.builtNode === undefined) {
      const parsed = parseExpansion(this.source, this.start);
      // Measuring and parsing walk the same grammar, so an expansion that measured cleanly parses.
      if (parsed instanceof ParseFailure) throw new Error(`envsubst: ${this.source.slice(this.start, this.end)} measured but failed to parse`);
      this.builtNode = parsed;
    }
    return this.builtNode;
  }

  get refs(): NameRef[] {
    if (this.cachedRefs === undefined) {
      const node = this.node;
      this.cachedRefs = node !== undefined ? refsOf(node) : this.failedRefs();
    }
    return this.cachedRefs;
  }

  /** The names a failed parse read, as refs. */
  protected failedRefs(): NameRef[] {
    return [];
  }

  /** Serializes the computed fields too, as a plain object would. */
  toJSON(): object {
    const { start, end, error, stop, names, refs, node } = this;
    return { start, end, error, stop, names, refs, node };
  }
}

/**
 * A bare `${NAME}` (scanExpansion reads those without parsing): most expansions, kept for as
 * long as their file is open, so it carries only what it needs; its name lives in the shared
 * `names` array. The 10k-line bench manifest keeps 5,600 of them: 0.3 MB less than as
 * ScannedExpansions with their own name strings, which young-generation collections copied.
 */
class BareExpansion extends LazyExpansion {
  constructor(
    source: string,
    start: number,
    end: number,
    readonly names: readonly string[],
  ) {
    super(source, start, end);
  }

  get plainName(): string {
    return this.names[0];
  }

  get error(): undefined {
    return undefined;
  }

  get stop(): undefined {
    return undefined;
  }
}

/** Any other expansion: with operators, or one that does not parse. */
class ScannedExpansion extends LazyExpansion {
  private cachedNames: readonly string[] | undefined;

  constructor(
    source: string,
    start: number,
    end: number,
    readonly error: string | undefined,
    readonly stop: number | undefined,
    /** For a failed parse, the names it read. */
    private readonly failedNames: NamesRead | undefined,
  ) {
    super(source, start, end);
  }

  get names(): readonly string[] {
    return (this.cachedNames ??= distinctNames(this.refs));
  }

  protected override failedRefs(): NameRef[] {
    return this.failedNames?.toRefs() ?? [];
  }
}

/**
 * For each `${` of a line, the offset after the `}` that closes it on that line (counting
 * nested `${`), or -1, and where the line ends. A line is matched once, with a stack, the
 * first time one of its expressions fails to parse: asking again for every `${` of a long
 * line costs nothing more.
 */
class LineBraces {
  /** The end of the last line matched: its newline, or the first NUL, or the end of the text. */
  private matched = -1;
  /** Made when a line is first matched: most scans meet no failing expression (a Map per scanned value: 0.3 MB of garbage in the 10k-line bench manifest's open). */
  private closes: Map<number, number> | undefined;

  constructor(
    private readonly text: string,
    private readonly limit: number,
  ) {}

  closeOf(dollar: number): number {
    if (dollar > this.matched) this.matchLine(dollar);
    return this.closes?.get(dollar) ?? -1;
  }

  /** The end of the line of `dollar`, but not past the first NUL. */
  lineEndOf(dollar: number): number {
    if (dollar > this.matched) this.matchLine(dollar);
    return this.matched;
  }

  private matchLine(from: number): void {
    const { text, limit } = this;
    const open: number[] = [];
    let i = text.lastIndexOf('\n', from) + 1;
    for (; i < limit; i++) {
      const c = text.charCodeAt(i);
      if (c === NEWLINE) break;
      if (c === RBRACE) {
        const dollar = open.pop();
        if (dollar !== undefined) (this.closes ??= new Map()).set(dollar, i + 1);
      } else if (c === DOLLAR && text.charCodeAt(i + 1) === LBRACE) {
        open.push(i);
        i++;
      }
    }
    this.matched = i;
  }
}

/**
 * Just past the `}` of a bare `${NAME}` at `dollar` (a letter or `_`, then letters, digits
 * and `_`), or -1 when the expression there is anything else.
 */
function bareNameEnd(text: string, dollar: number): number {
  if (text.charCodeAt(dollar + 1) !== LBRACE) return -1;
  let i = dollar + 2;
  for (; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const lower = code | 0x20; // lower case for letters
    const nameChar = (lower >= 0x61 && lower <= 0x7a) || code === 0x5f || (code >= 0x30 && code <= 0x39 && i > dollar + 2);
    if (!nameChar) break;
  }
  return i > dollar + 2 && text.charCodeAt(i) === RBRACE ? i + 1 : -1;
}

function distinctNames(refs: readonly NameRef[]): string[] {
  return [...new Set(refs.map((ref) => ref.name))];
}
