import type { Document } from 'yaml';

/**
 * Bounds on the work one file can cause. A repository is input from strangers (a pull
 * request, a cloned fork), so no file may stall the editor, exhaust memory or flood the
 * Problems view. Each bound is far above what a hand-written manifest needs; a file past one
 * is reported once, where it starts, and not checked further.
 */

/**
 * Files longer than this (UTF-16 units, about bytes for YAML) are not parsed. 2 MiB holds
 * every hand-written manifest and the big vendored ones (Flux's gotk-components.yaml,
 * cert-manager's release manifest); what is larger is a vendored CRD bundle or generated data,
 * where nothing is substituted, and parsing it would block the server for tens of seconds.
 */
export const maxFileSize = 2 * 1024 * 1024;

/**
 * Collections nested deeper than this are not composed. Kubernetes objects rarely pass 30
 * levels; the YAML composer and every tree walk after it recurse once per level, and
 * 10,000 levels overflow the stack.
 */
export const maxNestingDepth = 500;

/**
 * Parses the file index keeps cached: at most this many files, and this much source (a parse
 * costs 20–50 bytes of memory per source character, so about 200–400 MB). A repository past
 * either is still checked in full; the least recently used parses are made again when needed.
 */
export const maxCachedParses = 10000;
export const maxCachedSource = 8 * 1024 * 1024;

/**
 * At most this many findings per file, the most serious first; one more says how many were
 * left out. VS Code shows at most 1,000 diagnostics per file too, and a megabyte of `$$` on
 * one line would otherwise send hundreds of thousands.
 */
export const maxFindingsPerFile = 1000;

/**
 * At most this many characters of a finding's message. Rules quote source text shortened
 * (rules/text.ts), but a message may still carry what a parser quoted whole; a CI log or a
 * hover has no use for more.
 */
export const maxMessageLength = 600;

/** The message, cut at maxMessageLength (never inside a surrogate pair), saying how much was left out. */
export function boundedMessage(message: string): string {
  if (message.length <= maxMessageLength) return message;
  let end = maxMessageLength;
  if (/[\uD800-\uDBFF]/.test(message[end - 1])) end--;
  return `${message.slice(0, end)}… (${message.length - end} more characters)`;
}

/**
 * How far aliases may multiply a document before it is called an alias bomb: the yaml
 * library's own default. Nine anchors of nine aliases each expand to 387 million nodes;
 * rendering one the way kustomize does (aliases replaced by copies) would exhaust memory.
 */
export const maxAliasCount = 100;

/** Whether expanding the document's aliases goes past maxAliasCount (checked without expanding them). */
export function exceedsAliasLimit(document: Document): boolean {
  try {
    document.toJS({ maxAliasCount, mapAsMap: true });
    return false;
  } catch (error) {
    return error instanceof ReferenceError && /alias count/i.test(error.message);
  }
}

/** "2.0 MiB", for messages. */
export function formatSize(units: number): string {
  return units >= 1024 * 1024 ? `${(units / (1024 * 1024)).toFixed(1)} MiB` : `${Math.ceil(units / 1024)} KiB`;
}

/**
 * Parentheses nested deeper than this in one template action (Helm's `{{ }}`, Fleet's
 * `\${ }`) are not followed: the parsers recurse once per level, and 10,000 levels (which Go's
 * text/template still accepts) overflow the stack. No hand-written template comes near it.
 */
export const maxTemplateParenDepth = 100;

/** How far into a file to look for signs that it is not UTF-8 text (git looks as far for a NUL). */
const sniffLength = 8000;

/**
 * Why `text` is not read as YAML at all, as the information finding that says so, or
 * undefined when it is read: over the size limit, UTF-16 (its byte order mark decoded as
 * UTF-8 gives two U+FFFD, then every other unit of ASCII text is NUL), or binary (a NUL
 * byte, or mostly bytes that are not UTF-8). None of these can be a manifest the way the
 * repository holds it; checking one produced hundreds of findings quoting its bytes.
 */
export function notCheckedReason(text: string): string | undefined {
  if (text.length > maxFileSize) return `Not checked: this file is ${formatSize(text.length)}, over Render Lens's limit of ${formatSize(maxFileSize)} per file.`;
  // Asked by every gate a file passes (model, parse, re-parse, the shortcut), mostly in a row.
  // One text is kept, at most maxFileSize long, and the next file's replaces it.
  if (text === lastSniffed.text) return lastSniffed.reason;
  const reason = sniff(text);
  lastSniffed = { text, reason };
  return reason;
}

let lastSniffed: { text: string | undefined; reason: string | undefined } = { text: undefined, reason: undefined };

function sniff(text: string): string | undefined {
  if (startsLikeUtf16(text)) return 'Not checked: this file is UTF-16 (it starts with a UTF-16 byte order mark); Render Lens reads YAML as UTF-8. Save it as UTF-8 to have it checked.';
  // indexOf first: it is far faster than a loop, and almost every file holds neither character.
  const nul = (text.length > sniffLength ? text.slice(0, sniffLength) : text).indexOf('\0');
  if (nul !== -1) return `Not checked: this file holds a NUL byte (line ${lineAt(text, nul)}), so it is binary, not YAML text.`;
  if (text.indexOf('\uFFFD') === -1) return undefined;
  const end = Math.min(text.length, sniffLength);
  let invalid = 0;
  for (let i = 0; i < end; i++) if (text.charCodeAt(i) === 0xfffd) invalid++;
  // A stray invalid byte is a typo; a tenth of the text is not text.
  if (invalid >= 8 && invalid * 10 >= end) return `Not checked: this file is not UTF-8 text (${invalid} of its first ${end} characters are not valid UTF-8).`;
  return undefined;
}

/** The 1-based line of `offset`. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** Two U+FFFD (the byte order mark FF FE or FE FF, read as UTF-8), then ASCII with a NUL before or after it. */
function startsLikeUtf16(text: string): boolean {
  return text.charCodeAt(0) === 0xfffd && text.charCodeAt(1) === 0xfffd && (text.charCodeAt(2) === 0) !== (text.charCodeAt(3) === 0);
}
