import { isSimpleKeyScalar, plainEvent, selectScalarStyle, stringEvent, type ScalarEvent } from './emit';
import { writeDoubleQuoted, writeLiteral, writePlain, writeSingleQuoted } from './emit-scalars';
import { sortedEntries } from './emit-sort';
import { V2Writer } from './emit-writer';
import { formatFloat64G } from './go-number';
import { GoFloat, GoInt, GoMap, type GoValue } from './value';

/**
 * go-yaml v2's yaml.Marshal for a decoded value: one implicit document (no `---`), block style
 * with indent 2, sequences inside mappings written at the key's indent, map keys sorted the way
 * v2 sorts them, empty collections as `{}` / `[]`. This is the text Flux's envsubst runs on
 * (sigs.k8s.io/yaml.JSONToYAML of each resource).
 */
export function marshalYamlV2(value: GoValue): string {
  const w = new V2Writer();
  emitNode(w, value, false);
  // Document end: finish the last line.
  w.writeIndent();
  return w.output();
}

/** A value ready to emit; scalars carry their analysis so a key is analysed only once. */
type Prepared = { scalar: ScalarEvent } | { map: GoMap } | { seq: GoValue[] };

function prepare(value: GoValue): Prepared {
  if (value instanceof GoMap) return { map: value };
  if (Array.isArray(value)) return { seq: value };
  return { scalar: scalarEvent(value) };
}

function scalarEvent(value: Exclude<GoValue, GoMap | GoValue[]>): ScalarEvent {
  if (typeof value === 'string') return stringEvent(value);
  if (value === null) return plainEvent('null');
  if (typeof value === 'boolean') return plainEvent(value ? 'true' : 'false');
  if (value instanceof GoInt) return plainEvent(value.value.toString());
  if (value instanceof GoFloat) return plainEvent(yamlFloatText(value.value));
  throw new TypeError(`marshalYamlV2: not a Go value: ${String(value)}`);
}

/** go-yaml v2's floatv: `strconv.FormatFloat(f, 'g', -1, 64)`, with YAML's names for the non-finite values. */
function yamlFloatText(f: number): string {
  const text = formatFloat64G(f);
  return text === '+Inf' ? '.inf' : text === '-Inf' ? '-.inf' : text === 'NaN' ? '.nan' : text;
}

/** `mapping` says the node is a key or value of a block mapping (libyaml's mapping context). */
function emitNode(w: V2Writer, value: GoValue, mapping: boolean): void {
  emitPrepared(w, prepare(value), mapping, false);
}

function emitPrepared(w: V2Writer, node: Prepared, mapping: boolean, simpleKey: boolean): void {
  if ('scalar' in node) emitScalar(w, node.scalar, simpleKey);
  else if ('map' in node) emitMapping(w, node.map);
  else emitSequence(w, node.seq, mapping);
}

function emitScalar(w: V2Writer, event: ScalarEvent, simpleKey: boolean): void {
  const style = selectScalarStyle(event, simpleKey);
  if (event.binary) {
    // The tag goes before the scalar like any other tag: `!!binary` then a space or a block header.
    if (!w.whitespace) w.write(' ', 1);
    w.write('!!binary', 8);
    w.whitespace = false;
    w.indention = false;
  }
  w.increaseIndent(true, false);
  // Keys are never folded: a simple key must stay on one line.
  const allowBreaks = !simpleKey;
  if (style === 'plain') writePlain(w, event.text, allowBreaks);
  else if (style === 'single') writeSingleQuoted(w, event.text, allowBreaks);
  else if (style === 'double') writeDoubleQuoted(w, event.text, allowBreaks);
  else writeLiteral(w, event.text);
  w.popIndent();
}

/** Empty collections are the only ones go-yaml v2 writes in flow style. */
function emitEmptyFlow(w: V2Writer, open: string, close: string): void {
  w.writeIndicator(open, true, true, false);
  w.writeIndicator(close, false, false, false);
}

function emitMapping(w: V2Writer, map: GoMap): void {
  if (map.entries.length === 0) {
    emitEmptyFlow(w, '{', '}');
    return;
  }
  w.increaseIndent(false, false);
  for (const [key, value] of sortedEntries(map)) {
    w.writeIndent();
    const preparedKey = prepare(key);
    if (isSimpleKey(preparedKey)) {
      emitPrepared(w, preparedKey, true, true);
      w.writeIndicator(':', false, false, false);
    } else {
      // Long or multi-line keys (and non-empty collections as keys) use the explicit form.
      w.writeIndicator('?', true, false, true);
      emitPrepared(w, preparedKey, true, false);
      w.writeIndent();
      w.writeIndicator(':', true, false, true);
    }
    emitNode(w, value, true);
  }
  w.popIndent();
}

/** check_simple_key: a short one-line scalar, or an empty collection. */
function isSimpleKey(node: Prepared): boolean {
  if ('scalar' in node) return isSimpleKeyScalar(node.scalar);
  if ('map' in node) return node.map.entries.length === 0;
  return node.seq.length === 0;
}

function emitSequence(w: V2Writer, items: GoValue[], mapping: boolean): void {
  if (items.length === 0) {
    emitEmptyFlow(w, '[', ']');
    return;
  }
  // A sequence that is a mapping value starts on the next line at the key's own indent.
  w.increaseIndent(false, mapping && !w.indention);
  for (const item of items) {
    w.writeIndent();
    w.writeIndicator('-', true, false, true);
    emitNode(w, item, false);
  }
  w.popIndent();
}
