/**
 * `yaml.Unmarshal(text, &v)` with `var v interface{}`, as go-yaml v2 does it: the first
 * document becomes nulls, bools, strings, ints (int64, or uint64 past int64), floats,
 * `[]interface{}` and `map[interface{}]interface{}`.
 *
 * Decoding rules that show in results:
 * - A later duplicate key replaces the earlier value (the key keeps its first position).
 * - Merge keys (`<<`) write the merged pairs into the map at the point where `<<` appears,
 *   so they override keys written before it and are overridden by keys after it. In a
 *   sequence of maps the last is merged first, so earlier maps win.
 * - Map keys must not be maps or sequences ("invalid map key").
 * - Each alias is decoded again from its anchored node; a node that contains an alias to
 *   itself fails, and documents whose size comes mostly from aliases are rejected
 *   ("document contains excessive aliasing"), with go-yaml's thresholds and counting order.
 *
 * go-yaml recurses; here the same depth-first walk runs on an explicit stack of frames so
 * that the 10000 nesting levels go-yaml accepts do not exhaust the JS call stack.
 */

import { Composer, NodeKind, type YamlNode } from './composer';
import { decodeError, YamlV2Error } from './errors';
import { formatGoValue } from './go-format';
import { decodeBase64Go } from './go-text';
import { decodeUtf8Go } from './go-utf8';
import { resolveTagged, TAG_BINARY, TAG_MERGE, TAG_TIMESTAMP } from './resolve';
import { GoFloat, GoInt, GoMap, type GoValue } from './value';

export type DecodeResult = { ok: true; value: GoValue } | { ok: false; error: string };

const ALIAS_RATIO_RANGE_LOW = 400000;
const ALIAS_RATIO_RANGE_HIGH = 4000000;

function allowedAliasRatio(decodeCount: number): number {
  if (decodeCount <= ALIAS_RATIO_RANGE_LOW) return 0.99;
  if (decodeCount >= ALIAS_RATIO_RANGE_HIGH) return 0.1;
  return 0.99 - 0.89 * ((decodeCount - ALIAS_RATIO_RANGE_LOW) / (ALIAS_RATIO_RANGE_HIGH - ALIAS_RATIO_RANGE_LOW));
}

/** Go's `==` on map keys of interface type: same dynamic type and equal value (NaN never). */
export function sameGoKey(a: GoValue, b: GoValue): boolean {
  if (a === b) return true;
  if (a instanceof GoInt && b instanceof GoInt) return a.value === b.value && a.unsigned === b.unsigned;
  if (a instanceof GoFloat && b instanceof GoFloat) return a.value === b.value;
  return false;
}

/** A string equal for equal Go map keys; null for keys equal to nothing (NaN). */
function keyIdentity(key: GoValue): string | null {
  if (key === null) return 'n';
  if (typeof key === 'boolean') return key ? 'b1' : 'b0';
  if (typeof key === 'string') return 's' + key;
  if (key instanceof GoInt) return (key.unsigned ? 'u' : 'i') + key.value.toString();
  if (key instanceof GoFloat) return Number.isNaN(key.value) ? null : 'f' + (key.value === 0 ? '0' : String(key.value));
  return null;
}

/** Maps up to this size find duplicate keys by scanning; larger ones get an index. */
const SCAN_LIMIT = 16;

/**
 * Sets `map[key] = value` with Go semantics (an equal key keeps its slot), in amortised
 * constant time. `indexes` holds the key positions of the maps that outgrew scanning.
 */
export function setGoMapEntry(map: GoMap, key: GoValue, value: GoValue, indexes: Map<GoMap, Map<string, number>>): void {
  const entries = map.entries;
  let index = indexes.get(map);
  if (index === undefined) {
    for (let i = 0; i < entries.length; i++) {
      if (sameGoKey(entries[i]![0], key)) {
        entries[i]![1] = value;
        return;
      }
    }
    entries.push([key, value]);
    if (entries.length >= SCAN_LIMIT) {
      index = new Map();
      for (let i = 0; i < entries.length; i++) {
        const identity = keyIdentity(entries[i]![0]);
        if (identity !== null) index.set(identity, i);
      }
      indexes.set(map, index);
    }
    return;
  }
  const identity = keyIdentity(key);
  const at = identity === null ? undefined : index.get(identity);
  if (at !== undefined) {
    entries[at]![1] = value;
    return;
  }
  if (identity !== null) index.set(identity, entries.length);
  entries.push([key, value]);
}

function isMergeKey(node: YamlNode): boolean {
  return node.kind === NodeKind.Scalar && node.value === '<<' && (node.implicit || node.tag === TAG_MERGE);
}

function failWantMap(): never {
  throw decodeError('map merge requires map or sequence of maps as the value');
}

/** What a mapping frame waits for from the node it started last. */
const enum Awaiting {
  Nothing,
  Key,
  Value,
  Merge,
}

class DocumentFrame {
  started = false;
  constructor(readonly node: YamlNode) {}
}

class AliasFrame {
  started = false;
  constructor(
    readonly node: YamlNode,
    readonly target: GoMap | null,
  ) {}
}

class SequenceFrame {
  readonly items: GoValue[] = [];
  next = 0;
  waiting = false;
  constructor(readonly node: YamlNode) {}
}

class MappingFrame {
  next = 0;
  awaiting = Awaiting.Nothing;
  key: GoValue = null;
  constructor(
    readonly node: YamlNode,
    readonly map: GoMap,
  ) {}
}

/** The elements of a `<<: [*a, *b]` sequence, merged from the last to the first. */
class MergeSequenceFrame {
  next: number;
  constructor(
    readonly node: YamlNode,
    readonly map: GoMap,
  ) {
    this.next = node.children.length - 1;
  }
}

type Frame = DocumentFrame | AliasFrame | SequenceFrame | MappingFrame | MergeSequenceFrame;

class Decoder {
  private decodeCount = 0;
  private aliasCount = 0;
  private aliasDepth = 0;
  private readonly activeAliases = new Set<YamlNode>();
  private readonly keyIndexes = new Map<GoMap, Map<string, number>>();
  private readonly stack: Frame[] = [];
  /** The value of the node decoded last. */
  private result: GoValue = null;

  decode(root: YamlNode): GoValue {
    this.begin(root, null);
    const stack = this.stack;
    while (stack.length > 0) this.step(stack[stack.length - 1]!);
    return this.result;
  }

  /**
   * go-yaml's `unmarshal(node, out)`: counts the node, then either sets `result` at once
   * (scalars) or pushes a frame that will. `target` is the map a merge writes into.
   */
  private begin(node: YamlNode, target: GoMap | null): void {
    this.count();
    switch (node.kind) {
      case NodeKind.Document:
        this.stack.push(new DocumentFrame(node));
        return;
      case NodeKind.Alias:
        if (this.activeAliases.has(node)) throw decodeError(`anchor '${node.value}' value contains itself`);
        this.activeAliases.add(node);
        this.aliasDepth++;
        this.stack.push(new AliasFrame(node, target));
        return;
      case NodeKind.Scalar:
        this.result = this.scalar(node);
        return;
      case NodeKind.Mapping:
        this.stack.push(new MappingFrame(node, target ?? new GoMap(false)));
        return;
      case NodeKind.Sequence:
        this.stack.push(new SequenceFrame(node));
        return;
    }
  }

  private step(frame: Frame): void {
    if (frame instanceof MappingFrame) return this.stepMapping(frame);
    if (frame instanceof SequenceFrame) {
      if (frame.waiting) {
        frame.items.push(this.result);
        frame.waiting = false;
      }
      const children = frame.node.children;
      if (frame.next < children.length) {
        frame.waiting = true;
        this.begin(children[frame.next++]!, null);
        return;
      }
      this.stack.pop();
      this.result = frame.items;
      return;
    }
    if (frame instanceof AliasFrame) {
      if (!frame.started) {
        frame.started = true;
        this.begin(frame.node.alias!, frame.target);
        return;
      }
      this.aliasDepth--;
      this.activeAliases.delete(frame.node);
      this.stack.pop();
      return;
    }
    if (frame instanceof DocumentFrame) {
      if (!frame.started) {
        frame.started = true;
        if (frame.node.children.length === 1) {
          this.begin(frame.node.children[0]!, null);
          return;
        }
        this.result = null;
      }
      this.stack.pop();
      return;
    }
    // Merging a sequence of maps: each element is checked just before it is merged.
    if (frame.next >= 0) {
      const child = frame.node.children[frame.next--]!;
      if (child.kind === NodeKind.Alias) {
        if (child.alias !== null && child.alias.kind !== NodeKind.Mapping) failWantMap();
      } else if (child.kind !== NodeKind.Mapping) {
        failWantMap();
      }
      this.begin(child, frame.map);
      return;
    }
    this.stack.pop();
  }

  private stepMapping(frame: MappingFrame): void {
    const children = frame.node.children;
    switch (frame.awaiting) {
      case Awaiting.Key: {
        const key = this.result;
        if (Array.isArray(key) || key instanceof GoMap) throw decodeError(`invalid map key: ${formatGoValue(key)}`);
        frame.key = key;
        frame.awaiting = Awaiting.Value;
        this.begin(children[frame.next + 1]!, null);
        return;
      }
      case Awaiting.Value:
        setGoMapEntry(frame.map, frame.key, this.result, this.keyIndexes);
        frame.key = null;
        frame.next += 2;
        break;
      case Awaiting.Merge:
        frame.next += 2;
        break;
      case Awaiting.Nothing:
        break;
    }
    if (frame.next < children.length) {
      const keyNode = children[frame.next]!;
      if (isMergeKey(keyNode)) {
        frame.awaiting = Awaiting.Merge;
        this.beginMerge(children[frame.next + 1]!, frame.map);
      } else {
        frame.awaiting = Awaiting.Key;
        this.begin(keyNode, null);
      }
      return;
    }
    this.stack.pop();
    this.result = frame.map;
  }

  /** go-yaml's `merge`: only a mapping, an alias of one, or a sequence of those. */
  private beginMerge(node: YamlNode, map: GoMap): void {
    switch (node.kind) {
      case NodeKind.Mapping:
        this.begin(node, map);
        return;
      case NodeKind.Alias:
        if (node.alias !== null && node.alias.kind !== NodeKind.Mapping) failWantMap();
        this.begin(node, map);
        return;
      case NodeKind.Sequence:
        this.stack.push(new MergeSequenceFrame(node, map));
        return;
      default:
        failWantMap();
    }
  }

  private count(): void {
    this.decodeCount++;
    if (this.aliasDepth > 0) this.aliasCount++;
    if (
      this.aliasCount > 100 &&
      this.decodeCount > 1000 &&
      this.aliasCount / this.decodeCount > allowedAliasRatio(this.decodeCount)
    ) {
      throw decodeError('document contains excessive aliasing');
    }
  }

  private scalar(node: YamlNode): GoValue {
    // Quoted and block scalars without a tag are strings as written.
    if (node.tag === '' && !node.implicit) return node.value;
    const resolved = resolveTagged(node.tag, node.value);
    if (resolved.tag === TAG_BINARY) {
      const bytes = decodeBase64Go(resolved.value as string);
      if (bytes === null) throw decodeError('!!binary value contains invalid base64 data');
      return decodeUtf8Go(bytes);
    }
    // Timestamps stay text when decoded into interface{}.
    if (resolved.tag === TAG_TIMESTAMP) return node.value;
    return resolved.value;
  }
}

/**
 * go-yaml v2's `yaml.Unmarshal(text, &v)` into `v interface{}`. Only the first document is
 * read; empty input (or only comments) gives null. Errors carry go-yaml's exact text.
 */
export function decodeYamlV2(text: string): DecodeResult {
  try {
    // go-yaml replaces empty input by a single line break before parsing.
    const root = new Composer(text.length === 0 ? '\n' : text).composeFirstDocument();
    if (root === null) return { ok: true, value: null };
    return { ok: true, value: new Decoder().decode(root) };
  } catch (error) {
    if (error instanceof YamlV2Error) return { ok: false, error: error.message };
    throw error;
  }
}
