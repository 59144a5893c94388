/**
 * The parser for one `${…}` expression, with the grammar of fluxcd/pkg envsubst v1.7.0
 * (flux.md §3.2–3.4, §3.6, §3.7).
 *
 * Each function below consumes exactly what Flux's parser consumes and fails with the same
 * error text, so the position where it stops is also where Flux stops.
 */
import type { ArgumentNode, ExpansionNode, NameRef, Operator, TextNode } from './ast';
import { utf8Width } from './bytes';
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
  parser.reset(text, dollar + 2, true);
  try {
    return parser.expansion(dollar);
  } catch (error) {
    return parser.failed(error);
  }
}

/**
 * Like parseExpansion, but builds no nodes and returns only where the expansion ends (just
 * after its `}`). The editor's scan uses it and builds nodes when something asks for them.
 */
export function measureExpansion(text: string, dollar: number): number | ParseFailure {
  const parser = sharedParser();
  parser.reset(text, dollar + 2, false);
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
  into.push({ name: node.name, start: node.nameStart, end: node.nameEnd });
  for (const arg of node.args) if (arg.kind === 'expansion') refsOf(arg, into);
  return into;
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

class ExpansionParser {
  private readonly s = new Scanner('', 0);
  /** Start and end offsets of the names read so far; NameRef objects are only built on failure. */
  private readonly nameRanges: number[] = [];
  /** How many entries of nameRanges belong to the current parse (the array is reused, not cleared). */
  private nameRangeCount = 0;
  /** False when only measuring: no node, argument list or name string is made. */
  private build = true;

  reset(text: string, pos: number, build: boolean): void {
    this.s.reset(text, pos);
    this.build = build;
    this.nameRangeCount = 0;
  }

  position(): number {
    return this.s.pos;
  }

  /** Turns a ParseFailure thrown by the grammar into the result, with the names read so far. */
  failed(error: unknown): ParseFailure {
    if (!(error instanceof ParseFailure)) throw error;
    error.refs = this.readRefs();
    return error;
  }

  private readRefs(): NameRef[] {
    const refs: NameRef[] = [];
    const ranges = this.nameRanges;
    for (let i = 0; i < this.nameRangeCount; i += 2) {
      const start = ranges[i] ?? 0;
      const end = ranges[i + 1] ?? 0;
      refs.push({ name: this.s.text.slice(start, end), start, end });
    }
    return refs;
  }

  /** Parses what follows `${`; the scanner stands just after the `{`. */
  expansion(dollar: number): ExpansionNode {
    const s = this.s;
    if (s.peek() === HASH) return this.lengthOf(dollar);
    const nameStart = s.pos;
    const name = this.name(UNABLE_TO_PARSE_VARIABLE_NAME);
    switch (s.peek()) {
      case COLON:
        return this.defaultOrSubstring(dollar, name, nameStart);
      case EQUALS:
        return this.defaultWord(dollar, name, nameStart);
      case COMMA:
      case CARET:
        return this.caseChange(dollar, name, nameStart);
      case SLASH:
        return this.replace(dollar, name, nameStart);
      case HASH:
        return this.trim(dollar, name, nameStart, HASH_OPERATOR);
      case PERCENT:
        return this.trim(dollar, name, nameStart, PERCENT_OPERATOR);
    }
    if (s.scan(CLOSE_ONLY) !== 'close') this.fail(MISSING_CLOSING_BRACE);
    return this.node(dollar, 'value', name, nameStart, NO_ARGS);
  }

  /** `${#name}`. */
  private lengthOf(dollar: number): ExpansionNode {
    if (this.s.scan(LENGTH_OPERATOR) !== 'word') this.fail(BAD_SUBSTITUTION);
    const nameStart = this.s.pos;
    const name = this.name(BAD_SUBSTITUTION);
    this.close();
    return this.node(dollar, 'length', name, nameStart, NO_ARGS);
  }

  /**
   * `${name:…}`. Flux reads the `:`, peeks at the next character and then steps back by the
   * peeked character's width instead of the colon's. For ASCII that lands on the colon. At the
   * real end of the input it does not move, and for a multi-byte character it lands inside the
   * name; either way the substring parse that follows rejects what it reads (flux.md §3.7).
   */
  private defaultOrSubstring(dollar: number, name: string, nameStart: number): ExpansionNode {
    const s = this.s;
    const colon = s.pos;
    s.read();
    const next = s.read();
    if (s.lastReadWasEnd() || utf8Width(next) > 1) this.fail(BAD_SUBSTITUTION);
    s.pos = colon;
    if (next === EQUALS || next === MINUS || next === QUESTION || next === PLUS) return this.defaultWord(dollar, name, nameStart);
    return this.substring(dollar, name, nameStart);
  }

  /** `${name:-word}`, `${name:=word}`, `${name:?word}`, `${name:+word}` and `${name=word}`. */
  private defaultWord(dollar: number, name: string, nameStart: number): ExpansionNode {
    const s = this.s;
    const rules = s.peek() === EQUALS ? EQUAL_OPERATOR : DEFAULT_OPERATOR;
    if (s.scan(rules) !== 'word') this.fail(UNABLE_TO_PARSE_DEFAULT_FUNCTION);
    const operator = this.operator();
    const args = this.newArgs();
    // The word is any mix of text runs and nested expansions up to the first `}` at this level.
    while (s.peek() !== RBRACE) this.add(args, this.argument(TO_CLOSE));
    this.close();
    return this.node(dollar, operator, name, nameStart, args);
  }

  /** `${name:offset}` and `${name:offset:length}`. */
  private substring(dollar: number, name: string, nameStart: number): ExpansionNode {
    const s = this.s;
    if (s.scan(SUBSTRING_OPERATOR) !== 'word') this.fail(BAD_SUBSTITUTION);
    const args = this.newArgs();
    this.add(args, this.argument(OFFSET));
    const delimiter = s.scan(SUBSTRING_DELIMITER);
    if (delimiter === 'close') return this.node(dollar, ':', name, nameStart, args);
    if (delimiter !== 'word') this.fail(BAD_SUBSTITUTION);
    this.add(args, this.argument(TO_CLOSE));
    this.close();
    return this.node(dollar, ':', name, nameStart, args);
  }

  /** `${name#p}`, `${name##p}`, `${name%p}`, `${name%%p}`. */
  private trim(dollar: number, name: string, nameStart: number, operatorRules: TokenRules): ExpansionNode {
    const s = this.s;
    if (s.scan(operatorRules) !== 'word') this.fail(BAD_SUBSTITUTION);
    const operator = this.operator();
    const args = this.newArgs();
    this.add(args, this.argument(TO_CLOSE));
    this.close();
    return this.node(dollar, operator, name, nameStart, args);
  }

  /** `${name/p/r}`, `${name//p/r}`, `${name/#p/r}`, `${name/%p/r}`; the replacement may be empty. */
  private replace(dollar: number, name: string, nameStart: number): ExpansionNode {
    const s = this.s;
    if (s.scan(REPLACE_OPERATOR) !== 'word') this.fail(BAD_SUBSTITUTION);
    const operator = this.operator();
    const args = this.newArgs();
    this.add(args, this.argument(PATTERN));
    if (s.scan(REPLACE_DELIMITER) !== 'word') this.fail(BAD_SUBSTITUTION);
    if (s.peek() !== RBRACE) this.add(args, this.argument(REPLACEMENT));
    this.close();
    return this.node(dollar, operator, name, nameStart, args);
  }

  /** `${name^}`, `${name^^}`, `${name,}`, `${name,,}` and the mixed two-character forms. */
  private caseChange(dollar: number, name: string, nameStart: number): ExpansionNode {
    const s = this.s;
    if (s.scan(CASE_OPERATOR) !== 'word') this.fail(BAD_SUBSTITUTION);
    const operator = this.operator();
    this.close();
    return this.node(dollar, operator, name, nameStart, NO_ARGS);
  }

  /** One argument: a single text run, or a single nested expansion. */
  private argument(rules: TokenRules): ArgumentNode {
    const s = this.s;
    switch (s.scan(rules)) {
      case 'open':
        return this.expansion(s.tokenStart());
      case 'word': {
        if (!this.build) return UNBUILT;
        const text: TextNode = { kind: 'text', value: s.word(), start: s.tokenStart(), end: s.pos };
        return text;
      }
      default:
        return this.fail(UNABLE_TO_PARSE_FUNCTION_ARGUMENT);
    }
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

  /** A list for a node's arguments; while measuring, a shared empty one that add leaves alone. */
  private newArgs(): ArgumentNode[] {
    return this.build ? [] : (NO_ARGS as ArgumentNode[]);
  }

  private add(args: ArgumentNode[], arg: ArgumentNode): void {
    if (this.build) args.push(arg);
  }

  private close(): void {
    if (this.s.scan(CLOSE_ONLY) !== 'close') this.fail(BAD_SUBSTITUTION);
  }

  private node(dollar: number, operator: Operator, name: string, nameStart: number, args: readonly ArgumentNode[]): ExpansionNode {
    if (!this.build) return UNBUILT;
    return { kind: 'expansion', operator, name, nameStart, nameEnd: nameStart + name.length, args, start: dollar, end: this.s.pos };
  }

  private fail(message: string): never {
    throw new ParseFailure(message, this.s.pos);
  }
}
