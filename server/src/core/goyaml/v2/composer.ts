/**
 * Events to a node tree, as go-yaml v2's `parser` type in decode.go builds it.
 *
 * Only the first document is read, like `yaml.Unmarshal`: after that document's end event
 * nothing more is parsed, so later documents can hold anything except characters the
 * reader rejects in the same 512-byte chunk (see reader.ts).
 *
 * Anchors are registered when their node starts, before its children are read, so an alias
 * inside an anchored collection can refer to the collection itself; the decoder rejects
 * that later ("anchor 'x' value contains itself"). An alias to a name not yet defined fails
 * here, in event order, before any syntax error further down the document.
 */

import { decodeError, YamlV2Error } from './errors';
import { EventKind, type ParseEvent, Parser } from './parser';

export enum NodeKind {
  Document,
  Mapping,
  Sequence,
  Scalar,
  Alias,
}

export class YamlNode {
  /** Children of a document or sequence; keys and values alternating for a mapping. */
  readonly children: YamlNode[] = [];
  tag = '';
  value = '';
  implicit = false;
  /** The anchored node an alias refers to. */
  alias: YamlNode | null = null;

  constructor(readonly kind: NodeKind) {}
}

const EVENT_NAMES: Record<EventKind, string> = {
  [EventKind.StreamStart]: 'stream start',
  [EventKind.StreamEnd]: 'stream end',
  [EventKind.DocumentStart]: 'document start',
  [EventKind.DocumentEnd]: 'document end',
  [EventKind.Alias]: 'alias',
  [EventKind.Scalar]: 'scalar',
  [EventKind.SequenceStart]: 'sequence start',
  [EventKind.SequenceEnd]: 'sequence end',
  [EventKind.MappingStart]: 'mapping start',
  [EventKind.MappingEnd]: 'mapping end',
};

export class Composer {
  private readonly parser: Parser;
  private event: ParseEvent | null = null;
  private anchors = new Map<string, YamlNode>();

  constructor(text: string) {
    this.parser = new Parser(text);
  }

  /** Reads the first document; null when the stream has none (empty or comments only). */
  composeFirstDocument(): YamlNode | null {
    this.expect(EventKind.StreamStart);
    if (this.peek().kind === EventKind.StreamEnd) return null;
    return this.document();
  }

  private peek(): ParseEvent {
    if (this.event === null) {
      const event = this.parser.next();
      if (event === null) throw new YamlV2Error('yaml: attempted to go past the end of stream; corrupted value?');
      this.event = event;
    }
    return this.event;
  }

  private expect(kind: EventKind): ParseEvent {
    const event = this.peek();
    if (event.kind === EventKind.StreamEnd && kind !== EventKind.StreamEnd) {
      throw decodeError('attempted to go past the end of stream; corrupted value?');
    }
    if (event.kind !== kind) {
      throw decodeError(`expected ${EVENT_NAMES[kind]} event but got ${EVENT_NAMES[event.kind]}`);
    }
    this.event = null;
    return event;
  }

  /**
   * Reads one node with everything under it. Nesting is handled with an explicit stack:
   * go-yaml accepts 10000 levels, more than the JS call stack allows for recursion.
   */
  private parse(): YamlNode {
    const open: YamlNode[] = [];
    const ends: EventKind[] = [];
    for (;;) {
      const event = this.peek();
      let done: YamlNode;
      if (open.length > 0 && event.kind === ends[ends.length - 1]) {
        this.expect(event.kind);
        ends.pop();
        done = open.pop()!;
      } else {
        switch (event.kind) {
          case EventKind.Scalar:
            done = this.scalar(event);
            break;
          case EventKind.Alias:
            done = this.alias(event);
            break;
          case EventKind.MappingStart:
          case EventKind.SequenceStart: {
            const node = new YamlNode(event.kind === EventKind.MappingStart ? NodeKind.Mapping : NodeKind.Sequence);
            if (event.anchor !== null) this.anchors.set(event.anchor, node);
            this.expect(event.kind);
            open.push(node);
            ends.push(event.kind === EventKind.MappingStart ? EventKind.MappingEnd : EventKind.SequenceEnd);
            continue;
          }
          default:
            throw decodeError(`attempted to parse unknown event: ${EVENT_NAMES[event.kind]}`);
        }
      }
      if (open.length === 0) return done;
      open[open.length - 1]!.children.push(done);
    }
  }

  private document(): YamlNode {
    const node = new YamlNode(NodeKind.Document);
    this.anchors = new Map();
    this.expect(EventKind.DocumentStart);
    node.children.push(this.parse());
    this.expect(EventKind.DocumentEnd);
    return node;
  }

  private alias(event: ParseEvent): YamlNode {
    const node = new YamlNode(NodeKind.Alias);
    node.value = event.anchor ?? '';
    node.alias = this.anchors.get(node.value) ?? null;
    if (node.alias === null) throw decodeError(`unknown anchor '${node.value}' referenced`);
    this.expect(EventKind.Alias);
    return node;
  }

  private scalar(event: ParseEvent): YamlNode {
    const node = new YamlNode(NodeKind.Scalar);
    node.value = event.value;
    node.tag = event.tag;
    node.implicit = event.implicit;
    if (event.anchor !== null) this.anchors.set(event.anchor, node);
    this.expect(EventKind.Scalar);
    return node;
  }
}
