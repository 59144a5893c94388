/**
 * go-yaml v3's Unmarshal of a resource into `map[string]interface{}`, which is how kyaml's
 * `RNode.MarshalJSON` turns the parsed manifest into Go values before json.Marshal.
 *
 * What this decides, and why it matters downstream:
 *   - scalar types (resolve.ts): `0755` is the int 493, `yes` stays a string;
 *   - a nested mapping whose keys are not all strings becomes `map[interface{}]interface{}`,
 *     which json.Marshal then refuses ("unsupported type");
 *   - the top-level keys are always strings: go-yaml writes a key's source text into them;
 *   - a timestamp becomes the RFC 3339 text json.Marshal writes for a time.Time;
 *   - a `!!binary` scalar becomes its decoded bytes.
 * Errors come in go-yaml's two kinds: a failure that stops decoding at once, and "unmarshal
 * errors" that are collected and reported together at the end.
 */
import { formatGoValue } from '../v2/go-format';
import { decodeBase64Go, goQuote } from '../v2/go-text';
import { decodeUtf8Go } from '../v2/go-utf8';
import { GoMap, type GoValue } from '../v2/value';
import type { PlainNode } from '../kyaml/de-anchor';
import { isIndicatedString, shortTagOf, type MappingNode, type ScalarNode } from './nodes';
import { BINARY_TAG, MERGE_TAG, resolveV3, ResolveError, STR_TAG } from './resolve';

export type DecodeResult = { ok: true; value: GoMap } | { ok: false; error: string };

/** A go-yaml failf(): decoding stops with this message. */
class DecodeFailure extends Error {}

export function decodeResourceV3(root: PlainNode): DecodeResult {
  const decoder = new DecoderV3();
  try {
    const value = decoder.topLevel(root);
    if (decoder.typeErrors.length > 0) return { ok: false, error: `yaml: unmarshal errors:\n  ${decoder.typeErrors.join('\n  ')}` };
    return { ok: true, value };
  } catch (e) {
    if (e instanceof DecodeFailure || e instanceof ResolveError) return { ok: false, error: e.message };
    throw e;
  }
}

class DecoderV3 {
  readonly typeErrors: string[] = [];

  /** The resource root, decoded into a `map[string]interface{}`. */
  topLevel(root: PlainNode): GoMap {
    const map = new GoMap(true);
    if (root.kind !== 'mapping') {
      this.typeError(root, 'map[string]interface {}');
      return map;
    }
    this.checkUniqueKeys(root);
    for (const { key, value } of root.entries) {
      const name = this.keyIntoString(key as PlainNode);
      if (name !== undefined) map.set(name, this.value(value as PlainNode));
    }
    return map;
  }

  /** A node decoded into `interface{}`. */
  value(node: PlainNode): GoValue {
    switch (node.kind) {
      case 'scalar':
        return this.scalar(node);
      case 'sequence':
        return node.items.map((item) => this.value(item as PlainNode));
      case 'mapping':
        return this.mapping(node);
    }
  }

  private scalar(node: ScalarNode): GoValue {
    if (isIndicatedString(node)) return node.value;
    const resolved = resolveV3(node.tag, node.value);
    if (resolved.tag === BINARY_TAG) return decodeBinary(String(resolved.value));
    return resolved.value;
  }

  private mapping(node: MappingNode): GoMap {
    this.checkUniqueKeys(node);
    const stringKeys = node.entries.every(({ key }) => {
      const tag = shortTagOf(key);
      return tag === STR_TAG || tag === MERGE_TAG;
    });
    const map = new GoMap(stringKeys);
    for (const { key, value } of node.entries) {
      const decodedKey = stringKeys ? this.keyIntoString(key as PlainNode) : this.value(key as PlainNode);
      if (decodedKey === undefined) continue;
      if (Array.isArray(decodedKey) || decodedKey instanceof GoMap) {
        throw new DecodeFailure(`yaml: invalid map key: ${formatGoValue(decodedKey)}`);
      }
      map.set(decodedKey, this.value(value as PlainNode));
    }
    return map;
  }

  /** A key decoded into a Go string: go-yaml takes the source text (decoded bytes for !!binary, "" for null). */
  private keyIntoString(key: PlainNode): string | undefined {
    if (key.kind !== 'scalar') {
      this.typeError(key, 'string');
      return undefined;
    }
    if (isIndicatedString(key)) return key.value;
    const resolved = resolveV3(key.tag, key.value);
    if (resolved.tag === BINARY_TAG) return decodeBinary(String(resolved.value));
    if (resolved.value === null) return '';
    return key.value;
  }

  /** go-yaml v3 rejects a mapping that repeats a key text (compared as written, not as typed). */
  private checkUniqueKeys(node: MappingNode): void {
    const entries = node.entries;
    for (let i = 0; i < entries.length; i++) {
      const a = entries[i].key as PlainNode;
      for (let j = i + 1; j < entries.length; j++) {
        const b = entries[j].key as PlainNode;
        if (a.kind === b.kind && textOf(a) === textOf(b)) {
          this.typeErrors.push(`line ${b.line}: mapping key ${goQuote(textOf(b))} already defined at line ${a.line}`);
        }
      }
    }
  }

  private typeError(node: PlainNode, into: string): void {
    const tag = node.tag;
    let shown = '';
    if (node.kind === 'scalar') {
      const text = node.value;
      shown = text.length > 10 ? ` \`${text.slice(0, 7)}...\`` : ` \`${text}\``;
    }
    this.typeErrors.push(`line ${node.line}: cannot unmarshal ${tag}${shown} into ${into}`);
  }
}

function textOf(node: PlainNode): string {
  return node.kind === 'scalar' ? node.value : '';
}

/** The bytes of a `!!binary` scalar, as the Go string json.Marshal later writes. */
function decodeBinary(text: string): string {
  const bytes = decodeBase64Go(text);
  if (bytes === null) throw new DecodeFailure('yaml: !!binary value contains invalid base64 data');
  return decodeUtf8Go(bytes);
}
