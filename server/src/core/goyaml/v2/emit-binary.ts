/**
 * go-yaml v2 cannot write a string that is not valid UTF-8, so it writes `!!binary` with the
 * bytes in base64 instead. A JavaScript string has no invalid bytes; the nearest thing is a lone
 * surrogate, so a string holding one is treated as invalid UTF-8 and its bytes are taken as
 * WTF-8 (the surrogate encoded like any other code point, which Go would reject as UTF-8).
 */

/**
 * go-yaml v2's encodeBase64: standard base64, cut into lines of 70 characters once the text is
 * at least that long, each line (the last included) followed by `\n`. The newline then makes the
 * encoder choose a literal block.
 */
export function encodeBinaryText(s: string): string {
  const encoded = base64(wtf8Bytes(s));
  const lineLength = 70;
  if (encoded.length < lineLength) return encoded;
  let out = '';
  for (let i = 0; i < encoded.length; i += lineLength) out += `${encoded.slice(i, i + lineLength)}\n`;
  return out;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Standard padded base64, written out here because the core runs without Node's Buffer. */
function base64(bytes: readonly number[]): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i];
    const b = i + 1 < bytes.length ? bytes[i + 1] : 0;
    const c = i + 2 < bytes.length ? bytes[i + 2] : 0;
    out += BASE64[a >> 2] + BASE64[((a & 3) << 4) | (b >> 4)];
    out += i + 1 < bytes.length ? BASE64[((b & 15) << 2) | (c >> 6)] : '=';
    out += i + 2 < bytes.length ? BASE64[c & 63] : '=';
  }
  return out;
}

function wtf8Bytes(s: string): number[] {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const cp = s.codePointAt(i)!;
    if (cp > 0xffff) i++;
    if (cp < 0x80) bytes.push(cp);
    else if (cp < 0x800) bytes.push(0xc0 | (cp >> 6), 0x80 | (cp & 0x3f));
    else if (cp < 0x10000) bytes.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
    else bytes.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3f), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
  }
  return bytes;
}
