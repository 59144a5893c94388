/**
 * Diagnostics serialized once, not on every publish. A big manifest's thousand diagnostics
 * make a message of more than a megabyte, and every keystroke publishes it again although
 * nearly all of it is the same findings at the same positions: turning it into JSON and then
 * UTF-8 was about a quarter of a keystroke's server time on the 50,000-line bench manifest.
 *
 * A published diagnostic is its finding's body (every field but `data`, which names the
 * document version) plus its data. The body stays while its finding and its positions do
 * (convert.ts keeps it per finding), and the stdio transport writes the body's UTF-8 bytes,
 * made once, instead of serializing it again (jsonEncoder). Bodies are frozen, so nothing can
 * change what was serialized; a published diagnostic whose fields are no longer its body's is
 * serialized in full.
 */
import type { ContentTypeEncoder, Diagnostic, DiagnosticRelatedInformation, Message, Range } from 'vscode-languageserver/node';

/** The fields of a diagnostic besides `data`: what convert.ts fills, and publishedDiagnostic copies. */
export type BodyFields = Required<Pick<Diagnostic, 'range' | 'severity' | 'source' | 'code' | 'codeDescription' | 'message' | 'relatedInformation'>>;

/** A diagnostic without its `data`. */
export interface DiagnosticBody {
  readonly diagnostic: Readonly<BodyFields>;
  /** The diagnostic's JSON in UTF-8 without its closing brace, made when first written. */
  open: Buffer | undefined;
}

/**
 * The body a published diagnostic was made from, under a symbol: JSON.stringify skips symbol
 * keys, and a property set in the object literal keeps the diagnostic's shape fixed (a
 * WeakMap of a thousand new keys per publish cost more than the lookups it saved).
 */
const bodyKey = Symbol('render-lens diagnostic body');

type Published = Diagnostic & { [bodyKey]?: DiagnosticBody };

/** The fields of every body: diagnosticBody sets all seven, in the order bodyJson writes them. */
const bodyFieldCount = 7;

/** A new body made of `fields`, frozen; its fields in the order bodyJson writes them. */
export function diagnosticBody(fields: BodyFields): DiagnosticBody {
  const { range, severity, source, code, codeDescription, message, relatedInformation } = fields;
  const diagnostic: BodyFields = { range, severity, source, code, codeDescription, message, relatedInformation };
  const body: DiagnosticBody = { diagnostic, open: undefined };
  (diagnostic as Published)[bodyKey] = body;
  Object.freeze(diagnostic);
  return body;
}

/**
 * Whether a body still says the same: the same range, and the very same related information
 * for each entry (convert.ts hands out the same object while an entry's location holds).
 */
export function bodyHolds<T>(body: DiagnosticBody, range: Range, entries: readonly T[], relatedOf: (entry: T) => DiagnosticRelatedInformation): boolean {
  const known = body.diagnostic;
  const was = known.range;
  if (was.start.line !== range.start.line || was.start.character !== range.start.character || was.end.line !== range.end.line || was.end.character !== range.end.character) return false;
  const before = known.relatedInformation ?? [];
  if (before.length !== entries.length) return false;
  for (let i = 0; i < entries.length; i++) if (relatedOf(entries[i]) !== before[i]) return false;
  return true;
}

/** The diagnostic to publish: the body, with `data` when there is any. */
export function publishedDiagnostic(body: DiagnosticBody, data: unknown): Diagnostic {
  const b = body.diagnostic;
  if (data === undefined) return b;
  // The body's fields in their order, then data: the encoder writes the body's bytes, then data.
  const diagnostic: Published = { range: b.range, severity: b.severity, source: b.source, code: b.code, codeDescription: b.codeDescription, message: b.message, relatedInformation: b.relatedInformation, data, [bodyKey]: body };
  return diagnostic;
}

/**
 * Whether a published diagnostic with data is still its body plus data: nobody changed a field
 * since, nor added one (a spread copy carries the body's symbol along, with whatever it added).
 */
function holdsBody(d: Diagnostic, body: DiagnosticBody): boolean {
  const b = body.diagnostic;
  if (d.data === undefined || fieldCount(d) !== bodyFieldCount + 1) return false;
  return d.range === b.range && d.severity === b.severity && d.source === b.source && d.code === b.code && d.codeDescription === b.codeDescription && d.message === b.message && d.relatedInformation === b.relatedInformation;
}

/** The diagnostic's own string keys (for-in over a plain object: no array made). */
function fieldCount(d: Diagnostic): number {
  let count = 0;
  for (const _ in d) count++;
  return count;
}

/** Stands in for the diagnostics in the message's JSON, which are written around it. */
const marker = '\u0000render-lens diagnostics\u0000';
const markerJson = JSON.stringify(marker);

/**
 * The `application/json` encoder of the stdio transport: what vscode-jsonrpc's default
 * writes (`JSON.stringify` of the message), byte for byte, with the bodies of published
 * diagnostics written from their bytes.
 */
export const jsonEncoder: ContentTypeEncoder = {
  name: 'application/json',
  encode(message, options) {
    try {
      return Promise.resolve(encodeMessage(message, options.charset));
    } catch (error) {
      return Promise.reject(error);
    }
  },
};

export function encodeMessage(message: Message, charset: BufferEncoding = 'utf-8'): Uint8Array {
  const params = (message as { method?: unknown; params?: { diagnostics?: unknown } }).params;
  const diagnostics = params?.diagnostics;
  if ((message as { method?: unknown }).method !== 'textDocument/publishDiagnostics' || !Array.isArray(diagnostics) || (charset !== 'utf-8' && charset !== 'utf8')) {
    return Buffer.from(JSON.stringify(message, undefined, 0), charset);
  }
  // The envelope (uri, version, anything else) as JSON.stringify writes it, around the list.
  const envelope = JSON.stringify({ ...message, params: { ...params, diagnostics: marker } });
  const at = envelope.lastIndexOf(markerJson);
  // Each diagnostic: its body's bytes and what closes it (`}`, or data and `}`), or all of it as text.
  const bodies: Array<Buffer | undefined> = new Array(diagnostics.length);
  const texts: string[] = new Array(diagnostics.length);
  for (let i = 0; i < diagnostics.length; i++) {
    const diagnostic = diagnostics[i] as Published;
    const body = diagnostic[bodyKey];
    const tail = i === diagnostics.length - 1 ? '' : ',';
    if (!body || (diagnostic !== body.diagnostic && !holdsBody(diagnostic, body))) {
      texts[i] = JSON.stringify(diagnostic) + tail;
      continue;
    }
    bodies[i] = body.open ??= keptBytes(bodyJson(body));
    // `{...body, data}`: the body's fields, then data, in that order.
    texts[i] = diagnostic === body.diagnostic ? `}${tail}` : `,"data":${JSON.stringify(diagnostic.data)}}${tail}`;
  }
  const head = Buffer.from(`${envelope.slice(0, at)}[`, 'utf-8');
  const end = Buffer.from(`]${envelope.slice(at + markerJson.length)}`, 'utf-8');
  const lengths = texts.map(utf8Length);
  let length = head.length + end.length;
  for (let i = 0; i < texts.length; i++) length += (bodies[i]?.length ?? 0) + lengths[i];
  const out = Buffer.allocUnsafe(length);
  let offset = head.copy(out, 0);
  for (let i = 0; i < texts.length; i++) {
    const body = bodies[i];
    if (body) offset += body.copy(out, offset);
    offset = writeText(out, offset, texts[i], lengths[i]);
  }
  end.copy(out, offset);
  return out;
}

/**
 * The JSON of a body without its closing brace, as JSON.stringify writes it. Most of a
 * file's diagnostics share their related information (the same few Kustomizations, more than
 * half of the bytes) and their docs link: those objects are serialized once, not once per
 * diagnostic. A body with a field missing, or with a shared part that could still change, is
 * left to JSON.stringify.
 */
function bodyJson(body: DiagnosticBody): string {
  const d = body.diagnostic;
  const whole = () => JSON.stringify(d).slice(0, -1);
  // Undefined fields are left out by JSON.stringify (the types allow none; a caller could).
  if (d.range === undefined || d.severity === undefined || d.source === undefined || d.code === undefined || d.message === undefined || !Array.isArray(d.relatedInformation)) return whole();
  const link = sharedJson(d.codeDescription);
  if (link === undefined) return whole();
  let related = '';
  for (let i = 0; i < d.relatedInformation.length; i++) {
    const json = sharedJson(d.relatedInformation[i]);
    if (json === undefined) return whole();
    related += i === 0 ? json : `,${json}`;
  }
  return `{"range":${JSON.stringify(d.range)},"severity":${JSON.stringify(d.severity)},"source":${JSON.stringify(d.source)},"code":${JSON.stringify(d.code)},"codeDescription":${link},"message":${JSON.stringify(d.message)},"relatedInformation":[${related}]`;
}

/** JSON of the parts bodies share (convert.ts hands out the same frozen objects), made once each. */
const sharedJsonOf = new WeakMap<object, string>();

/** The JSON of a shared part, or undefined unless it is an object frozen at every level (only what cannot change may be kept as text). */
function sharedJson(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  let json = sharedJsonOf.get(value);
  if (json === undefined) {
    if (!frozenThroughout(value)) return undefined;
    sharedJsonOf.set(value, (json = JSON.stringify(value)));
  }
  return json;
}

function frozenThroughout(value: object): boolean {
  if (!Object.isFrozen(value)) return false;
  for (const key of Object.keys(value)) {
    const child = (value as Record<string, unknown>)[key];
    if (typeof child === 'object' && child !== null && !frozenThroughout(child)) return false;
  }
  return true;
}

/** UTF-8 length, counted here for ASCII (the texts between bodies nearly always are): no native call each. */
function utf8Length(text: string): number {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return Buffer.byteLength(text, 'utf-8');
  return text.length;
}

/**
 * Writes `text` (`bytes` long in UTF-8) at `offset`; returns the offset after it. The texts
 * between bodies are short and nearly always ASCII: those are copied here, as a native write
 * per text cost more than the copy.
 */
function writeText(out: Buffer, offset: number, text: string, bytes: number): number {
  if (text.length > 64 || bytes !== text.length) return offset + out.write(text, offset, 'utf-8');
  for (let i = 0; i < text.length; i++) out[offset + i] = text.charCodeAt(i);
  return offset + text.length;
}

/**
 * Bytes of their own: a small Buffer.from is a slice of Node's shared 8 KB pool, and a kept
 * slice would keep its whole block alive (measured: 1.2 MB of kept bodies held 8.2 MB).
 */
function keptBytes(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text, 'utf-8'));
  bytes.write(text, 0, 'utf-8');
  return bytes;
}
