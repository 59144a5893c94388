/**
 * Go's encoding/json for decoded values (Go 1.19, which produced the conformance vectors).
 *
 * Marshal: object keys sorted bytewise (UTF-8 order), `<`, `>`, `&`, U+2028 and U+2029
 * escaped as \u003c..., control characters other than \n \r \t as \u00XX, floats in the
 * shortest form (exponent only below 1e-6 or from 1e21), NaN and infinities rejected, and
 * `map[interface{}]interface{}` rejected as a type.
 *
 * Parse: JSON text to values with exact integers (GoInt) and floats (GoFloat), numbers typed
 * the way go-yaml v2 types the same text, which is how sigs.k8s.io/yaml's JSONToYAML reads JSON.
 */

import { resolvePlainV2 } from './resolve';
import { GoFloat, GoInt, GoMap, type GoValue } from './value';

export type MarshalResult = { ok: true; json: string } | { ok: false; error: string };

class JsonError extends Error {}

/** Compares two strings in UTF-8 byte order (code point order), as Go compares strings. */
export function compareGoStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (astral characters) sort after every other BMP character in code point order.
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}

const HEX = '0123456789abcdef';

function quote(s: string): string {
  // Fast path: nothing to escape.
  if (!/[\u0000-\u001f"\\<>&\u2028\u2029\ud800-\udfff]/.test(s)) return '"' + s + '"';
  let out = '"';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let escaped: string | null = null;
    if (c < 0x20 || c === 0x3c || c === 0x3e || c === 0x26) {
      if (c === 0x0a) escaped = '\\n';
      else if (c === 0x0d) escaped = '\\r';
      else if (c === 0x09) escaped = '\\t';
      else escaped = '\\u00' + HEX[c >> 4] + HEX[c & 15];
    } else if (c === 0x22) escaped = '\\"';
    else if (c === 0x5c) escaped = '\\\\';
    else if (c === 0x2028) escaped = '\\u2028';
    else if (c === 0x2029) escaped = '\\u2029';
    else if (c >= 0xd800 && c <= 0xdfff) {
      const d = s.charCodeAt(i + 1);
      if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
        i++;
        continue;
      }
      // A lone surrogate stands for invalid UTF-8, which Go replaces.
      escaped = '\\ufffd';
    }
    if (escaped !== null) {
      out += s.slice(from, i) + escaped;
      from = i + 1;
    }
  }
  return out + s.slice(from) + '"';
}

function formatFloat(value: number): string {
  if (Number.isNaN(value)) throw new JsonError('json: unsupported value: NaN');
  if (value === Infinity) throw new JsonError('json: unsupported value: +Inf');
  if (value === -Infinity) throw new JsonError('json: unsupported value: -Inf');
  // JS and Go agree on the shortest digits and on when to use an exponent; Go keeps the
  // sign of negative zero.
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  return String(value);
}

function encodeScalar(value: GoValue): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') return quote(value);
  if (value instanceof GoInt) return value.value.toString();
  return formatFloat((value as GoFloat).value);
}

class ArrayWriter {
  next = 0;
  constructor(readonly items: GoValue[]) {}
}

class ObjectWriter {
  next = 0;
  constructor(readonly entries: Array<[GoValue, GoValue]>) {}
}

/**
 * Encodes depth first with an explicit stack (values may nest 10000 levels deep), in the
 * order Go writes them, so the first unsupported value met is the one reported.
 */
function encode(root: GoValue): string {
  let out = '';
  const stack: Array<ArrayWriter | ObjectWriter> = [];
  const write = (value: GoValue): void => {
    if (Array.isArray(value)) {
      out += '[';
      stack.push(new ArrayWriter(value));
    } else if (value instanceof GoMap) {
      if (!value.stringKeys) throw new JsonError('json: unsupported type: map[interface {}]interface {}');
      out += '{';
      stack.push(new ObjectWriter([...value.entries].sort((a, b) => compareGoStrings(a[0] as string, b[0] as string))));
    } else {
      out += encodeScalar(value);
    }
  };
  write(root);
  while (stack.length > 0) {
    const writer = stack[stack.length - 1]!;
    if (writer instanceof ArrayWriter) {
      if (writer.next < writer.items.length) {
        if (writer.next > 0) out += ',';
        write(writer.items[writer.next++]!);
        continue;
      }
      out += ']';
    } else {
      if (writer.next < writer.entries.length) {
        const [key, item] = writer.entries[writer.next++]!;
        out += (writer.next > 1 ? ',' : '') + quote(key as string) + ':';
        write(item);
        continue;
      }
      out += '}';
    }
    stack.pop();
  }
  return out;
}

/** Go's `json.Marshal` of a decoded value. */
export function goJsonMarshal(value: GoValue): MarshalResult {
  try {
    return { ok: true, json: encode(value) };
  } catch (error) {
    if (error instanceof JsonError) return { ok: false, error: error.message };
    throw error;
  }
}

/** An open array or object while reading JSON. */
class OpenContainer {
  key = '';
  /** Positions of the keys read so far (objects only). */
  readonly index: Map<string, number> | null;
  constructor(readonly value: GoValue[] | GoMap) {
    this.index = Array.isArray(value) ? null : new Map();
  }
}

class JsonReader {
  private pos = 0;
  constructor(private readonly text: string) {}

  /** Reads one value with an explicit stack of open containers. */
  read(): GoValue {
    const open: OpenContainer[] = [];
    let value: GoValue;
    for (;;) {
      // Read a value: a scalar, or the start of a container.
      this.space();
      const c = this.text[this.pos];
      if (c === '[' || c === '{') {
        this.pos++;
        this.space();
        const close = c === '[' ? ']' : '}';
        const container = new OpenContainer(c === '[' ? [] : new GoMap(true));
        if (this.text[this.pos] === close) {
          this.pos++;
          value = container.value;
        } else {
          open.push(container);
          if (c === '{') container.key = this.key();
          continue;
        }
      } else {
        value = this.scalar();
      }
      // Store it in the enclosing containers, closing those that end here.
      for (;;) {
        const top = open[open.length - 1];
        if (top === undefined) {
          this.space();
          if (this.pos !== this.text.length) this.fail('unexpected text after the value');
          return value;
        }
        if (Array.isArray(top.value)) top.value.push(value);
        else {
          // A repeated key keeps the last value, as json.Unmarshal into a map does.
          const at = top.index!.get(top.key);
          if (at !== undefined) top.value.entries[at]![1] = value;
          else {
            top.index!.set(top.key, top.value.entries.length);
            top.value.entries.push([top.key, value]);
          }
        }
        this.space();
        const next = this.text[this.pos++];
        if (next === ',') {
          if (!Array.isArray(top.value)) top.key = this.key();
          break;
        }
        if (next !== (Array.isArray(top.value) ? ']' : '}')) this.fail('expected a separator or the end of a container');
        open.pop();
        value = top.value;
      }
    }
  }

  private fail(problem: string): never {
    throw new SyntaxError(`invalid JSON at offset ${this.pos}: ${problem}`);
  }

  private space(): void {
    const t = this.text;
    while (this.pos < t.length) {
      const c = t.charCodeAt(this.pos);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
      this.pos++;
    }
  }

  /** An object key and its colon. */
  private key(): string {
    this.space();
    if (this.text[this.pos] !== '"') this.fail('expected a key');
    const key = this.string();
    this.space();
    if (this.text[this.pos] !== ':') this.fail("expected ':'");
    this.pos++;
    return key;
  }

  private scalar(): GoValue {
    const t = this.text;
    const c = t[this.pos];
    if (c === '"') return this.string();
    if (t.startsWith('true', this.pos)) {
      this.pos += 4;
      return true;
    }
    if (t.startsWith('false', this.pos)) {
      this.pos += 5;
      return false;
    }
    if (t.startsWith('null', this.pos)) {
      this.pos += 4;
      return null;
    }
    return this.number();
  }

  private string(): string {
    const t = this.text;
    this.pos++;
    let out = '';
    let from = this.pos;
    for (;;) {
      if (this.pos >= t.length) this.fail('unterminated string');
      const c = t.charCodeAt(this.pos);
      if (c === 0x22) {
        out += t.slice(from, this.pos);
        this.pos++;
        return out;
      }
      if (c !== 0x5c) {
        this.pos++;
        continue;
      }
      out += t.slice(from, this.pos);
      const e = t[this.pos + 1];
      this.pos += 2;
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out += e;
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          const hex = t.slice(this.pos, this.pos + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('bad \\u escape');
          out += String.fromCharCode(parseInt(hex, 16));
          this.pos += 4;
          break;
        }
        default:
          this.fail('bad escape');
      }
      from = this.pos;
    }
  }

  private number(): GoValue {
    const match = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/.exec(this.text.slice(this.pos, this.pos + 400));
    if (match === null) this.fail('expected a value');
    this.pos += match[0].length;
    const value = resolvePlainV2(match[0]);
    // Only an exponent too large for a float64 leaves the text unresolved.
    return typeof value === 'string' ? new GoFloat(Number(match[0])) : value;
  }
}

/**
 * Parses JSON text into values: integers stay exact (GoInt, uint64 past int64), other
 * numbers are GoFloat, objects are string-keyed GoMaps. Throws SyntaxError on invalid JSON.
 */
export function goJsonParse(json: string): GoValue {
  return new JsonReader(json).read();
}
