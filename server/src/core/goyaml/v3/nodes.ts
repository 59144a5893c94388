/**
 * The manifest as go-yaml v3 holds it after parsing: a tree of nodes with go-yaml's tags,
 * styles and anchors. The npm `yaml` package does the parsing (with the failsafe schema, so
 * every scalar stays text and no tag is interpreted); this file only rebuilds go-yaml's view
 * of each node, chiefly the tag its parser assigns (`p.node()` in go-yaml's decode.go).
 */
import { isAlias, isMap, isScalar, isSeq, LineCounter, parseAllDocuments, Scalar, type Node } from 'yaml';
import { MERGE_TAG, resolveV3, STR_TAG } from './resolve';

export type ScalarStyle = 'plain' | 'single' | 'double' | 'literal' | 'folded';

interface NodeBase {
  /** go-yaml's Node.Tag: the explicit tag in short form, else the tag its parser inferred. */
  tag: string;
  /** True when the tag was written in the source (go-yaml's TaggedStyle). */
  tagged: boolean;
  anchor?: string;
  /** 1-based source line, for go-yaml's "line N" messages. */
  line: number;
}

export interface ScalarNode extends NodeBase {
  kind: 'scalar';
  style: ScalarStyle;
  value: string;
}

export interface MappingNode extends NodeBase {
  kind: 'mapping';
  entries: MappingEntry[];
}

export interface MappingEntry {
  key: SourceNode;
  value: SourceNode;
}

export interface SequenceNode extends NodeBase {
  kind: 'sequence';
  items: SourceNode[];
}

/** An alias, already pointing at the node its anchor named when the alias was read. */
export interface AliasNode {
  kind: 'alias';
  name: string;
  target: SourceNode;
  line: number;
}

export type SourceNode = ScalarNode | MappingNode | SequenceNode | AliasNode;

export type ParseResult = { ok: true; root: SourceNode | undefined } | { ok: false; error: string };

const LONG_TAG_PREFIX = 'tag:yaml.org,2002:';

/**
 * Parses the first document of `source`. A later document, if any, is ignored: callers pass
 * one manifest at a time, as kustomize hands the controller one resource at a time.
 *
 * The npm parser's own errors are not reported: whether go-yaml accepts the text is decided
 * beforehand by our go-yaml decoder (read-resource.ts). Where npm is stricter than go-yaml,
 * its recovered tree is the best reading we have of what go-yaml accepted.
 */
export function parseSourceNodes(source: string): ParseResult {
  const lineCounter = new LineCounter();
  const documents = parseAllDocuments(source, {
    schema: 'failsafe',
    resolveKnownTags: false,
    uniqueKeys: false,
    lineCounter,
    prettyErrors: false,
  });
  const list = Array.isArray(documents) ? documents : [];
  const first = list[0];
  if (!first) return { ok: true, root: undefined };
  const builder = new NodeBuilder(lineCounter);
  try {
    return { ok: true, root: first.contents ? builder.build(first.contents) : undefined };
  } catch (e) {
    if (e instanceof UnknownAnchorError) return { ok: false, error: e.message };
    throw e;
  }
}

class UnknownAnchorError extends Error {}

class NodeBuilder {
  /** Anchors seen so far, in document order: an alias refers to the latest definition. */
  private readonly anchors = new Map<string, SourceNode>();

  constructor(private readonly lineCounter: LineCounter) {}

  build(node: Node | null): SourceNode {
    if (node === null) return this.emptyScalar(0);
    const line = node.range ? this.lineCounter.linePos(node.range[0]).line : 0;
    if (isAlias(node)) {
      const target = this.anchors.get(node.source);
      // go-yaml's parser fails on an alias whose anchor has not been seen yet.
      if (!target) throw new UnknownAnchorError(`yaml: unknown anchor '${node.source}' referenced`);
      return { kind: 'alias', name: node.source, target, line };
    }
    const { tag, tagged } = explicitTag(node.tag);
    const anchor = node.anchor || undefined;
    let built: SourceNode;
    if (isScalar(node)) {
      built = this.scalar(node, line, tag, tagged);
    } else if (isMap(node)) {
      const mapping: MappingNode = { kind: 'mapping', tag: tagged ? tag : '!!map', tagged, line, entries: [] };
      if (anchor) this.anchors.set(anchor, mapping);
      for (const pair of node.items) {
        const key = pair.key === null ? this.emptyScalar(line) : this.build(pair.key as Node);
        const value = pair.value === null ? this.emptyScalar(key.line) : this.build(pair.value as Node);
        mapping.entries.push({ key, value });
      }
      built = mapping;
    } else if (isSeq(node)) {
      const sequence: SequenceNode = { kind: 'sequence', tag: tagged ? tag : '!!seq', tagged, line, items: [] };
      if (anchor) this.anchors.set(anchor, sequence);
      for (const item of node.items) sequence.items.push(item === null ? this.emptyScalar(line) : this.build(item as Node));
      built = sequence;
    } else {
      return this.emptyScalar(line);
    }
    if (anchor) {
      built.anchor = anchor;
      this.anchors.set(anchor, built);
    }
    return built;
  }

  private scalar(node: Scalar, line: number, tag: string, tagged: boolean): ScalarNode {
    const style = styleOf(node.type);
    const value = typeof node.value === 'string' ? node.value : String(node.value ?? '');
    return { kind: 'scalar', style, value, tag: tagged ? tag : impliedScalarTag(style, value), tagged, line };
  }

  private emptyScalar(line: number): ScalarNode {
    return { kind: 'scalar', style: 'plain', value: '', tag: impliedScalarTag('plain', ''), tagged: false, line };
  }
}

/**
 * go-yaml's parser: a written tag wins, except the non-specific `!`, which counts as none.
 * Tags are kept in go-yaml's short form (`!!int`).
 */
function explicitTag(tag: string | undefined): { tag: string; tagged: boolean } {
  if (!tag || tag === '!') return { tag: '', tagged: false };
  return { tag: tag.startsWith(LONG_TAG_PREFIX) ? '!!' + tag.slice(LONG_TAG_PREFIX.length) : tag, tagged: true };
}

/** The tag go-yaml's parser gives an untagged scalar: quoted and block scalars are strings. */
function impliedScalarTag(style: ScalarStyle, value: string): string {
  if (style !== 'plain') return STR_TAG;
  if (value === '<<') return MERGE_TAG;
  return resolveV3('', value).tag;
}

function styleOf(type: Scalar['type']): ScalarStyle {
  switch (type) {
    case 'QUOTE_DOUBLE':
      return 'double';
    case 'QUOTE_SINGLE':
      return 'single';
    case 'BLOCK_LITERAL':
      return 'literal';
    case 'BLOCK_FOLDED':
      return 'folded';
    default:
      return 'plain';
  }
}

/** go-yaml's Node.ShortTag(): the tag that decides whether a mapping has only string keys. */
export function shortTagOf(node: SourceNode): string {
  if (node.kind === 'alias') return shortTagOf(node.target);
  if (node.kind === 'scalar' && isIndicatedString(node)) return STR_TAG;
  return node.tag;
}

/** go-yaml's indicatedString(): a scalar that is a string because of how it was written. */
export function isIndicatedString(node: ScalarNode): boolean {
  return node.tag === STR_TAG && (node.tagged || node.style !== 'plain');
}
