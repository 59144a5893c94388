/**
 * The YAML 1.1 scanner of go-yaml v2 (its port of libyaml's scanner.c): text to tokens.
 *
 * The behaviour reproduced here is observable in results and error texts, so the control
 * flow follows libyaml closely:
 * - Block collections are found from indentation: a deeper column pushes an indent and emits
 *   BLOCK-SEQUENCE-START or BLOCK-MAPPING-START, a shallower one emits BLOCK-END tokens.
 * - A "simple key" (a key without `?`) is only known to be a key when its `:` arrives, so each
 *   token that could start one is remembered, and a KEY token is inserted before it later.
 *   A remembered key dies when the line ends or 1024 characters pass; if it was required
 *   (block context, at the indentation column) that is the error "could not find expected ':'".
 * - go-yaml v2.4 checks whether a remembered key has died lazily: only for the token at the
 *   head of the queue (`keysByToken`) and for the current level when a `:` arrives. This
 *   timing decides which error wins and on which line, so it is kept as is.
 * - `simpleKeyAllowed` decides where `-`, `?` and `:` may start structure; its updates give
 *   the "... are not allowed in this context" errors.
 */

import { isBlank, isBlankOrBreakOrNul, isBreak } from './reader';
import { PropertyScanner } from './scan-properties';
import { SPACE, TAB } from './scan-scalars';
import { Mark, Token, TokenKind } from './tokens';

/** go-yaml v2 limits flow nesting and block indentation levels to this depth. */
const MAX_DEPTH = 10000;

class SimpleKey {
  constructor(
    public possible: boolean,
    readonly required: boolean,
    readonly tokenNumber: number,
    readonly mark: Mark,
  ) {}
}

export class Scanner extends PropertyScanner {
  private streamStartProduced = false;
  private streamEndProduced = false;

  /** The token queue; tokens before `head` have been handed to the parser. */
  private tokens: Token[] = [];
  private head = 0;
  /** How many tokens the parser has taken; token numbers count from the stream start. */
  private tokensParsed = 0;
  private tokenAvailable = false;

  private readonly indents: number[] = [];

  /** One possible simple key per flow level (index 0 is the block context). */
  private readonly simpleKeys: SimpleKey[] = [];
  /** Token number of a possible simple key to its index in `simpleKeys`. */
  private readonly keysByToken = new Map<number, number>();

  /** The next token without consuming it. */
  peek(): Token {
    if (!this.tokenAvailable) this.fetchMoreTokens();
    return this.tokens[this.head]!;
  }

  /** Consumes the token returned by `peek`. */
  skipToken(): void {
    this.tokenAvailable = false;
    this.tokensParsed++;
    this.head++;
    // Drop consumed tokens so a queue that never quite empties does not keep them all.
    if (this.head === this.tokens.length) {
      this.tokens = [];
      this.head = 0;
    } else if (this.head >= 64 && this.head * 2 >= this.tokens.length) {
      this.tokens = this.tokens.slice(this.head);
      this.head = 0;
    }
  }

  private fetchMoreTokens(): void {
    for (;;) {
      if (this.head !== this.tokens.length) {
        // The head token can be returned unless it may still turn out to be a simple key.
        const keyIndex = this.keysByToken.get(this.tokensParsed);
        if (keyIndex === undefined || keyIndex >= this.simpleKeys.length) break;
        if (!this.simpleKeyIsValid(this.simpleKeys[keyIndex]!)) break;
      }
      if (this.streamEndProduced) break;
      this.fetchNextToken();
    }
    this.tokenAvailable = true;
  }

  private simpleKeyIsValid(key: SimpleKey): boolean {
    if (!key.possible) return false;
    if (key.mark.line < this.line || key.mark.index + 1024 < this.index) {
      if (key.required) throw this.error(key.mark, "could not find expected ':'");
      key.possible = false;
      return false;
    }
    return true;
  }

  private appendToken(token: Token): void {
    this.tokens.push(token);
  }

  /**
   * Inserts `token` at `position` tokens after the queue head; a negative position appends.
   * The position is negative when the key's own token was already handed to the parser,
   * which happens after an empty flow collection (`[]: x`): go-yaml then appends the KEY,
   * the first document ends before it, and the result is just `[]`.
   */
  private insertToken(position: number, token: Token): void {
    if (position < 0) this.tokens.push(token);
    else this.tokens.splice(this.head + position, 0, token);
  }

  private nextTokenNumber(): number {
    return this.tokensParsed + (this.tokens.length - this.head);
  }

  private fetchNextToken(): void {
    this.cache(1);
    if (!this.streamStartProduced) {
      this.fetchStreamStart();
      return;
    }
    this.scanToNextToken();
    this.unrollIndent(this.column);
    this.cache(4);

    const c = this.at(0);
    if (c === 0) return this.fetchStreamEnd();
    if (this.column === 0) {
      if (c === 0x25 /* % */) return this.fetchDirective();
      if (c === 0x2d && this.at(1) === 0x2d && this.at(2) === 0x2d && isBlankOrBreakOrNul(this.at(3))) {
        return this.fetchDocumentIndicator(TokenKind.DocumentStart);
      }
      if (c === 0x2e && this.at(1) === 0x2e && this.at(2) === 0x2e && isBlankOrBreakOrNul(this.at(3))) {
        return this.fetchDocumentIndicator(TokenKind.DocumentEnd);
      }
    }
    switch (c) {
      case 0x5b /* [ */:
        return this.fetchFlowCollectionStart(TokenKind.FlowSequenceStart);
      case 0x7b /* { */:
        return this.fetchFlowCollectionStart(TokenKind.FlowMappingStart);
      case 0x5d /* ] */:
        return this.fetchFlowCollectionEnd(TokenKind.FlowSequenceEnd);
      case 0x7d /* } */:
        return this.fetchFlowCollectionEnd(TokenKind.FlowMappingEnd);
      case 0x2c /* , */:
        return this.fetchFlowEntry();
    }
    const next = this.at(1);
    if (c === 0x2d /* - */ && isBlankOrBreakOrNul(next)) return this.fetchBlockEntry();
    if (c === 0x3f /* ? */ && (this.flowLevel > 0 || isBlankOrBreakOrNul(next))) return this.fetchKey();
    if (c === 0x3a /* : */ && (this.flowLevel > 0 || isBlankOrBreakOrNul(next))) return this.fetchValue();
    switch (c) {
      case 0x2a /* * */:
        return this.fetchKeyCandidate(() => this.scanAnchor(TokenKind.Alias));
      case 0x26 /* & */:
        return this.fetchKeyCandidate(() => this.scanAnchor(TokenKind.Anchor));
      case 0x21 /* ! */:
        return this.fetchKeyCandidate(() => this.scanTag());
      case 0x27 /* ' */:
        return this.fetchKeyCandidate(() => this.scanFlowScalar(true));
      case 0x22 /* " */:
        return this.fetchKeyCandidate(() => this.scanFlowScalar(false));
    }
    if (this.flowLevel === 0) {
      if (c === 0x7c /* | */) return this.fetchBlockScalar(true);
      if (c === 0x3e /* > */) return this.fetchBlockScalar(false);
    }
    // A plain scalar cannot start with an indicator, except that `-` may when a non-blank
    // follows, and in the block context `?` and `:` may when a non-blank follows.
    if (
      !(isBlankOrBreakOrNul(c) || PLAIN_START_EXCLUDED.has(c)) ||
      (c === 0x2d && !isBlank(next)) ||
      (this.flowLevel === 0 && (c === 0x3f || c === 0x3a) && !isBlankOrBreakOrNul(next))
    ) {
      return this.fetchKeyCandidate(() => this.scanPlainScalar());
    }
    throw this.error(this.mark(), 'found character that cannot start any token');
  }

  private fetchStreamStart(): void {
    this.indent = -1;
    this.simpleKeys.push(new SimpleKey(false, false, 0, this.mark()));
    this.simpleKeyAllowed = true;
    this.streamStartProduced = true;
    const m = this.mark();
    this.appendToken(new Token(TokenKind.StreamStart, m, m));
  }

  private fetchStreamEnd(): void {
    // The end of the stream always counts as the start of a new line.
    if (this.column !== 0) {
      this.column = 0;
      this.line++;
    }
    this.unrollIndent(-1);
    this.removeSimpleKey();
    this.simpleKeyAllowed = false;
    this.streamEndProduced = true;
    const m = this.mark();
    this.appendToken(new Token(TokenKind.StreamEnd, m, m));
  }

  private fetchDirective(): void {
    this.unrollIndent(-1);
    this.removeSimpleKey();
    this.simpleKeyAllowed = false;
    this.appendToken(this.scanDirective());
  }

  private fetchDocumentIndicator(kind: TokenKind): void {
    this.unrollIndent(-1);
    this.removeSimpleKey();
    this.simpleKeyAllowed = false;
    const start = this.mark();
    this.skip();
    this.skip();
    this.skip();
    this.appendToken(new Token(kind, start, this.mark()));
  }

  /** Consumes a one-character indicator (`[`, `,`, `-`, `:` ...) and appends its token. */
  private appendIndicator(kind: TokenKind): void {
    const start = this.mark();
    this.skip();
    this.appendToken(new Token(kind, start, this.mark()));
  }

  private fetchFlowCollectionStart(kind: TokenKind): void {
    // `[` and `{` may start a simple key: `[a, b]: c` is a mapping with a sequence key.
    this.saveSimpleKey();
    this.increaseFlowLevel();
    this.simpleKeyAllowed = true;
    this.appendIndicator(kind);
  }

  private fetchFlowCollectionEnd(kind: TokenKind): void {
    this.removeSimpleKey();
    this.decreaseFlowLevel();
    this.simpleKeyAllowed = false;
    this.appendIndicator(kind);
  }

  private fetchFlowEntry(): void {
    this.removeSimpleKey();
    this.simpleKeyAllowed = true;
    this.appendIndicator(TokenKind.FlowEntry);
  }

  private fetchBlockEntry(): void {
    this.openBlockCollection(TokenKind.BlockSequenceStart, 'block sequence entries are not allowed in this context');
    // In the flow context a `-` entry is left for the parser to reject.
    this.removeSimpleKey();
    this.simpleKeyAllowed = true;
    this.appendIndicator(TokenKind.BlockEntry);
  }

  private fetchKey(): void {
    this.openBlockCollection(TokenKind.BlockMappingStart, 'mapping keys are not allowed in this context');
    this.removeSimpleKey();
    this.simpleKeyAllowed = this.flowLevel === 0;
    this.appendIndicator(TokenKind.Key);
  }

  private fetchValue(): void {
    const key = this.simpleKeys[this.simpleKeys.length - 1]!;
    if (this.simpleKeyIsValid(key)) {
      // The remembered token was a simple key: put KEY (and, when it opens a new block
      // mapping, BLOCK-MAPPING-START) in front of it.
      this.insertToken(key.tokenNumber - this.tokensParsed, new Token(TokenKind.Key, key.mark, key.mark));
      this.rollIndent(key.mark.column, key.tokenNumber, TokenKind.BlockMappingStart, key.mark);
      key.possible = false;
      this.keysByToken.delete(key.tokenNumber);
      // Nothing after the `:` of a simple key can be another key on this line.
      this.simpleKeyAllowed = false;
    } else {
      // A value after an explicit `?` key, or after nothing at all.
      this.openBlockCollection(TokenKind.BlockMappingStart, 'mapping values are not allowed in this context');
      this.simpleKeyAllowed = this.flowLevel === 0;
    }
    this.appendIndicator(TokenKind.Value);
  }

  private fetchBlockScalar(literal: boolean): void {
    this.removeSimpleKey();
    this.simpleKeyAllowed = true;
    this.appendToken(this.scanBlockScalar(literal));
  }

  /**
   * Anchors, aliases, tags and flow and plain scalars (libyaml's fetch_anchor, fetch_tag,
   * fetch_flow_scalar and fetch_plain_scalar, alike but for the scan): each may be the start
   * of a simple key, so it is remembered before scanning, and no key can start right after it.
   */
  private fetchKeyCandidate(scan: () => Token): void {
    this.saveSimpleKey();
    this.simpleKeyAllowed = false;
    this.appendToken(scan());
  }

  private saveSimpleKey(): void {
    const required = this.flowLevel === 0 && this.indent === this.column;
    if (!this.simpleKeyAllowed) return;
    const key = new SimpleKey(true, required, this.nextTokenNumber(), this.mark());
    this.removeSimpleKey();
    const top = this.simpleKeys.length - 1;
    this.simpleKeys[top] = key;
    this.keysByToken.set(key.tokenNumber, top);
  }

  private removeSimpleKey(): void {
    const key = this.simpleKeys[this.simpleKeys.length - 1]!;
    if (!key.possible) return;
    if (key.required) throw this.error(key.mark, "could not find expected ':'");
    key.possible = false;
    this.keysByToken.delete(key.tokenNumber);
  }

  private increaseFlowLevel(): void {
    const m = this.mark();
    this.simpleKeys.push(new SimpleKey(false, false, this.nextTokenNumber(), m));
    this.flowLevel++;
    if (this.flowLevel > MAX_DEPTH) throw this.error(m, `exceeded max depth of ${MAX_DEPTH}`);
  }

  private decreaseFlowLevel(): void {
    if (this.flowLevel === 0) return;
    this.flowLevel--;
    const key = this.simpleKeys.pop()!;
    this.keysByToken.delete(key.tokenNumber);
  }

  /**
   * Opens a block collection when `column` is deeper than the current indentation. `number`
   * is the token number to insert before (a simple key found late), or -1 to append.
   */
  private rollIndent(column: number, number: number, kind: TokenKind, mark: Mark): void {
    if (this.flowLevel > 0 || this.indent >= column) return;
    this.indents.push(this.indent);
    this.indent = column;
    if (this.indents.length > MAX_DEPTH) {
      throw this.error(this.simpleKeys[this.simpleKeys.length - 1]!.mark, `exceeded max depth of ${MAX_DEPTH}`);
    }
    this.insertToken(number > -1 ? number - this.tokensParsed : -1, new Token(kind, mark, mark));
  }

  /**
   * In the block context, `-`, `?` and `:` open a collection at their column when it is deeper
   * than the current indent; they may only stand where a simple key could start.
   */
  private openBlockCollection(kind: TokenKind, problem: string): void {
    if (this.flowLevel > 0) return;
    if (!this.simpleKeyAllowed) throw this.error(this.mark(), problem);
    this.rollIndent(this.column, -1, kind, this.mark());
  }

  /** Closes every block collection deeper than `column`. */
  private unrollIndent(column: number): void {
    if (this.flowLevel > 0) return;
    while (this.indent > column) {
      const m = this.mark();
      this.appendToken(new Token(TokenKind.BlockEnd, m, m));
      this.indent = this.indents.pop()!;
    }
  }

  /** Skips blanks, comments and line breaks up to the next token. */
  private scanToNextToken(): void {
    for (;;) {
      this.cache(1);
      // go-yaml tests for a BOM at the start of its buffer, not at the current position.
      if (this.column === 0 && this.src.charCodeAt(this.bufferBase) === 0xfeff) this.skip();
      this.cache(1);
      // Tabs count as whitespace in the flow context and wherever no simple key may start
      // (after a key's `:` or a scalar on the same line), but not where indentation is
      // measured.
      for (;;) {
        const c = this.at(0);
        if (!(c === SPACE || (c === TAB && (this.flowLevel > 0 || !this.simpleKeyAllowed)))) break;
        this.skip();
        this.cache(1);
      }
      this.skipComment();
      if (!isBreak(this.at(0))) return;
      this.cache(2);
      this.skipLine();
      if (this.flowLevel === 0) this.simpleKeyAllowed = true;
    }
  }
}

/** Characters that cannot start a plain scalar (besides blanks and breaks). */
const PLAIN_START_EXCLUDED = new Set([..."-?:,[]{}#&*!|>'\"%@`"].map((ch) => ch.charCodeAt(0)));
