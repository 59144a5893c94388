/**
 * Mutations of fixture YAML for fuzzing, as fast-check arbitraries: byte flips, truncation at
 * every class of offset, and insertions of what breaks scanners — `${`, `$$`, `{{`, tabs,
 * NUL, a BOM, CRLF line ends, lone surrogates, emoji, terminal escapes, deep indentation and
 * deep flow nesting.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as fc from 'fast-check';
import { loadCase } from './fixtures';
import { fixturesDir } from './paths';

/** A fixture repository: its files as the engine sees them (annotations stripped). */
export interface Repo {
  name: string;
  files: Record<string, string>;
}

/** Every rule case and Flux graph fixture under test-fixtures/, loaded once. */
export function loadRepos(): Repo[] {
  const repos: Repo[] = [];
  for (const group of ['rules', 'flux']) {
    const base = path.join(fixturesDir, group);
    for (const dir of subdirs(base)) {
      // A rule folder holds cases; a Flux fixture is itself a repository.
      const cases = group === 'rules' ? subdirs(dir) : [dir];
      for (const c of cases) {
        const { files } = loadCase(c);
        if (Object.keys(files).some((f) => /\.ya?ml$/.test(f))) repos.push({ name: path.relative(fixturesDir, c), files });
      }
    }
  }
  return repos;
}

function subdirs(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => path.join(dir, e.name))
    .sort();
}

export type Mutation =
  | { kind: 'flip'; at: number; code: number }
  | { kind: 'truncate'; at: number; near: string }
  | { kind: 'insert'; at: number; text: string }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'crlf' }
  | { kind: 'bom' }
  | { kind: 'indent'; at: number; depth: number }
  | { kind: 'nest'; at: number; depth: number };

/** Strings that break scanners and parsers when dropped anywhere. */
const hostile = ['${', '$$', '$${', '$$$${', '{{', '}}', '{{ .Values.x }}', '}', '\t', '\u0000', '\uFEFF', '\r', '\r\n', '\uD800', '\uDC00', '\uD83D', '${A:-${B', '${#}', '${A/', '&a ', '*a', '<<: *a', '? ', '- ', ': ', '#', '"', "'", '|', '>-', '---\n', '...\n', '%YAML 1.1\n', '!!binary ', '\\', '\u2028', '\u0085', 'é', '😀', '# 💡 ${', '\u001b]0;title\u0007', '\u202e'];

/** Characters a flip writes: controls, YAML indicators, dollars, braces, surrogate halves. */
const flipCodes = [0x00, 0x09, 0x0a, 0x0d, 0x20, 0x22, 0x23, 0x24, 0x26, 0x27, 0x2a, 0x2d, 0x3a, 0x3e, 0x7b, 0x7c, 0x7d, 0x7f, 0x85, 0xa0, 0xfeff, 0xd800, 0xdfff, 0xfffd];

/** Offset classes for truncation: where a cut is most likely to leave something half-written. */
const cutBefore = ['$', '{', '}', ':', '"', "'", '#', '\n', '-', '|', ' ', '\\'];

export function mutationArb(): fc.Arbitrary<Mutation> {
  // Offsets are fractions of the text length, so one arbitrary serves every file.
  const at = fc.integer({ min: 0, max: 1_000_000 });
  return fc.oneof(
    fc.record({ kind: fc.constant('flip' as const), at, code: fc.constantFrom(...flipCodes) }),
    fc.record({ kind: fc.constant('truncate' as const), at, near: fc.constantFrom(...cutBefore, '') }),
    fc.record({ kind: fc.constant('insert' as const), at, text: fc.oneof(fc.constantFrom(...hostile), fc.string({ maxLength: 6 })) }),
    fc.record({ kind: fc.constant('delete' as const), at, length: fc.integer({ min: 1, max: 40 }) }),
    fc.constant({ kind: 'crlf' as const }),
    fc.constant({ kind: 'bom' as const }),
    fc.record({ kind: fc.constant('indent' as const), at, depth: fc.integer({ min: 1, max: 400 }) }),
    fc.record({ kind: fc.constant('nest' as const), at, depth: fc.integer({ min: 1, max: 700 }) }),
  );
}

/** Applies one mutation; offsets scale to the text (and snap to a line start for indentation). */
export function mutate(text: string, m: Mutation): string {
  const offset = 'at' in m ? Math.floor((m.at / 1_000_001) * (text.length + 1)) : 0;
  switch (m.kind) {
    case 'flip':
      return text.slice(0, offset) + String.fromCharCode(m.code) + text.slice(offset + 1);
    case 'truncate': {
      // Cut just after the next occurrence of `near` (inside a token), or at the offset itself.
      const found = m.near === '' ? -1 : text.indexOf(m.near, offset);
      return text.slice(0, found >= 0 ? found + 1 : offset);
    }
    case 'insert':
      return text.slice(0, offset) + m.text + text.slice(offset);
    case 'delete':
      return text.slice(0, offset) + text.slice(offset + m.length);
    case 'crlf':
      return text.replace(/\r?\n/g, '\r\n');
    case 'bom':
      return '\uFEFF' + text;
    case 'indent': {
      const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
      return text.slice(0, lineStart) + ' '.repeat(m.depth) + text.slice(lineStart);
    }
    case 'nest':
      return text.slice(0, offset) + '['.repeat(m.depth) + '${x}' + ']'.repeat(m.depth) + text.slice(offset);
  }
}

/** A fixture repository with one of its YAML files mutated by a few mutations. */
export interface MutatedRepo {
  repo: Repo;
  file: string;
  files: Record<string, string>;
  mutations: Mutation[];
}

export function mutatedRepoArb(repos: readonly Repo[]): fc.Arbitrary<MutatedRepo> {
  return fc
    .record({ repo: fc.constantFrom(...repos), pick: fc.nat(), mutations: fc.array(mutationArb(), { minLength: 1, maxLength: 4 }) })
    .map(({ repo, pick, mutations }) => {
      const yaml = Object.keys(repo.files).filter((f) => /\.ya?ml$/.test(f));
      const file = yaml[pick % yaml.length];
      const text = mutations.reduce(mutate, repo.files[file]);
      // fast-check prints a counterexample with this: the case, not every file's text.
      const toString = () => `${repo.name} ${file} ${JSON.stringify(mutations)}`;
      return { repo, file, files: { ...repo.files, [file]: text }, mutations, [fc.toStringMethod]: toString };
    });
}
