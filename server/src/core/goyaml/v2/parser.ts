/**
 * The YAML parser of go-yaml v2 (its port of libyaml's parser.c): tokens to events.
 *
 * A push-down automaton: `state` says what comes next and `states` holds where to return
 * after a nested node; `marks` remembers where each open collection started, because that
 * position is the error's context mark (and so, for errors on the first line, decides
 * whether a line number is printed at all).
 */

import { SyntaxStage, syntaxError, YamlV2Error } from './errors';
import { Scanner } from './scanner';
import { type Mark, ScalarStyle, type Token, TokenKind } from './tokens';

export enum EventKind {
  StreamStart,
  StreamEnd,
  DocumentStart,
  DocumentEnd,
  Alias,
  Scalar,
  SequenceStart,
  SequenceEnd,
  MappingStart,
  MappingEnd,
}

export class ParseEvent {
  constructor(
    readonly kind: EventKind,
    readonly start: Mark,
    readonly end: Mark,
    /** Anchor of a node, or the name an alias refers to; null when absent. */
    readonly anchor: string | null = null,
    /** Resolved tag ('' when none). */
    readonly tag = '',
    readonly value = '',
    /** For scalars: plain without a tag, or tagged `!`; for collections: untagged. */
    readonly implicit = false,
    readonly style = ScalarStyle.Plain,
  ) {}
}

enum State {
  StreamStart,
  ImplicitDocumentStart,
  DocumentStart,
  DocumentContent,
  DocumentEnd,
  BlockNode,
  BlockNodeOrIndentlessSequence,
  FlowNode,
  BlockSequenceFirstEntry,
  BlockSequenceEntry,
  IndentlessSequenceEntry,
  BlockMappingFirstKey,
  BlockMappingKey,
  BlockMappingValue,
  FlowSequenceFirstEntry,
  FlowSequenceEntry,
  FlowSequenceEntryMappingKey,
  FlowSequenceEntryMappingValue,
  FlowSequenceEntryMappingEnd,
  FlowMappingFirstKey,
  FlowMappingKey,
  FlowMappingValue,
  FlowMappingEmptyValue,
  End,
}

interface TagDirective {
  handle: string;
  prefix: string;
}

const DEFAULT_TAG_DIRECTIVES: readonly TagDirective[] = [
  { handle: '!', prefix: '!' },
  { handle: '!!', prefix: 'tag:yaml.org,2002:' },
];

export class Parser {
  private readonly scanner: Scanner;
  private state = State.StreamStart;
  private readonly states: State[] = [];
  private readonly marks: Mark[] = [];
  private tagDirectives: TagDirective[] = [];

  constructor(text: string) {
    this.scanner = new Scanner(text);
  }

  /** The next event, or null after the end of the stream. */
  next(): ParseEvent | null {
    if (this.state === State.End) return null;
    return this.dispatch();
  }

  private peek(): Token {
    return this.scanner.peek();
  }

  private skip(): void {
    this.scanner.skipToken();
  }

  private error(problem: string, problemMark: Mark, contextMark: Mark | null = null): YamlV2Error {
    return syntaxError(SyntaxStage.Parser, problem, problemMark, contextMark);
  }

  private popState(): void {
    this.state = this.states.pop()!;
  }

  private dispatch(): ParseEvent {
    switch (this.state) {
      case State.StreamStart:
        return this.parseStreamStart();
      case State.ImplicitDocumentStart:
        return this.parseDocumentStart(true);
      case State.DocumentStart:
        return this.parseDocumentStart(false);
      case State.DocumentContent:
        return this.parseDocumentContent();
      case State.DocumentEnd:
        return this.parseDocumentEnd();
      case State.BlockNode:
        return this.parseNode(true, false);
      case State.BlockNodeOrIndentlessSequence:
        return this.parseNode(true, true);
      case State.FlowNode:
        return this.parseNode(false, false);
      case State.BlockSequenceFirstEntry:
        return this.parseBlockSequenceEntry(true);
      case State.BlockSequenceEntry:
        return this.parseBlockSequenceEntry(false);
      case State.IndentlessSequenceEntry:
        return this.parseIndentlessSequenceEntry();
      case State.BlockMappingFirstKey:
        return this.parseBlockMappingKey(true);
      case State.BlockMappingKey:
        return this.parseBlockMappingKey(false);
      case State.BlockMappingValue:
        return this.parseBlockMappingValue();
      case State.FlowSequenceFirstEntry:
        return this.parseFlowSequenceEntry(true);
      case State.FlowSequenceEntry:
        return this.parseFlowSequenceEntry(false);
      case State.FlowSequenceEntryMappingKey:
        return this.parseFlowSequenceEntryMappingKey();
      case State.FlowSequenceEntryMappingValue:
        return this.parseFlowSequenceEntryMappingValue();
      case State.FlowSequenceEntryMappingEnd:
        return this.parseFlowSequenceEntryMappingEnd();
      case State.FlowMappingFirstKey:
        return this.parseFlowMappingKey(true);
      case State.FlowMappingKey:
        return this.parseFlowMappingKey(false);
      case State.FlowMappingValue:
        return this.parseFlowMappingValue(false);
      case State.FlowMappingEmptyValue:
        return this.parseFlowMappingValue(true);
      case State.End:
        throw new Error('parser used after the end of the stream');
    }
  }

  private parseStreamStart(): ParseEvent {
    const token = this.peek();
    if (token.kind !== TokenKind.StreamStart) throw this.error('did not find expected <stream-start>', token.start);
    this.state = State.ImplicitDocumentStart;
    this.skip();
    return new ParseEvent(EventKind.StreamStart, token.start, token.end);
  }

  private parseDocumentStart(implicit: boolean): ParseEvent {
    let token = this.peek();
    if (!implicit) {
      while (token.kind === TokenKind.DocumentEnd) {
        this.skip();
        token = this.peek();
      }
    }
    if (
      implicit &&
      token.kind !== TokenKind.VersionDirective &&
      token.kind !== TokenKind.TagDirective &&
      token.kind !== TokenKind.DocumentStart &&
      token.kind !== TokenKind.StreamEnd
    ) {
      // A document without `---`.
      this.processDirectives();
      this.states.push(State.DocumentEnd);
      this.state = State.BlockNode;
      return new ParseEvent(EventKind.DocumentStart, token.start, token.end);
    }
    if (token.kind !== TokenKind.StreamEnd) {
      const start = token.start;
      this.processDirectives();
      token = this.peek();
      if (token.kind !== TokenKind.DocumentStart) throw this.error('did not find expected <document start>', token.start);
      this.states.push(State.DocumentEnd);
      this.state = State.DocumentContent;
      const end = token.end;
      this.skip();
      return new ParseEvent(EventKind.DocumentStart, start, end);
    }
    this.state = State.End;
    this.skip();
    return new ParseEvent(EventKind.StreamEnd, token.start, token.end);
  }

  private parseDocumentContent(): ParseEvent {
    const token = this.peek();
    if (
      token.kind === TokenKind.VersionDirective ||
      token.kind === TokenKind.TagDirective ||
      token.kind === TokenKind.DocumentStart ||
      token.kind === TokenKind.DocumentEnd ||
      token.kind === TokenKind.StreamEnd
    ) {
      this.popState();
      return emptyScalar(token.start);
    }
    return this.parseNode(true, false);
  }

  private parseDocumentEnd(): ParseEvent {
    const token = this.peek();
    const start = token.start;
    let end = token.start;
    if (token.kind === TokenKind.DocumentEnd) {
      end = token.end;
      this.skip();
    }
    this.tagDirectives = [];
    this.state = State.DocumentStart;
    return new ParseEvent(EventKind.DocumentEnd, start, end);
  }

  private processDirectives(): void {
    let token = this.peek();
    let sawVersion = false;
    while (token.kind === TokenKind.VersionDirective || token.kind === TokenKind.TagDirective) {
      if (token.kind === TokenKind.VersionDirective) {
        if (sawVersion) throw this.error('found duplicate %YAML directive', token.start);
        if (token.major !== 1 || token.minor !== 1) throw this.error('found incompatible YAML document', token.start);
        sawVersion = true;
      } else {
        this.appendTagDirective({ handle: token.value, prefix: token.suffix }, false, token.start);
      }
      this.skip();
      token = this.peek();
    }
    for (const directive of DEFAULT_TAG_DIRECTIVES) this.appendTagDirective(directive, true, token.start);
  }

  private appendTagDirective(directive: TagDirective, allowDuplicates: boolean, mark: Mark): void {
    for (const existing of this.tagDirectives) {
      if (existing.handle === directive.handle) {
        if (allowDuplicates) return;
        throw this.error('found duplicate %TAG directive', mark);
      }
    }
    this.tagDirectives.push({ handle: directive.handle, prefix: directive.prefix });
  }

  private parseNode(block: boolean, indentlessSequence: boolean): ParseEvent {
    let token = this.peek();
    if (token.kind === TokenKind.Alias) {
      this.popState();
      this.skip();
      return new ParseEvent(EventKind.Alias, token.start, token.end, token.value);
    }

    let start = token.start;
    let end = token.start;
    let hasTag = false;
    let tagHandle = '';
    let tagSuffix = '';
    let tagMark: Mark = token.start;
    let anchor: string | null = null;

    if (token.kind === TokenKind.Anchor) {
      anchor = token.value;
      start = token.start;
      end = token.end;
      this.skip();
      token = this.peek();
      if (token.kind === TokenKind.Tag) {
        hasTag = true;
        tagHandle = token.value;
        tagSuffix = token.suffix;
        tagMark = token.start;
        end = token.end;
        this.skip();
        token = this.peek();
      }
    } else if (token.kind === TokenKind.Tag) {
      hasTag = true;
      tagHandle = token.value;
      tagSuffix = token.suffix;
      start = token.start;
      tagMark = token.start;
      end = token.end;
      this.skip();
      token = this.peek();
      if (token.kind === TokenKind.Anchor) {
        anchor = token.value;
        end = token.end;
        this.skip();
        token = this.peek();
      }
    }

    let tag = '';
    if (hasTag) {
      if (tagHandle === '') {
        tag = tagSuffix;
      } else {
        for (const directive of this.tagDirectives) {
          if (directive.handle === tagHandle) {
            tag = directive.prefix + tagSuffix;
            break;
          }
        }
        if (tag === '') throw this.error('found undefined tag handle', tagMark, start);
      }
    }

    const implicit = tag === '';
    if (indentlessSequence && token.kind === TokenKind.BlockEntry) {
      this.state = State.IndentlessSequenceEntry;
      return new ParseEvent(EventKind.SequenceStart, start, token.end, anchor, tag, '', implicit);
    }
    if (token.kind === TokenKind.Scalar) {
      // Plain scalars without a tag, and scalars tagged `!`, get their type from their text.
      const plainImplicit = (tag === '' && token.style === ScalarStyle.Plain) || tag === '!';
      this.popState();
      this.skip();
      return new ParseEvent(EventKind.Scalar, start, token.end, anchor, tag, token.value, plainImplicit, token.style);
    }
    if (token.kind === TokenKind.FlowSequenceStart) {
      this.state = State.FlowSequenceFirstEntry;
      return new ParseEvent(EventKind.SequenceStart, start, token.end, anchor, tag, '', implicit);
    }
    if (token.kind === TokenKind.FlowMappingStart) {
      this.state = State.FlowMappingFirstKey;
      return new ParseEvent(EventKind.MappingStart, start, token.end, anchor, tag, '', implicit);
    }
    if (block && token.kind === TokenKind.BlockSequenceStart) {
      this.state = State.BlockSequenceFirstEntry;
      return new ParseEvent(EventKind.SequenceStart, start, token.end, anchor, tag, '', implicit);
    }
    if (block && token.kind === TokenKind.BlockMappingStart) {
      this.state = State.BlockMappingFirstKey;
      return new ParseEvent(EventKind.MappingStart, start, token.end, anchor, tag, '', implicit);
    }
    if (anchor !== null || tag !== '') {
      // Properties without content: an empty scalar.
      this.popState();
      return new ParseEvent(EventKind.Scalar, start, end, anchor, tag, '', implicit);
    }
    throw this.error(
      'did not find expected node content',
      token.start,
      start,
    );
  }

  private parseBlockSequenceEntry(first: boolean): ParseEvent {
    if (first) {
      this.marks.push(this.peek().start);
      this.skip();
    }
    let token = this.peek();
    if (token.kind === TokenKind.BlockEntry) {
      const mark = token.end;
      this.skip();
      token = this.peek();
      if (token.kind !== TokenKind.BlockEntry && token.kind !== TokenKind.BlockEnd) {
        this.states.push(State.BlockSequenceEntry);
        return this.parseNode(true, false);
      }
      this.state = State.BlockSequenceEntry;
      return emptyScalar(mark);
    }
    if (token.kind === TokenKind.BlockEnd) {
      this.popState();
      this.marks.pop();
      this.skip();
      return new ParseEvent(EventKind.SequenceEnd, token.start, token.end);
    }
    const context = this.marks.pop()!;
    throw this.error("did not find expected '-' indicator", token.start, context);
  }

  private parseIndentlessSequenceEntry(): ParseEvent {
    let token = this.peek();
    if (token.kind === TokenKind.BlockEntry) {
      const mark = token.end;
      this.skip();
      token = this.peek();
      if (
        token.kind !== TokenKind.BlockEntry &&
        token.kind !== TokenKind.Key &&
        token.kind !== TokenKind.Value &&
        token.kind !== TokenKind.BlockEnd
      ) {
        this.states.push(State.IndentlessSequenceEntry);
        return this.parseNode(true, false);
      }
      this.state = State.IndentlessSequenceEntry;
      return emptyScalar(mark);
    }
    this.popState();
    return new ParseEvent(EventKind.SequenceEnd, token.start, token.start);
  }

  private parseBlockMappingKey(first: boolean): ParseEvent {
    if (first) {
      this.marks.push(this.peek().start);
      this.skip();
    }
    let token = this.peek();
    if (token.kind === TokenKind.Key) {
      const mark = token.end;
      this.skip();
      token = this.peek();
      if (token.kind !== TokenKind.Key && token.kind !== TokenKind.Value && token.kind !== TokenKind.BlockEnd) {
        this.states.push(State.BlockMappingValue);
        return this.parseNode(true, true);
      }
      this.state = State.BlockMappingValue;
      return emptyScalar(mark);
    }
    if (token.kind === TokenKind.BlockEnd) {
      this.popState();
      this.marks.pop();
      this.skip();
      return new ParseEvent(EventKind.MappingEnd, token.start, token.end);
    }
    const context = this.marks.pop()!;
    throw this.error('did not find expected key', token.start, context);
  }

  private parseBlockMappingValue(): ParseEvent {
    let token = this.peek();
    if (token.kind === TokenKind.Value) {
      const mark = token.end;
      this.skip();
      token = this.peek();
      if (token.kind !== TokenKind.Key && token.kind !== TokenKind.Value && token.kind !== TokenKind.BlockEnd) {
        this.states.push(State.BlockMappingKey);
        return this.parseNode(true, true);
      }
      this.state = State.BlockMappingKey;
      return emptyScalar(mark);
    }
    this.state = State.BlockMappingKey;
    return emptyScalar(token.start);
  }

  private parseFlowSequenceEntry(first: boolean): ParseEvent {
    if (first) {
      this.marks.push(this.peek().start);
      this.skip();
    }
    let token = this.peek();
    if (token.kind !== TokenKind.FlowSequenceEnd) {
      if (!first) {
        if (token.kind !== TokenKind.FlowEntry) {
          const context = this.marks.pop()!;
          throw this.error("did not find expected ',' or ']'", token.start, context);
        }
        this.skip();
        token = this.peek();
      }
      if (token.kind === TokenKind.Key) {
        // `[a: b]`: a single-pair mapping inside the sequence.
        this.state = State.FlowSequenceEntryMappingKey;
        this.skip();
        return new ParseEvent(EventKind.MappingStart, token.start, token.end, null, '', '', true);
      }
      if (token.kind !== TokenKind.FlowSequenceEnd) {
        this.states.push(State.FlowSequenceEntry);
        return this.parseNode(false, false);
      }
    }
    this.popState();
    this.marks.pop();
    this.skip();
    return new ParseEvent(EventKind.SequenceEnd, token.start, token.end);
  }

  private parseFlowSequenceEntryMappingKey(): ParseEvent {
    const token = this.peek();
    if (
      token.kind !== TokenKind.Value &&
      token.kind !== TokenKind.FlowEntry &&
      token.kind !== TokenKind.FlowSequenceEnd
    ) {
      this.states.push(State.FlowSequenceEntryMappingValue);
      return this.parseNode(false, false);
    }
    const mark = token.end;
    this.skip();
    this.state = State.FlowSequenceEntryMappingValue;
    return emptyScalar(mark);
  }

  private parseFlowSequenceEntryMappingValue(): ParseEvent {
    let token = this.peek();
    if (token.kind === TokenKind.Value) {
      this.skip();
      token = this.peek();
      if (token.kind !== TokenKind.FlowEntry && token.kind !== TokenKind.FlowSequenceEnd) {
        this.states.push(State.FlowSequenceEntryMappingEnd);
        return this.parseNode(false, false);
      }
    }
    this.state = State.FlowSequenceEntryMappingEnd;
    return emptyScalar(token.start);
  }

  private parseFlowSequenceEntryMappingEnd(): ParseEvent {
    const token = this.peek();
    this.state = State.FlowSequenceEntry;
    return new ParseEvent(EventKind.MappingEnd, token.start, token.start);
  }

  private parseFlowMappingKey(first: boolean): ParseEvent {
    if (first) {
      this.marks.push(this.peek().start);
      this.skip();
    }
    let token = this.peek();
    if (token.kind !== TokenKind.FlowMappingEnd) {
      if (!first) {
        if (token.kind !== TokenKind.FlowEntry) {
          const context = this.marks.pop()!;
          throw this.error("did not find expected ',' or '}'", token.start, context);
        }
        this.skip();
        token = this.peek();
      }
      if (token.kind === TokenKind.Key) {
        this.skip();
        token = this.peek();
        if (
          token.kind !== TokenKind.Value &&
          token.kind !== TokenKind.FlowEntry &&
          token.kind !== TokenKind.FlowMappingEnd
        ) {
          this.states.push(State.FlowMappingValue);
          return this.parseNode(false, false);
        }
        this.state = State.FlowMappingValue;
        return emptyScalar(token.start);
      }
      if (token.kind !== TokenKind.FlowMappingEnd) {
        // A key without `:` (`{a, b}`): its value is empty.
        this.states.push(State.FlowMappingEmptyValue);
        return this.parseNode(false, false);
      }
    }
    this.popState();
    this.marks.pop();
    this.skip();
    return new ParseEvent(EventKind.MappingEnd, token.start, token.end);
  }

  private parseFlowMappingValue(empty: boolean): ParseEvent {
    let token = this.peek();
    if (empty) {
      this.state = State.FlowMappingKey;
      return emptyScalar(token.start);
    }
    if (token.kind === TokenKind.Value) {
      this.skip();
      token = this.peek();
      if (token.kind !== TokenKind.FlowEntry && token.kind !== TokenKind.FlowMappingEnd) {
        this.states.push(State.FlowMappingKey);
        return this.parseNode(false, false);
      }
    }
    this.state = State.FlowMappingKey;
    return emptyScalar(token.start);
  }
}

function emptyScalar(mark: Mark): ParseEvent {
  return new ParseEvent(EventKind.Scalar, mark, mark, null, '', '', true);
}

/**
 * The number of scalars (keys and values) when go-yaml's parser reads every document of
 * `text`, or undefined at its first syntax error. Events only: no node or value is built,
 * which makes it several times cheaper than a full parse with positions.
 */
export function goYamlScalarCount(text: string): number | undefined {
  const parser = new Parser(text.length === 0 ? '\n' : text);
  let scalars = 0;
  try {
    for (let event = parser.next(); event !== null && event.kind !== EventKind.StreamEnd; event = parser.next()) {
      if (event.kind === EventKind.Scalar) scalars++;
    }
  } catch (error) {
    if (error instanceof YamlV2Error) return undefined;
    throw error;
  }
  return scalars;
}
