/**
 * What one string scalar becomes after the controller's round trip: emitted by go-yaml v2
 * (quoting chosen for the value as written), substituted as text, read back with YAML 1.1
 * typing. The same three steps the controller runs, on a one-field document.
 *
 * Rules and hovers ask this for every substituted scalar in every render context, so the
 * steps are shared where the answer cannot differ: the emitted text is remembered per value,
 * the answer per value and values of the variables it reads, and a literal block that
 * substitution leaves with the same lines is known to stay a string without decoding it
 * (block-literal.ts).
 */
import { Memo } from '../memo';
import type { JsonType } from '../model';
import { envsubst, evaluateExpansion, scanTemplate, type Expansion, type Lookup, type TemplateScan } from '../envsubst';
import { GoFloat, GoInt, GoMap, type GoValue } from '../goyaml/v2/value';
import { marshalYamlV2 } from '../goyaml/v2/marshal';
import { yamlToJson } from '../goyaml/v2/yaml-to-json';
import { resolvePlainV2 } from '../goyaml/v2/resolve';
import { BoundedMemo } from '../bounded-memo';
import { emitsSimpleLiteral, unchangedLiteralBlock } from './block-literal';

export type ScalarAfter =
  | { kind: 'value'; type: JsonType; display: string }
  /** The substituted text no longer parses: go-yaml's error. */
  | { kind: 'broken'; error: string }
  /** envsubst itself fails (parse error, strict mode): other rules report it. */
  | { kind: 'failed' };

const field = 'k';

/** A value as go-yaml v2 emits it in a one-field document, and every name envsubst reads there. */
interface Emitted {
  text: string;
  /** Scanned when first asked: the block shortcut needs only the text. */
  names?: readonly string[];
}

/** Enough for every distinct scalar of a big open file and its neighbours; the oldest go first. */
const emitted = new BoundedMemo<string, Emitted>(20_000);
/** Keyed by everything the answer depends on: the value, key or not, strictness, the values read. */
const answers = new BoundedMemo<string, ScalarAfter>(20_000);

export function scalarAfterSubstitution(value: string, isKey: boolean, lookup: Lookup, strict: boolean): ScalarAfter {
  const document = emittedOf(value, isKey);
  // Read from the emitted text, not the value: quoting can change what an expression says.
  document.names ??= [...new Set(scanTemplate(document.text).expansions.flatMap((e) => e.names))];
  // The same value with the same variables gives the same answer: `${app_name}` in every
  // document of a file is worked out once per context.
  const key = JSON.stringify([isKey, strict, value, ...document.names.map((name) => lookup(name) ?? null)]);
  return answers.get(key, () => {
    const substituted = envsubst(document.text, lookup, { strict });
    if (substituted.kind !== 'output') return { kind: 'failed' };
    const block = isKey ? undefined : unchangedLiteralBlock(document.text, substituted.text, `${field}: `);
    return block !== undefined ? { kind: 'value', type: 'string', display: block } : read(substituted.text, isKey);
  });
}

function emittedOf(value: string, isKey: boolean): Emitted {
  return emitted.get(`${isKey ? 'k' : 'v'}${value}`, () => ({ text: emit(value, isKey) }));
}

/**
 * What a multi-line value arrives as, decided from its expansions alone when it is a literal
 * block whose every expansion sits inside one line and whose first and last lines are
 * anchored by text no expansion replaces: 'string' when each expansion yields one line of
 * ordinary characters, 'failed' when one fails to evaluate (strict mode, an unset variable),
 * which fails the whole substitution. Undefined means "ask scalarAfterSubstitution": most long
 * substituted values are such blocks (scripts, configs), and substituting and decoding each
 * of them in every context costs more than parsing the file.
 */
export function staysStringCheaply(value: string, scan: TemplateScan, lookup: Lookup, strict: boolean): 'string' | 'failed' | undefined {
  const block = blockExpansionsOf(value, scan);
  if (!block) return undefined;
  let verdict: 'string' | undefined = 'string';
  const judge = (text: string | undefined, expansion: Expansion): boolean => {
    if (text === undefined) {
      const result = evaluateExpansion(expansion, lookup, { strict });
      if (result.kind !== 'output') return false;
      text = result.text;
    }
    if (!oneOrdinaryLine.test(text)) verdict = undefined;
    return true;
  };
  for (let i = 0; i < block.names.length; i++) if (!judge(lookup(block.names[i]), block.named[i])) return 'failed';
  for (const expansion of block.others) if (!judge(undefined, expansion)) return 'failed';
  return verdict;
}

/**
 * The expansions of a simple literal block, which are the same in every render context: one
 * per bare `${NAME}` (a script repeats its few names many times), and the others, which have
 * operators and are evaluated each time.
 */
interface BlockExpansions {
  /** Each bare name once, with the first expansion that reads it (`named[i]` for `names[i]`). */
  names: string[];
  named: Expansion[];
  others: Expansion[];
}

/**
 * Asked once per render context of the same scalar, and again on every check of a document an
 * edit did not touch: the answer is kept with the scalar's scan (made once per scalar), so a
 * long value is not hashed into the memo by value each time.
 */
function blockExpansionsOf(value: string, scan: TemplateScan): BlockExpansions | undefined {
  // A scan without expansions may be shared by many values (the engine's one for values without `$`).
  if (scan.expansions.length === 0) return simpleBlockExpansions(value, scan);
  return blockExpansions.of(scan, () => simpleBlockExpansions(value, scan));
}

const blockExpansions = new Memo<TemplateScan, BlockExpansions | undefined>();

function simpleBlockExpansions(value: string, scan: TemplateScan): BlockExpansions | undefined {
  if (scan.nul !== undefined || !value.includes('\n')) return undefined;
  if (!(emitsSimpleLiteral(value) ?? emittedSimpleLiteral(value))) return undefined;
  const lastLine = value.lastIndexOf('\n', value.length - 2) + 1;
  let anchoredEnd = false;
  let from = lastLine;
  const names: string[] = [];
  const named: Expansion[] = [];
  const seen = new Set<string>();
  const others: Expansion[] = [];
  for (let i = 0; i < scan.expansions.length; i++) {
    const expansion = scan.expansions[i];
    // An expansion on the first column may start the block with a space; one that spans lines
    // reads a different default in the emitted text (its lines are indented there).
    const newline = value.indexOf('\n', expansion.start);
    if (expansion.start === 0 || (newline >= 0 && newline < expansion.end)) return undefined;
    if (expansion.end > lastLine) {
      anchoredEnd ||= /\S/.test(value.slice(from, Math.max(from, expansion.start)));
      from = Math.max(from, expansion.end);
    }
    const name = expansion.plainName;
    if (name === undefined) others.push(expansion);
    else if (!seen.has(name)) {
      seen.add(name);
      names.push(name);
      named.push(expansion);
    }
  }
  return anchoredEnd || /\S/.test(value.slice(from)) ? { names, named, others } : undefined;
}

/** The same question answered by writing the value (what emitsSimpleLiteral cannot decide). */
function emittedSimpleLiteral(value: string): boolean {
  const { text } = emittedOf(value, false);
  return unchangedLiteralBlock(text, text, `${field}: `) !== undefined;
}

/** What an expansion may yield without changing a literal block's lines (see block-literal.ts). */
const oneOrdinaryLine = /^[\t\x20-\x7e\xa0-\ud7ff\ue000-\ufefe\uff00-\ufffd]*$/;

function emit(value: string, isKey: boolean): string {
  const document = new GoMap(true);
  if (isKey) document.set(value, 'v');
  else document.set(field, value);
  return marshalYamlV2(document);
}

function read(text: string, isKey: boolean): ScalarAfter {
  const word = isKey ? undefined : plainWordAfter(text);
  if (word) return word;
  const read = yamlToJson(text);
  if (!read.ok) return { kind: 'broken', error: read.error };
  const root = read.value;
  if (!(root instanceof GoMap)) return { kind: 'broken', error: 'the document is no longer a map' };
  if (isKey) {
    // sigs.k8s.io/yaml turns every key into a string; what matters is that it is one key.
    return root.entries.length === 1 ? { kind: 'value', type: 'string', display: String(root.entries[0][0]) } : { kind: 'broken', error: 'the key turned into several entries' };
  }
  const result = root.get(field);
  return { kind: 'value', type: typeOf(result ?? null), display: display(result ?? null) };
}

/**
 * `k: ` and one plain word: a letter, digit or `_`, then also `.`, `/`, `-`, `=`, `@`, `+`,
 * and `:` inside the word (`: ` or a final `:` would end the scalar): names, numbers, flags,
 * image references, URLs without spaces.
 */
const plainWord = /^k: ([A-Za-z0-9_](?:[A-Za-z0-9_./=@+-]|:(?=[A-Za-z0-9_./=@+-]))*)\n$/;

/**
 * What the one-field document reads back as when the substituted value is a single plain word
 * (a name, a number, a flag: most substituted values), typed by go-yaml v2's resolver without
 * decoding the document; undefined for anything else. No such word is a float JSON rejects:
 * `.inf` and `.nan` start with a dot, and a number too large for a float stays a string. The
 * same answer as the decoder's (scalar-after.fast-paths.test.ts compares them).
 */
export function plainWordAfter(text: string): ScalarAfter | undefined {
  const word = plainWord.exec(text);
  if (!word) return undefined;
  const value = resolvePlainV2(word[1]);
  return { kind: 'value', type: typeOf(value), display: display(value) };
}

function typeOf(value: GoValue): JsonType {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'string') return 'string';
  if (value instanceof GoInt || value instanceof GoFloat) return 'number';
  if (Array.isArray(value)) return 'array';
  return 'object';
}

function display(value: GoValue): string {
  if (value === null) return 'null';
  if (value instanceof GoInt) return value.value.toString();
  if (value instanceof GoFloat) return String(value.value);
  if (typeof value === 'string' || typeof value === 'boolean') return String(value);
  return Array.isArray(value) ? '[…]' : '{…}';
}
