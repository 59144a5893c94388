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

import { SyntaxStage, syntaxError, type YamlV2Error } from './errors';
import {
  LF,
  ScannerInput,
  hexValue,
  isAlpha,
  isBlank,
  isBlankOrBreakOrNul,
  isBreak,
  isBreakOrNul,
  isDigit,
  isHex,
} from './reader';
import { Mark, ScalarStyle, Token, TokenKind } from './tokens';
import { decodeUtf8Go } from './go-text';

/** go-yaml v2 limits flow nesting and block indentation levels to this depth. */
const MAX_DEPTH = 10000;

const SPACE = 0x20;
const TAB = 0x09;
const HASH = 0x23;

class SimpleKey {
  constructor(
    public possible: boolean,
    readonly required: boolean,
    readonly tokenNumber: number,
    readonly mark: Mark,
  ) {}
}

export class Scanner extends ScannerInput {
  private streamStartProduced = false;
  private streamEndProduced = false;
  private flowLevel = 0;

  /** The token queue; tokens before `head` have been handed to the parser. */
  private tokens: Token[] = [];
  private head = 0;
  /** How many tokens the parser has taken; token numbers count from the stream start. */
  private tokensParsed = 0;
  private tokenAvailable = false;

  private indent = -1;
  private readonly indents: number[] = [];

  private simpleKeyAllowed = false;
  /** One possible simple key per flow level (index 0 is the block context). */
  private readonly simpleKeys: SimpleKey[] = [];
  /** Token number of a possible simple key to its index in `simpleKeys`. */
  private readonly keysByToken = new Map<number, number>();

  // Out-parameters of scanBlockScalarBreaks, kept as fields to avoid allocating.
  private blockIndent = 0;
  private blockBreaks = '';
  private blockEnd: Mark | null = null;

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
    if (this.head === this.tokens.length) {
      this.tokens = [];
      this.head = 0;
    }
  }

  private error(context: Mark | null, problem: string): YamlV2Error {
    return syntaxError(SyntaxStage.Scanner, problem, this.mark(), context);
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

  /** Inserts `token` at `position` tokens after the queue head; a negative position appends. */
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
        return this.fetchAnchor(TokenKind.Alias);
      case 0x26 /* & */:
        return this.fetchAnchor(TokenKind.Anchor);
      case 0x21 /* ! */:
        return this.fetchTag();
      case 0x27 /* ' */:
        return this.fetchFlowScalar(true);
      case 0x22 /* " */:
        return this.fetchFlowScalar(false);
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
      return this.fetchPlainScalar();
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

  private fetchFlowCollectionStart(kind: TokenKind): void {
    // `[` and `{` may start a simple key: `[a, b]: c` is a mapping with a sequence key.
    this.saveSimpleKey();
    this.increaseFlowLevel();
    this.simpleKeyAllowed = true;
    const start = this.mark();
    this.skip();
    this.appendToken(new Token(kind, start, this.mark()));
  }

  private fetchFlowCollectionEnd(kind: TokenKind): void {
    this.removeSimpleKey();
    this.decreaseFlowLevel();
    this.simpleKeyAllowed = false;
    const start = this.mark();
    this.skip();
    this.appendToken(new Token(kind, start, this.mark()));
  }

  private fetchFlowEntry(): void {
    this.removeSimpleKey();
    this.simpleKeyAllowed = true;
    const start = this.mark();
    this.skip();
    this.appendToken(new Token(TokenKind.FlowEntry, start, this.mark()));
  }

  private fetchBlockEntry(): void {
    if (this.flowLevel === 0) {
      if (!this.simpleKeyAllowed) throw this.error(this.mark(), 'block sequence entries are not allowed in this context');
      this.rollIndent(this.column, -1, TokenKind.BlockSequenceStart, this.mark());
    }
    // In the flow context a `-` entry is left for the parser to reject.
    this.removeSimpleKey();
    this.simpleKeyAllowed = true;
    const start = this.mark();
    this.skip();
    this.appendToken(new Token(TokenKind.BlockEntry, start, this.mark()));
  }

  private fetchKey(): void {
    if (this.flowLevel === 0) {
      if (!this.simpleKeyAllowed) throw this.error(this.mark(), 'mapping keys are not allowed in this context');
      this.rollIndent(this.column, -1, TokenKind.BlockMappingStart, this.mark());
    }
    this.removeSimpleKey();
    this.simpleKeyAllowed = this.flowLevel === 0;
    const start = this.mark();
    this.skip();
    this.appendToken(new Token(TokenKind.Key, start, this.mark()));
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
      if (this.flowLevel === 0) {
        if (!this.simpleKeyAllowed) throw this.error(this.mark(), 'mapping values are not allowed in this context');
        this.rollIndent(this.column, -1, TokenKind.BlockMappingStart, this.mark());
      }
      this.simpleKeyAllowed = this.flowLevel === 0;
    }
    const start = this.mark();
    this.skip();
    this.appendToken(new Token(TokenKind.Value, start, this.mark()));
  }

  private fetchAnchor(kind: TokenKind): void {
    this.saveSimpleKey();
    this.simpleKeyAllowed = false;
    this.appendToken(this.scanAnchor(kind));
  }

  private fetchTag(): void {
    this.saveSimpleKey();
    this.simpleKeyAllowed = false;
    this.appendToken(this.scanTag());
  }

  private fetchBlockScalar(literal: boolean): void {
    this.removeSimpleKey();
    this.simpleKeyAllowed = true;
    this.appendToken(this.scanBlockScalar(literal));
  }

  private fetchFlowScalar(single: boolean): void {
    this.saveSimpleKey();
    this.simpleKeyAllowed = false;
    this.appendToken(this.scanFlowScalar(single));
  }

  private fetchPlainScalar(): void {
    this.saveSimpleKey();
    this.simpleKeyAllowed = false;
    this.appendToken(this.scanPlainScalar());
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
      // Tabs are whitespace in the flow context and after `-`, `?` or `:` on the same
      // line (where no simple key is allowed), but not as block indentation.
      for (;;) {
        const c = this.at(0);
        if (!(c === SPACE || (c === TAB && (this.flowLevel > 0 || !this.simpleKeyAllowed)))) break;
        this.skip();
        this.cache(1);
      }
      if (this.at(0) === HASH) {
        while (!isBreakOrNul(this.at(0))) {
          this.skip();
          this.cache(1);
        }
      }
      if (!isBreak(this.at(0))) return;
      this.cache(2);
      this.skipLine();
      if (this.flowLevel === 0) this.simpleKeyAllowed = true;
    }
  }

  private scanDirective(): Token {
    const start = this.mark();
    this.skip();
    const name = this.scanDirectiveName(start);
    let token: Token;
    if (name === 'YAML') {
      const major = this.scanVersionDirectiveNumber(start, true);
      if (this.at(0) !== 0x2e) {
        throw this.error(start, "did not find expected digit or '.' character");
      }
      this.skip();
      const minor = this.scanVersionDirectiveNumber(start, false);
      token = new Token(TokenKind.VersionDirective, start, this.mark(), '', '', ScalarStyle.Plain, major, minor);
    } else if (name === 'TAG') {
      this.cache(1);
      this.skipBlanks();
      const handle = this.scanTagHandle(true, start);
      this.cache(1);
      if (!isBlank(this.at(0))) throw this.error(start, 'did not find expected whitespace');
      this.skipBlanks();
      const prefix = this.scanTagUri(null, start);
      this.cache(1);
      if (!isBlankOrBreakOrNul(this.at(0))) throw this.error(start, 'did not find expected whitespace or line break');
      token = new Token(TokenKind.TagDirective, start, this.mark(), handle, prefix);
    } else {
      throw this.error(start, 'found unknown directive name');
    }
    this.cache(1);
    this.skipBlanks();
    this.skipComment();
    if (!isBreakOrNul(this.at(0))) throw this.error(start, 'did not find expected comment or line break');
    if (isBreak(this.at(0))) {
      this.cache(2);
      this.skipLine();
    }
    return token;
  }

  private skipBlanks(): void {
    while (isBlank(this.at(0))) {
      this.skip();
      this.cache(1);
    }
  }

  private skipComment(): void {
    if (this.at(0) !== HASH) return;
    while (!isBreakOrNul(this.at(0))) {
      this.skip();
      this.cache(1);
    }
  }

  private scanDirectiveName(start: Mark): string {
    this.cache(1);
    const from = this.pos;
    while (isAlpha(this.at(0))) {
      this.skip();
      this.cache(1);
    }
    if (this.pos === from) throw this.error(start, 'could not find expected directive name');
    if (!isBlankOrBreakOrNul(this.at(0))) throw this.error(start, 'found unexpected non-alphabetical character');
    return this.src.slice(from, this.pos);
  }

  private scanVersionDirectiveNumber(start: Mark, major: boolean): number {
    this.cache(1);
    if (major) this.skipBlanks();
    let value = 0;
    let length = 0;
    while (isDigit(this.at(0))) {
      length++;
      if (length > 2) throw this.error(start, 'found extremely long version number');
      value = value * 10 + (this.at(0) - 0x30);
      this.skip();
      this.cache(1);
    }
    if (length === 0) throw this.error(start, 'did not find expected version number');
    return value;
  }

  private scanAnchor(kind: TokenKind): Token {
    const start = this.mark();
    this.skip();
    this.cache(1);
    const from = this.pos;
    while (isAlpha(this.at(0))) {
      this.skip();
      this.cache(1);
    }
    const end = this.mark();
    const c = this.at(0);
    // The name must be followed by a blank or one of `?:,]}%@` and backquote.
    if (this.pos === from || !(isBlankOrBreakOrNul(c) || ANCHOR_TERMINATORS.has(c))) {
      throw this.error(start, 'did not find expected alphabetic or numeric character');
    }
    return new Token(kind, start, end, this.src.slice(from, this.pos));
  }

  private scanTag(): Token {
    const start = this.mark();
    let handle: string;
    let suffix: string;
    this.cache(2);
    if (this.at(1) === 0x3c /* < */) {
      // Verbatim `!<uri>`: no handle.
      handle = '';
      this.skip();
      this.skip();
      suffix = this.scanTagUri(null, start);
      if (this.at(0) !== 0x3e /* > */) throw this.error(start, "did not find the expected '>'");
      this.skip();
    } else {
      handle = this.scanTagHandle(false, start);
      if (handle.length > 1 && handle.endsWith('!')) {
        suffix = this.scanTagUri(null, start);
      } else {
        // Not a handle after all (`!foo`): it is the start of the suffix under handle `!`.
        suffix = this.scanTagUri(handle, start);
        handle = '!';
        // A lone `!` is the non-specific tag: no handle, suffix `!`.
        if (suffix.length === 0) {
          handle = '';
          suffix = '!';
        }
      }
    }
    this.cache(1);
    if (!isBlankOrBreakOrNul(this.at(0))) throw this.error(start, 'did not find expected whitespace or line break');
    return new Token(TokenKind.Tag, start, this.mark(), handle, suffix);
  }

  private scanTagHandle(directive: boolean, start: Mark): string {
    this.cache(1);
    if (this.at(0) !== 0x21) throw this.error(start, "did not find expected '!'");
    const from = this.pos;
    this.skip();
    this.cache(1);
    while (isAlpha(this.at(0))) {
      this.skip();
      this.cache(1);
    }
    if (this.at(0) === 0x21) {
      this.skip();
    } else if (directive && this.pos - from !== 1) {
      // In a %TAG directive the handle must be `!`, `!!` or `!name!`.
      throw this.error(start, "did not find expected '!'");
    }
    return this.src.slice(from, this.pos);
  }

  /** Scans a tag URI; `head` is a handle-like prefix already read, whose `!` is dropped. */
  private scanTagUri(head: string | null, start: Mark): string {
    let s = head !== null && head.length > 1 ? head.slice(1) : '';
    let hasTag = head !== null && head.length > 0;
    this.cache(1);
    for (;;) {
      const c = this.at(0);
      if (!(isAlpha(c) || URI_CHARACTERS.has(c))) break;
      if (c === 0x25 /* % */) {
        s += this.scanUriEscapes(start);
      } else {
        const from = this.pos;
        this.skip();
        s += this.src.slice(from, this.pos);
      }
      this.cache(1);
      hasTag = true;
    }
    if (!hasTag) throw this.error(start, 'did not find expected tag URI');
    return s;
  }

  /** Decodes `%XX` escapes forming one UTF-8 character. */
  private scanUriEscapes(start: Mark): string {
    const bytes: number[] = [];
    let width = -1;
    while (width !== 0) {
      this.cache(3);
      if (!(this.at(0) === 0x25 && isHex(this.at(1)) && isHex(this.at(2)))) {
        throw this.error(start, 'did not find URI escaped octet');
      }
      const octet = (hexValue(this.at(1)) << 4) + hexValue(this.at(2));
      if (width === -1) {
        width = (octet & 0x80) === 0 ? 1 : (octet & 0xe0) === 0xc0 ? 2 : (octet & 0xf0) === 0xe0 ? 3 : (octet & 0xf8) === 0xf0 ? 4 : 0;
        if (width === 0) throw this.error(start, 'found an incorrect leading UTF-8 octet');
      } else if ((octet & 0xc0) !== 0x80) {
        throw this.error(start, 'found an incorrect trailing UTF-8 octet');
      }
      bytes.push(octet);
      this.skip();
      this.skip();
      this.skip();
      width--;
    }
    return decodeUtf8Go(bytes);
  }

  private scanBlockScalar(literal: boolean): Token {
    const start = this.mark();
    this.skip();
    this.cache(1);

    let chomping = 0;
    let increment = 0;
    let c = this.at(0);
    if (c === 0x2b || c === 0x2d) {
      chomping = c === 0x2b ? 1 : -1;
      this.skip();
      this.cache(1);
      if (isDigit(this.at(0))) {
        if (this.at(0) === 0x30) throw this.error(start, 'found an indentation indicator equal to 0');
        increment = this.at(0) - 0x30;
        this.skip();
      }
    } else if (isDigit(c)) {
      if (c === 0x30) throw this.error(start, 'found an indentation indicator equal to 0');
      increment = c - 0x30;
      this.skip();
      this.cache(1);
      c = this.at(0);
      if (c === 0x2b || c === 0x2d) {
        chomping = c === 0x2b ? 1 : -1;
        this.skip();
      }
    }

    this.cache(1);
    this.skipBlanks();
    this.skipComment();
    if (!isBreakOrNul(this.at(0))) throw this.error(start, 'did not find expected comment or line break');
    if (isBreak(this.at(0))) {
      this.cache(2);
      this.skipLine();
    }

    this.blockIndent = increment > 0 ? (this.indent >= 0 ? this.indent + increment : increment) : 0;
    this.blockBreaks = '';
    this.blockEnd = this.mark();
    this.scanBlockScalarBreaks(start);
    let trailingBreaks = this.blockBreaks;
    let s = '';
    let leadingBreak = '';
    let leadingBlank = false;

    this.cache(1);
    while (this.column === this.blockIndent && this.at(0) !== 0) {
      // At the start of a non-empty line of the scalar.
      const trailingBlank = isBlank(this.at(0));
      // A folded scalar joins lines with one space, unless either line is more indented.
      if (!literal && !leadingBlank && !trailingBlank && leadingBreak.length > 0 && leadingBreak.charCodeAt(0) === LF) {
        if (trailingBreaks.length === 0) s += ' ';
      } else {
        s += leadingBreak;
      }
      leadingBreak = '';
      s += trailingBreaks;
      leadingBlank = isBlank(this.at(0));

      const from = this.pos;
      while (!isBreakOrNul(this.at(0))) {
        this.skip();
        this.cache(1);
      }
      s += this.src.slice(from, this.pos);
      this.cache(2);
      leadingBreak = this.readLine();

      this.blockBreaks = '';
      this.scanBlockScalarBreaks(start);
      trailingBreaks = this.blockBreaks;
    }

    if (chomping !== -1) s += leadingBreak;
    if (chomping === 1) s += trailingBreaks;
    return new Token(TokenKind.Scalar, start, this.blockEnd, s, '', literal ? ScalarStyle.Literal : ScalarStyle.Folded);
  }

  /**
   * Consumes indentation and empty lines inside a block scalar, collecting the breaks in
   * `blockBreaks`. When the indentation is not known yet it becomes the deepest indentation
   * seen on the leading empty lines or the first content line, but at least one more than
   * the enclosing block.
   */
  private scanBlockScalarBreaks(start: Mark): void {
    this.blockEnd = this.mark();
    let maxIndent = 0;
    for (;;) {
      this.cache(1);
      while ((this.blockIndent === 0 || this.column < this.blockIndent) && this.at(0) === SPACE) {
        this.skip();
        this.cache(1);
      }
      if (this.column > maxIndent) maxIndent = this.column;
      if ((this.blockIndent === 0 || this.column < this.blockIndent) && this.at(0) === TAB) {
        throw this.error(start, 'found a tab character where an indentation space is expected');
      }
      if (!isBreak(this.at(0))) break;
      this.cache(2);
      this.blockBreaks += this.readLine();
      this.blockEnd = this.mark();
    }
    if (this.blockIndent === 0) {
      this.blockIndent = Math.max(maxIndent, this.indent + 1, 1);
    }
  }

  private scanFlowScalar(single: boolean): Token {
    const start = this.mark();
    this.skip();
    let s = '';
    let leadingBreak = '';
    let trailingBreaks = '';
    let whitespaces = '';
    const quote = single ? 0x27 : 0x22;

    for (;;) {
      this.cache(4);
      if (this.column === 0 && this.atDocumentIndicator()) {
        throw this.error(start, 'found unexpected document indicator');
      }
      if (this.at(0) === 0) throw this.error(start, 'found unexpected end of stream');

      let leadingBlanks = false;
      let runStart = this.pos;
      while (!isBlankOrBreakOrNul(this.at(0))) {
        const c = this.at(0);
        if (single) {
          if (c === 0x27) {
            if (this.at(1) !== 0x27) break;
            // '' is an escaped single quote.
            s += this.src.slice(runStart, this.pos) + "'";
            this.skip();
            this.skip();
            runStart = this.pos;
          } else {
            this.skip();
          }
        } else if (c === 0x22) {
          break;
        } else if (c === 0x5c /* \ */ && isBreak(this.at(1))) {
          // An escaped line break: the lines join without a space.
          s += this.src.slice(runStart, this.pos);
          this.cache(3);
          this.skip();
          this.skipLine();
          leadingBlanks = true;
          runStart = this.pos;
          break;
        } else if (c === 0x5c) {
          s += this.src.slice(runStart, this.pos) + this.scanEscape(start);
          runStart = this.pos;
        } else {
          this.skip();
        }
        this.cache(2);
      }
      s += this.src.slice(runStart, this.pos);

      this.cache(1);
      if (this.at(0) === quote) break;

      for (;;) {
        const c = this.at(0);
        if (isBlank(c)) {
          if (!leadingBlanks) whitespaces += c === TAB ? '\t' : ' ';
          this.skip();
        } else if (isBreak(c)) {
          this.cache(2);
          if (!leadingBlanks) {
            whitespaces = '';
            leadingBreak = this.readLine();
            leadingBlanks = true;
          } else {
            trailingBreaks += this.readLine();
          }
        } else {
          break;
        }
        this.cache(1);
      }

      if (leadingBlanks) {
        // A single line break folds to a space; more breaks are kept minus the first.
        if (leadingBreak.length > 0 && leadingBreak.charCodeAt(0) === LF) {
          s += trailingBreaks.length === 0 ? ' ' : trailingBreaks;
        } else {
          s += leadingBreak + trailingBreaks;
        }
        trailingBreaks = '';
        leadingBreak = '';
      } else {
        s += whitespaces;
        whitespaces = '';
      }
    }

    this.skip();
    return new Token(
      TokenKind.Scalar,
      start,
      this.mark(),
      s,
      '',
      single ? ScalarStyle.SingleQuoted : ScalarStyle.DoubleQuoted,
    );
  }

  /** Decodes one backslash escape of a double-quoted scalar, consuming it. */
  private scanEscape(start: Mark): string {
    let text = '';
    let codeLength = 0;
    switch (this.at(1)) {
      case 0x30 /* 0 */:
        text = '\0';
        break;
      case 0x61 /* a */:
        text = '\x07';
        break;
      case 0x62 /* b */:
        text = '\b';
        break;
      case 0x74 /* t */:
      case TAB:
        text = '\t';
        break;
      case 0x6e /* n */:
        text = '\n';
        break;
      case 0x76 /* v */:
        text = '\v';
        break;
      case 0x66 /* f */:
        text = '\f';
        break;
      case 0x72 /* r */:
        text = '\r';
        break;
      case 0x65 /* e */:
        text = '\x1b';
        break;
      case SPACE:
        text = ' ';
        break;
      case 0x22:
        text = '"';
        break;
      case 0x27:
        text = "'";
        break;
      case 0x5c:
        text = '\\';
        break;
      case 0x4e /* N */:
        text = '\x85';
        break;
      case 0x5f /* _ */:
        text = '\xa0';
        break;
      case 0x4c /* L */:
        text = '\u2028';
        break;
      case 0x50 /* P */:
        text = '\u2029';
        break;
      case 0x78 /* x */:
        codeLength = 2;
        break;
      case 0x75 /* u */:
        codeLength = 4;
        break;
      case 0x55 /* U */:
        codeLength = 8;
        break;
      default:
        throw this.error(start, 'found unknown escape character');
    }
    this.skip();
    this.skip();
    if (codeLength > 0) {
      this.cache(codeLength);
      let value = 0;
      for (let k = 0; k < codeLength; k++) {
        const c = this.at(k);
        if (!isHex(c)) throw this.error(start, 'did not find expected hexdecimal number');
        value = value * 16 + hexValue(c);
      }
      if ((value >= 0xd800 && value <= 0xdfff) || value > 0x10ffff) {
        throw this.error(start, 'found invalid Unicode character escape code');
      }
      text = String.fromCodePoint(value);
      for (let k = 0; k < codeLength; k++) this.skip();
    }
    return text;
  }

  private atDocumentIndicator(): boolean {
    const c = this.at(0);
    return (
      (c === 0x2d || c === 0x2e) && this.at(1) === c && this.at(2) === c && isBlankOrBreakOrNul(this.at(3))
    );
  }

  private scanPlainScalar(): Token {
    let s = '';
    let leadingBreak = '';
    let trailingBreaks = '';
    let whitespaces = '';
    let leadingBlanks = false;
    const indent = this.indent + 1;
    const start = this.mark();
    let endIndex = this.index;
    let endLine = this.line;
    let endColumn = this.column;
    const flow = this.flowLevel > 0;

    for (;;) {
      this.cache(4);
      if (this.column === 0 && this.atDocumentIndicator()) break;
      if (this.at(0) === HASH) break;

      let runStart = -1;
      while (!isBlankOrBreakOrNul(this.at(0))) {
        const c = this.at(0);
        // `: ` ends a plain scalar everywhere; flow indicators end it in the flow context.
        if (c === 0x3a && isBlankOrBreakOrNul(this.at(1))) break;
        if (flow && (c === 0x2c || c === 0x3f || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d)) break;

        if (runStart < 0) {
          if (leadingBlanks) {
            if (leadingBreak.charCodeAt(0) === LF) {
              s += trailingBreaks.length === 0 ? ' ' : trailingBreaks;
            } else {
              s += leadingBreak + trailingBreaks;
            }
            trailingBreaks = '';
            leadingBreak = '';
            leadingBlanks = false;
          } else if (whitespaces.length > 0) {
            s += whitespaces;
            whitespaces = '';
          }
          runStart = this.pos;
        }
        this.skip();
        endIndex = this.index;
        endLine = this.line;
        endColumn = this.column;
        this.cache(2);
      }
      if (runStart >= 0) s += this.src.slice(runStart, this.pos);

      const c0 = this.at(0);
      if (!(isBlank(c0) || isBreak(c0))) break;

      this.cache(1);
      for (;;) {
        const c = this.at(0);
        if (isBlank(c)) {
          if (leadingBlanks && this.column < indent && c === TAB) {
            throw this.error(start, 'found a tab character that violates indentation');
          }
          if (!leadingBlanks) whitespaces += c === TAB ? '\t' : ' ';
          this.skip();
        } else if (isBreak(c)) {
          this.cache(2);
          if (!leadingBlanks) {
            whitespaces = '';
            leadingBreak = this.readLine();
            leadingBlanks = true;
          } else {
            trailingBreaks += this.readLine();
          }
        } else {
          break;
        }
        this.cache(1);
      }

      if (!flow && this.column < indent) break;
    }

    // A plain scalar that ran over a line break leaves the scanner at the start of a line,
    // where a simple key may begin.
    if (leadingBlanks) this.simpleKeyAllowed = true;
    return new Token(TokenKind.Scalar, start, new Mark(endIndex, endLine, endColumn), s, '', ScalarStyle.Plain);
  }
}

/** Characters that cannot start a plain scalar (besides blanks and breaks). */
const PLAIN_START_EXCLUDED = new Set([..."-?:,[]{}#&*!|>'\"%@`"].map((ch) => ch.charCodeAt(0)));

/** Characters that may follow an anchor or alias name. */
const ANCHOR_TERMINATORS = new Set([...'?:,]}%@`'].map((ch) => ch.charCodeAt(0)));

/** Characters allowed in a tag URI besides `is_alpha` ones. */
const URI_CHARACTERS = new Set([...";/?:@&=+$,.!~*'()[]%"].map((ch) => ch.charCodeAt(0)));
