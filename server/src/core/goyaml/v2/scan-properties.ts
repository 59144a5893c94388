/**
 * Scanning of node properties and directives for the go-yaml v2 scanner: anchors and aliases
 * (`&name`, `*name`), tags (`!`, `!suffix`, `!!suffix`, `!handle!suffix`, `!<verbatim>`)
 * and the `%YAML` and `%TAG` directives, with libyaml's error texts.
 */

import { decodeUtf8Go } from './go-utf8';
import { hexValue, isAlpha, isBlank, isBlankOrBreakOrNul, isDigit, isHex } from './reader';
import { ScalarScanner } from './scan-scalars';
import { type Mark, ScalarStyle, Token, TokenKind } from './tokens';

export class PropertyScanner extends ScalarScanner {
  protected scanDirective(): Token {
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
    this.skipToLineEnd(start);
    return token;
  }

  private scanDirectiveName(start: Mark): string {
    this.cache(1);
    const from = this.pos;
    this.skipWhile(isAlpha);
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

  protected scanAnchor(kind: TokenKind): Token {
    const start = this.mark();
    this.skip();
    this.cache(1);
    const from = this.pos;
    this.skipWhile(isAlpha);
    const end = this.mark();
    const c = this.at(0);
    // The name must be followed by a blank or one of `?:,]}%@` and backquote.
    if (this.pos === from || !(isBlankOrBreakOrNul(c) || ANCHOR_TERMINATORS.has(c))) {
      throw this.error(start, 'did not find expected alphabetic or numeric character');
    }
    return new Token(kind, start, end, this.src.slice(from, this.pos));
  }

  protected scanTag(): Token {
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
    this.skipWhile(isAlpha);
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
}

/** Characters that may follow an anchor or alias name. */
const ANCHOR_TERMINATORS = new Set([...'?:,]}%@`'].map((ch) => ch.charCodeAt(0)));

/** Characters allowed in a tag URI besides `is_alpha` ones. */
const URI_CHARACTERS = new Set([...";/?:@&=+$,.!~*'()[]%"].map((ch) => ch.charCodeAt(0)));
