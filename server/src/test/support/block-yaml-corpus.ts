/**
 * Inputs for checking the block-subset reader (yaml/block-yaml.ts) against the full
 * parser: random block YAML from a small grammar — nested maps and sequences, plain, quoted
 * and literal scalars, empty values, comment lines at every indentation, blank lines and
 * document markers —, random edits of the fixture files, a comparison of two node trees that
 * reports the first difference, and a tally of a check over many texts.
 */
import { isMap, isPair, isScalar, isSeq, type Node } from 'yaml';
import { loadRepos } from './mutations';

type Random = () => number;

const words = ['a', 'name', 'app.kubernetes.io/name', 'kustomize.toolkit.fluxcd.io/substitute', 'x-y', 'KEY_1', 'path', 'data', 'spec', 'true', 'null', '~', '1', '0x1F', '0o17', '1e3', '.inf', '-1', '+2', '3.50', '.5', 'yes', 'No', 'https://example.com/a?b=c', '${VAR}', '$${HOME}', 'a#b', 'a,b', '[x', 'x]', '-x', ':x', '?x', 'a b', 'é', '😀'];
const quoted = ['""', "''", '"a b"', "'it''s'", '"${x}"', "'#'", '"a: b"', "'- x'", '"\\n"', "'a''''b'"];
const commentTexts = ['# c', '#', '# a: b', '# - x', '#: x'];

export function randomBlockYaml(next: Random): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  const lines: string[] = [];
  const pad = (n: number) => ' '.repeat(n);
  const maybeNoise = (indent: number) => {
    while (next() < 0.15) {
      const r = next();
      if (r < 0.4) lines.push(r < 0.2 ? '' : pad(Math.floor(next() * (indent + 4))));
      else lines.push(pad(Math.max(0, indent + Math.floor(next() * 5) - 2)) + pick(commentTexts));
    }
  };
  const tail = () => (next() < 0.15 ? `${pad(1 + Math.floor(next() * 2))}${pick(commentTexts)}` : next() < 0.05 ? '  ' : '');
  const scalar = () => {
    const r = next();
    if (r < 0.6) return pick(words);
    if (r < 0.9) return pick(quoted);
    return `${pick(words)} ${pick(words)}`;
  };
  const literal = (indent: number) => {
    const header = `|${pick(['', '-', '+', '', ''])}${next() < 0.1 ? ' # c' : ''}`;
    const content = indent + 1 + Math.floor(next() * 3);
    const body: string[] = [];
    const count = 1 + Math.floor(next() * 4);
    for (let i = 0; i < count; i++) {
      const r = next();
      if (r < 0.15) body.push('');
      else if (r < 0.2) body.push(pad(content - 1));
      else if (r < 0.25) body.push(pad(content + 2));
      else body.push(pad(content + (next() < 0.2 ? 2 : 0)) + pick(['echo ${A}', '# not a comment', 'x: y', '- z', '"q"', 'plain']));
    }
    if (next() < 0.3) body.push('');
    return { header, body };
  };
  const node = (indent: number, depth: number): void => {
    const asSeq = next() < 0.35;
    const count = 1 + Math.floor(next() * 4);
    for (let i = 0; i < count; i++) {
      maybeNoise(indent);
      const lead = asSeq ? `${pad(indent)}-` : `${pad(indent)}${next() < 0.1 ? pick(quoted) : pick(words)}:`;
      const r = next();
      if (depth < 4 && r < 0.3) {
        if (asSeq && next() < 0.5) {
          // A compact map on the entry's line.
          lines.push(`${lead} ${pick(words)}: ${scalar()}${tail()}`);
          const inner = indent + 2;
          const more = Math.floor(next() * 3);
          for (let j = 0; j < more; j++) {
            maybeNoise(inner);
            lines.push(`${pad(inner)}${pick(words)}: ${scalar()}${tail()}`);
          }
        } else {
          lines.push(lead + tail());
          maybeNoise(indent);
          // A map value may be a sequence at the map's own indent.
          const sequenceAtSameIndent = !asSeq && next() < 0.2;
          node(sequenceAtSameIndent ? indent : indent + 1 + Math.floor(next() * 3), depth + 1);
        }
      } else if (r < 0.4) {
        const { header, body } = literal(indent);
        lines.push(`${lead} ${header}`);
        lines.push(...body);
      } else if (r < 0.47) {
        lines.push(lead + (next() < 0.5 ? '' : ' ') + tail());
      } else {
        lines.push(`${lead} ${scalar()}${tail()}`);
      }
    }
  };
  const documents = 1 + Math.floor(next() * 3);
  for (let d = 0; d < documents; d++) {
    if (d > 0 || next() < 0.2) lines.push('---');
    maybeNoise(0);
    if (next() < 0.05) continue;
    node(0, 0);
    maybeNoise(0);
  }
  const text = lines.join('\n');
  return next() < 0.8 ? `${text}\n` : text;
}

/** The first difference between two node trees (values, types, ranges, shape), or undefined. */
export function compareNodes(a: unknown, b: unknown, path = '$', emptyDocument = false): string | undefined {
  if (isScalar(a) && isScalar(b)) {
    const same = Object.is(a.value, b.value) || (typeof a.value === 'number' && typeof b.value === 'number' && Number.isNaN(a.value) && Number.isNaN(b.value));
    if (!same) return `${path}: value ${JSON.stringify(a.value)}, expected ${JSON.stringify(b.value)}`;
    if (a.type !== b.type) return `${path}: type ${a.type}, expected ${b.type}`;
    if (a.source !== b.source) return `${path}: source ${JSON.stringify(a.source)}, expected ${JSON.stringify(b.source)}`;
    if (a.format !== b.format) return `${path}: format ${a.format}, expected ${b.format}`;
    return compareRange(a as Node, b as Node, path, emptyDocument ? 2 : 3);
  }
  if ((isMap(a) && isMap(b)) || (isSeq(a) && isSeq(b))) {
    const items = [a.items, b.items] as unknown[][];
    if (items[0].length !== items[1].length) return `${path}: ${items[0].length} items, expected ${items[1].length}`;
    for (let i = 0; i < items[0].length; i++) {
      const [x, y] = [items[0][i], items[1][i]];
      if (isPair(x) && isPair(y)) {
        const keyDiff = compareNodes(x.key, y.key, `${path}.key${i}`);
        if (keyDiff) return keyDiff;
        const valueDiff = compareNodes(x.value, y.value, `${path}.${isScalar(y.key) ? String(y.key.value) : i}`);
        if (valueDiff) return valueDiff;
      } else {
        const diff = compareNodes(x, y, `${path}[${i}]`);
        if (diff) return diff;
      }
    }
    return compareRange(a as Node, b as Node, path, 3);
  }
  if ((a === null || a === undefined) && (b === null || b === undefined)) return undefined;
  return `${path}: ${describe(a)}, expected ${describe(b)}`;
}

function compareRange(a: Node, b: Node, path: string, parts: number): string | undefined {
  const [x, y] = [a.range ?? [], b.range ?? []];
  for (let i = 0; i < parts; i++) if (x[i] !== y[i]) return `${path}: range ${JSON.stringify(x)}, expected ${JSON.stringify(y)}`;
  return undefined;
}

function describe(node: unknown): string {
  if (node === null || node === undefined) return String(node);
  return isMap(node) ? 'a map' : isSeq(node) ? 'a sequence' : isScalar(node) ? 'a scalar' : typeof node;
}

/** Every YAML file of the fixture repositories. */
export function fixtureYamlTexts(): string[] {
  return loadRepos().flatMap((repo) => Object.entries(repo.files).filter(([file]) => /\.ya?ml$/.test(file)).map(([, text]) => text));
}

/** `count` fixture texts, each with one to three random edits (an insert from `inserts`, maybe a removal). */
export function editedTexts(next: Random, texts: readonly string[], inserts: readonly string[], count: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let text = texts[Math.floor(next() * texts.length)];
    for (let edits = 1 + Math.floor(next() * 3); edits > 0; edits--) {
      const at = Math.floor(next() * (text.length + 1));
      const removed = next() < 0.4 ? Math.floor(next() * 6) : 0;
      text = text.slice(0, at) + inserts[Math.floor(next() * inserts.length)] + text.slice(at + removed);
    }
    out.push(text);
  }
  return out;
}

/** How a check ('same', 'declined' or a difference) went over `texts`; a difference comes with its text. */
export function tally(texts: Iterable<string>, check: (text: string) => string): { same: number; declined: number; wrong: string[] } {
  const result = { same: 0, declined: 0, wrong: [] as string[] };
  for (const text of texts) {
    const outcome = check(text);
    if (outcome === 'same') result.same++;
    else if (outcome === 'declined') result.declined++;
    else result.wrong.push(`${outcome}\n${JSON.stringify(text.slice(0, 400))}`);
  }
  return result;
}
