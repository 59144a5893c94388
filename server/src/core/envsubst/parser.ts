/**
 * The parser for one `${…}` expression, with the grammar of fluxcd/pkg envsubst v1.7.0
 * (flux.md §3.2–3.4, §3.6, §3.7).
 *
 * Each function below consumes exactly what Flux's parser consumes and fails with the same
 * error text, so the position where it stops is also where Flux stops.
 *
 * Flux's parser recurses once per nested `${`, which Go's growable stacks allow at any depth.
 * Here the expansions being read are kept on a stack of our own instead of the call stack, so
 * that 10,000 nested defaults parse like one: the grammar of an expansion with arguments is a
 * series of steps, each resumed when the argument it waits for (perhaps a nested expansion) is
 * complete.
 */
import type { ArgumentNode, ExpansionNode, NameRef, Operator, TextNode } from './ast';
import { utf8Width } from './bytes';
import { type FailureMemo, type KnownFailure, NamesRead } from './failure-memo';
import {
  BAD_SUBSTITUTION,
  MISSING_CLOSING_BRACE,
  ParseFailure,
  UNABLE_TO_PARSE_DEFAULT_FUNCTION,
  UNABLE_TO_PARSE_FUNCTION_ARGUMENT,
  UNABLE_TO_PARSE_VARIABLE_NAME,
} from './messages';
import { type Accept, COLON, RBRACE, SLASH, Scanner, type TokenRules } from './scanner';
import { isNameRune } from './unicode';

const HASH = 0x23;
const PERCENT = 0x25;
const EQUALS = 0x3d;
const COMMA = 0x2c;
const CARET = 0x5e;
const MINUS = 0x2d;
const QUESTION = 0x3f;
const PLUS = 0x2b;

// Which runes each part of an expression may hold. `offset` limits operators to their length.
const nameRune: Accept = (r) => isNameRune(r);
const oneHash: Accept = (r, offset) => r === HASH && offset === 1;
const oneColon: Accept = (r, offset) => r === COLON && offset === 1;
const colons: Accept = (r) => r === COLON;
const notColonOrClose: Accept = (r) => r !== COLON && r !== RBRACE;
const notClose: Accept = (r) => r !== RBRACE;
const notSlash: Accept = (r) => r !== SLASH;
const slashes: Accept = (r) => r === SLASH;
const defaultOperator: Accept = (r, offset) =>
  (offset === 1 && r === COLON) || (offset === 2 && (r === EQUALS || r === MINUS || r === QUESTION || r === PLUS));
const oneEqual: Accept = (r, offset) => offset === 1 && r === EQUALS;
const hashes: Accept = (r, offset) => r === HASH && offset < 3;
const percents: Accept = (r, offset) => r === PERCENT && offset < 3;
const replaceOperator: Accept = (r, offset) =>
  (offset === 1 && r === SLASH) || (offset === 2 && (r === SLASH || r === HASH || r === PERCENT));
const caseOperator: Accept = (r, offset) => (r === COMMA || r === CARET) && offset < 3;

function wordOf(word: Accept): TokenRules {
  return { open: false, close: false, word, escapes: false };
}

/** An argument: one text run or one nested `${…}`; replace arguments also take escapes. */
function argumentOf(word: Accept, escapes: boolean): TokenRules {
  return { open: true, close: false, word, escapes };
}

const CLOSE_ONLY: TokenRules = { open: false, close: true, word: null, escapes: false };
const NAME = wordOf(nameRune);
const LENGTH_OPERATOR = wordOf(oneHash);
const SUBSTRING_OPERATOR = wordOf(oneColon);
const SUBSTRING_DELIMITER: TokenRules = { open: false, close: true, word: colons, escapes: false };
const DEFAULT_OPERATOR = wordOf(defaultOperator);
const EQUAL_OPERATOR = wordOf(oneEqual);
const HASH_OPERATOR = wordOf(hashes);
const PERCENT_OPERATOR = wordOf(percents);
const REPLACE_OPERATOR = wordOf(replaceOperator);
const REPLACE_DELIMITER = wordOf(slashes);
const CASE_OPERATOR = wordOf(caseOperator);
const OFFSET = argumentOf(notColonOrClose, false);
const TO_CLOSE = argumentOf(notClose, false);
const PATTERN = argumentOf(notSlash, true);
const REPLACEMENT = argumentOf(notClose, true);

/**
 * Parses the expansion whose `${` starts at `dollar`. On failure the result is a ParseFailure
 * whose `stop` is the offset where Flux's parser stops (just after the character it rejected)
 * and whose `refs` are the names read before the error.
 */
export function parseExpansion(text: string, dollar: number): ExpansionNode | ParseFailure {
  const parser = sharedParser();
  parser.reset(text, dollar + 2, true, undefined);
  try {
    return parser.expansion(dollar);
  } catch (error) {
    return parser.failed(error);
  }
}

/**
 * Like parseExpansion, but builds no nodes and returns only where the expansion ends (just
 * after its `}`). The editor's scan uses it and builds nodes when something asks for them.
 * With a memo, the nested expansions of a failed parse are recorded there, and an expansion
 * already recorded is not parsed again. Only the outermost needs looking up: inside the text
 * a failed parse went through, each `${` the scan can start at was one of its expansions,
 * which either failed with it (and is recorded) or closed (and parses without failing).
 */
export function measureExpansion(text: string, dollar: number, memo?: FailureMemo): number | ParseFailure {
  const known = memo?.get(dollar);
  if (known !== undefined) return failureOf(known);
  const parser = sharedParser();
  parser.reset(text, dollar + 2, false, memo);
  try {
    parser.expansion(dollar);
    return parser.position();
  } catch (error) {
    return parser.failed(error);
  }
}

let parserInstance: ExpansionParser | undefined;

/**
 * One parser serves every call (parses never nest across calls): the editor parses hundreds
 * of thousands of expressions per file, and a parse then allocates only what it returns.
 */
function sharedParser(): ExpansionParser {
  return (parserInstance ??= new ExpansionParser());
}

/** The names of a parsed expansion and of all its nested ones, in source order. */
export function refsOf(node: ExpansionNode, into: NameRef[] = []): NameRef[] {
  // Depth first without recursion: the arguments go on the stack last one first.
  const pending: ExpansionNode[] = [node];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    into.push({ name: next.name, start: next.nameStart, end: next.nameEnd });
    for (let i = next.args.length - 1; i >= 0; i--) {
      const arg = next.args[i];
      if (arg?.kind === 'expansion') pending.push(arg);
    }
  }
  return into;
}

function failureOf(known: KnownFailure): ParseFailure {
  const failure = new ParseFailure(known.message, known.stop);
  failure.names = known.names;
  return failure;
}

const NO_ARGS: readonly ArgumentNode[] = Object.freeze([]);

/** What a parse that builds nothing returns in place of every node. */
const UNBUILT: ExpansionNode = Object.freeze({
  kind: 'expansion',
  operator: 'value',
  name: '',
  nameStart: 0,
  nameEnd: 0,
  args: NO_ARGS,
  start: 0,
  end: 0,
});

/** The argument an open expansion waits for: how it is scanned; what follows it is in `afterArgument`. */
interface Step {
  readonly argument: TokenRules;
}

const DEFAULT_WORD: Step = { argument: TO_CLOSE };
const SUBSTRING_OFFSET: Step = { argument: OFFSET };
const SUBSTRING_LENGTH: Step = { argument: TO_CLOSE };
const TRIM_PATTERN: Step = { argument: TO_CLOSE };
const REPLACE_PATTERN: Step = { argument: PATTERN };
const REPLACEMENT_STEP: Step = { argument: REPLACEMENT };

/** An expansion whose `${` has been read and whose `}` has not. The objects are reused across parses. */
class OpenExpansion {
  dollar = 0;
  operator: Operator = 'value';
  name = '';
  nameStart = 0;
  args: ArgumentNode[] = NO_ARGS as ArgumentNode[];
  step: Step = DEFAULT_WORD;
  /** How many entries of nameRanges were filled before this expansion: its names follow. */
  namesBefore = 0;

  clearArgs(): void {
    this.args = NO_ARGS as ArgumentNode[];
  }
}

class ExpansionParser {
  private readonly s = new Scanner('', 0);
  /** Start and end offsets of the names read so far; NameRef objects are only built on failure. */
  private readonly nameRanges: number[] = [];
  /** How many entries of nameRanges belong to the current parse (the array is reused, not cleared). */
  private nameRangeCount = 0;
  /** False when only measuring: no node, argument list or name string is made. */
  private build = true;
  /** The expansions being read, outermost first; only the first `depth` belong to this parse. */
  private readonly open: OpenExpansion[] = [];
  private depth = 0;
  private memo: FailureMemo | undefined;

  reset(text: string, pos: number, build: boolean, memo: FailureMemo | undefined): void {
    this.s.reset(text, pos);
    this.build = build;
    this.nameRangeCount = 0;
    this.depth = 0;
    this.memo = memo;
  }

  position(): number {
    return this.s.pos;
  }

  /**
   * Turns a ParseFailure thrown by the grammar into the result, with the names read so far,
   * and records in the memo that every nested expansion still open fails the same way.
   */
  failed(error: unknown): ParseFailure {
    const depth = this.depth;
    this.depth = 0;
    // The reused objects must not keep this parse's nodes alive.
    for (let i = 0; i < depth; i++) this.open[i]?.clearArgs();
    if (!(error instanceof ParseFailure)) throw error;
    const ranges = this.nameRanges.slice(0, this.nameRangeCount);
    const text = this.s.text;
    error.names = new NamesRead(text, ranges, 0);
    const memo = this.memo;
    // The outermost expansion is not recorded: the scan goes on after it and never comes back.
    for (let i = 1; memo !== undefined && i < depth; i++) {
      const expansion = this.open[i];
      if (expansion === undefined) continue;
      memo.record(expansion.dollar, { message: error.message, stop: error.stop, names: new NamesRead(text, ranges, expansion.namesBefore) });
    }
    return error;
  }

  /**
   * Parses what follows `${`; the scanner stands just after the `{`. The loop reads the
   * arguments of the innermost open expansion, opening a nested one at each `${` and handing
   * each completed one to the expansion around it.
   */
  expansion(dollar: number): ExpansionNode {
    const s = this.s;
    let completed = this.openExpansion(dollar);
    for (;;) {
      if (completed !== undefined) {
        if (this.depth === 0) return completed;
        completed = this.afterArgument(this.innermost(), completed);
        continue;
      }
      const waiting = this.innermost();
      switch (s.scan(waiting.step.argument)) {
        case 'open':
          completed = this.openExpansion(s.tokenStart());
          break;
        case 'word':
          completed = this.afterArgument(waiting, this.textNode());
          break;
        default:
          this.fail(UNABLE_TO_PARSE_FUNCTION_ARGUMENT);
      }
    }
  }

  /**
   * Reads the head of the expansion at `dollar`: its name and operator. Returns the node when
   * the expansion takes no argument, else leaves it open, waiting for its first argument.
   */
  private openExpansion(dollar: number): ExpansionNode | undefined {
    const s = this.s;
    const expansion = this.push(dollar);
    if (s.peek() === HASH) return this.lengthOf(expansion);
    expansion.nameStart = s.pos;
    expansion.name = this.name(UNABLE_TO_PARSE_VARIABLE_NAME);
    switch (s.peek()) {
      case COLON:
        return this.defaultOrSubstring(expansion);
      case EQUALS:
        return this.defaultWord(expansion);
      case COMMA:
      case CARET:
        return this.caseChange(expansion);
      case SLASH:
        return this.replace(expansion);
      case HASH:
        return this.trim(expansion, HASH_OPERATOR);
      case PERCENT:
        return this.trim(expansion, PERCENT_OPERATOR);
    }
    if (s.scan(CLOSE_ONLY) !== 'close') this.fail(MISSING_CLOSING_BRACE);
    return this.complete(expansion, 'value');
  }

  /** `${#name}`. */
  private lengthOf(expansion: OpenExpansion): ExpansionNode {
    if (this.s.scan(LENGTH_OPERATOR) !== 'word') this.fail(BAD_SUBSTITUTION);
    expansion.nameStart = this.s.pos;
    expansion.name = this.name(BAD_SUBSTITUTION);
    this.close();
    return this.complete(expansion, 'length');
  }

  /**
   * `${name:…}`. Flux reads the `:`, peeks at the next character and then steps back by the
   * peeked character's width instead of the colon's. For ASCII that lands on the colon. At the
   * real end of the input it does not move, and for a multi-byte character it lands inside the
   * name; either way the substring parse that follows rejects what it reads (flux.md §3.7).
   */
  private defaultOrSubstring(expansion: OpenExpansion): ExpansionNode | undefined {
    const s = this.s;
    const colon = s.pos;
    s.read();
    const next = s.read();
    if (s.lastReadWasEnd() || utf8Width(next) > 1) this.fail(BAD_SUBSTITUTION);
    s.pos = colon;
    if (next === EQUALS || next === MINUS || next === QUESTION || next === PLUS) return this.defaultWord(expansion);
    return this.substring(expansion);
  }

  /** `${name:-word}`, `${name:=word}`, `${name:?word}`, `${name:+word}` and `${name=word}`. */
  private defaultWord(expansion: OpenExpansion): ExpansionNode | undefined {
    const s = this.s;
    const rules = s.peek() === EQUALS ? EQUAL_OPERATOR : DEFAULT_OPERATOR;
    if (s.scan(rules) !== 'word') this.fail(UNABLE_TO_PARSE_DEFAULT_FUNCTION);
    return this.awaitWord(this.withArguments(expansion, DEFAULT_WORD));
  }

  /** `${name:offset}` and `${name:offset:length}`. */
  private substring(expansion: OpenExpansion): undefined {
    if (this.s.scan(SUBSTRING_OPERATOR) !== 'word') this.fail(BAD_SUBSTITUTION);
    expansion.operator = ':';
    expansion.args = this.newArgs();
    expansion.step = SUBSTRING_OFFSET;
    return undefined;
  }

  /** `${name#p}`, `${name##p}`, `${name%p}`, `${name%%p}`. */
  private trim(expansion: OpenExpansion, operatorRules: TokenRules): undefined {
    if (this.s.scan(operatorRules) !== 'word') this.fail(BAD_SUBSTITUTION);
    this.withArguments(expansion, TRIM_PATTERN);
    return undefined;
  }

  /** `${name/p/r}`, `${name//p/r}`, `${name/#p/r}`, `${name/%p/r}`; the replacement may be empty. */
  private replace(expansion: OpenExpansion): undefined {
    if (this.s.scan(REPLACE_OPERATOR) !== 'word') this.fail(BAD_SUBSTITUTION);
    this.withArguments(expansion, REPLACE_PATTERN);
    return undefined;
  }

  /** `${name^}`, `${name^^}`, `${name,}`, `${name,,}` and the mixed two-character forms. */
  private caseChange(expansion: OpenExpansion): ExpansionNode {
    if (this.s.scan(CASE_OPERATOR) !== 'word') this.fail(BAD_SUBSTITUTION);
    const operator = this.operator();
    this.close();
    return this.complete(expansion, operator);
  }

  /** Takes the operator just scanned; the expansion then waits for the argument of `step`. */
  private withArguments(expansion: OpenExpansion, step: Step): OpenExpansion {
    expansion.operator = this.operator();
    expansion.args = this.newArgs();
    expansion.step = step;
    return expansion;
  }

  /**
   * Adds a complete argument to the innermost open expansion and goes on with that
   * expansion's grammar: returns its node when its `}` is read, else leaves it waiting for
   * its next argument.
   */
  private afterArgument(expansion: OpenExpansion, arg: ArgumentNode): ExpansionNode | undefined {
    const s = this.s;
    if (this.build) expansion.args.push(arg);
    switch (expansion.step) {
      case DEFAULT_WORD:
        return this.awaitWord(expansion);
      case SUBSTRING_OFFSET: {
        const delimiter = s.scan(SUBSTRING_DELIMITER);
        if (delimiter === 'close') return this.complete(expansion, expansion.operator);
        if (delimiter !== 'word') this.fail(BAD_SUBSTITUTION);
        expansion.step = SUBSTRING_LENGTH;
        return undefined;
      }
      case REPLACE_PATTERN:
        if (s.scan(REPLACE_DELIMITER) !== 'word') this.fail(BAD_SUBSTITUTION);
        if (s.peek() !== RBRACE) {
          expansion.step = REPLACEMENT_STEP;
          return undefined;
        }
        break;
      // SUBSTRING_LENGTH, TRIM_PATTERN and REPLACEMENT_STEP: the argument is the last one.
    }
    this.close();
    return this.complete(expansion, expansion.operator);
  }

  /** The word of a default is any mix of text runs and nested expansions up to the first `}` at its level. */
  private awaitWord(expansion: OpenExpansion): ExpansionNode | undefined {
    if (this.s.peek() !== RBRACE) return undefined;
    this.close();
    return this.complete(expansion, expansion.operator);
  }

  /** The text argument just scanned. */
  private textNode(): ArgumentNode {
    if (!this.build) return UNBUILT;
    const s = this.s;
    const text: TextNode = { kind: 'text', value: s.word(), start: s.tokenStart(), end: s.pos };
    return text;
  }

  /** Reads a variable name; its range is then the last pair of nameRanges. */
  private name(error: string): string {
    const s = this.s;
    if (s.scan(NAME) !== 'word') this.fail(error);
    this.nameRanges[this.nameRangeCount++] = s.tokenStart();
    this.nameRanges[this.nameRangeCount++] = s.pos;
    return this.build ? s.word() : '';
  }

  /** The operator just scanned; its spelling is one of Operator by the rules that scanned it. */
  private operator(): Operator {
    return this.build ? (this.s.word() as Operator) : 'value';
  }

  /** A list for a node's arguments; while measuring, a shared empty one that is never added to. */
  private newArgs(): ArgumentNode[] {
    return this.build ? [] : (NO_ARGS as ArgumentNode[]);
  }

  private close(): void {
    if (this.s.scan(CLOSE_ONLY) !== 'close') this.fail(BAD_SUBSTITUTION);
  }

  private innermost(): OpenExpansion {
    const expansion = this.open[this.depth - 1];
    if (expansion === undefined) throw new Error('envsubst: no open expansion');
    return expansion;
  }

  private push(dollar: number): OpenExpansion {
    let expansion = this.open[this.depth];
    if (expansion === undefined) {
      expansion = new OpenExpansion();
      this.open.push(expansion);
    }
    this.depth++;
    // The rest is set as the expansion is read; `args` was cleared when it was last closed.
    expansion.dollar = dollar;
    expansion.namesBefore = this.nameRangeCount;
    return expansion;
  }

  /** Closes the innermost open expansion, which has just read its `}`, and makes its node. */
  private complete(expansion: OpenExpansion, operator: Operator): ExpansionNode {
    this.depth--;
    const { dollar, name, nameStart, args } = expansion;
    // The reused object must not keep this parse's nodes alive.
    expansion.clearArgs();
    if (!this.build) return UNBUILT;
    return { kind: 'expansion', operator, name, nameStart, nameEnd: nameStart + name.length, args, start: dollar, end: this.s.pos };
  }

  private fail(message: string): never {
    throw new ParseFailure(message, this.s.pos);
  }
}
