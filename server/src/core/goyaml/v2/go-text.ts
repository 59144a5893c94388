/**
 * Go string helpers: `strconv.Quote` and `encoding/base64.StdEncoding.DecodeString`. UTF-8
 * decoding as Go does it is in go-utf8.ts.
 */

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;
const HEX = '0123456789abcdef';

/** Go's `unicode.IsPrint`: letters, marks, numbers, punctuation, symbols and the ASCII space. */
export function isGoPrint(cp: number): boolean {
  if (cp < 0x80) return cp >= 0x20 && cp < 0x7f;
  return PRINTABLE.test(String.fromCodePoint(cp));
}

/** Go's `strconv.Quote`. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp === 0x22 || cp === 0x5c) {
      out += '\\' + ch;
      continue;
    }
    if (isGoPrint(cp)) {
      out += ch;
      continue;
    }
    switch (cp) {
      case 0x07:
        out += '\\a';
        continue;
      case 0x08:
        out += '\\b';
        continue;
      case 0x0c:
        out += '\\f';
        continue;
      case 0x0a:
        out += '\\n';
        continue;
      case 0x0d:
        out += '\\r';
        continue;
      case 0x09:
        out += '\\t';
        continue;
      case 0x0b:
        out += '\\v';
        continue;
    }
    if (cp < 0x20 || cp === 0x7f) out += '\\x' + HEX[cp >> 4] + HEX[cp & 15];
    else if (cp < 0x10000) out += '\\u' + cp.toString(16).padStart(4, '0');
    else out += '\\U' + cp.toString(16).padStart(8, '0');
  }
  return out + '"';
}

const BASE64_VALUES = (() => {
  const table = new Int16Array(128).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
  return table;
})();

/**
 * `base64.StdEncoding.DecodeString`: padding is required, `\r` and `\n` are ignored anywhere,
 * and anything else outside the alphabet is an error (null).
 */
export function decodeBase64Go(text: string): Uint8Array | null {
  const out: number[] = [];
  const n = text.length;
  let i = 0;
  const skipNewlines = (): void => {
    while (i < n && (text.charCodeAt(i) === 0x0a || text.charCodeAt(i) === 0x0d)) i++;
  };
  const quantum = [0, 0, 0, 0];
  for (;;) {
    let j = 0;
    while (j < 4) {
      skipNewlines();
      if (i === n) {
        // Input ended inside a quantum: only a clean end (no pending characters) is valid.
        return j === 0 ? Uint8Array.from(out) : null;
      }
      const c = text.charCodeAt(i++);
      if (c === 0x3d /* = */) {
        if (j < 2) return null;
        if (j === 2) {
          skipNewlines();
          if (i === n || text.charCodeAt(i) !== 0x3d) return null;
          i++;
        }
        skipNewlines();
        if (i < n) return null;
        out.push(((quantum[0]! << 2) | (quantum[1]! >> 4)) & 0xff);
        if (j === 3) out.push(((quantum[1]! << 4) | (quantum[2]! >> 2)) & 0xff);
        return Uint8Array.from(out);
      }
      const v = c < 128 ? BASE64_VALUES[c]! : -1;
      if (v < 0) return null;
      quantum[j++] = v;
    }
    out.push(((quantum[0]! << 2) | (quantum[1]! >> 4)) & 0xff);
    out.push(((quantum[1]! << 4) | (quantum[2]! >> 2)) & 0xff);
    out.push(((quantum[2]! << 6) | quantum[3]!) & 0xff);
  }
}
