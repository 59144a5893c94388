/**
 * parseYamlFile reads block-style YAML with the block-subset reader and everything else with
 * the full parser. Whatever it reads the fast way must be what the full parser gives: the
 * documents and their ranges, every node, no problems, and the same comments (suppressions and
 * the comment findings read them). Checked on every fixture file, on random block YAML, on
 * random edits of the fixtures and on the bench's generated manifests; each check also makes
 * sure the fast way takes most of what it is meant for, so it cannot pass by declining.
 */
import * as assert from 'assert/strict';
import { generateManifest, random, SEED } from './support/generate';
import { readBlockFile } from '../core/yaml/block-yaml';
import { parseFully, parseYamlFile } from '../core/yaml/document';
import { compareNodes, editedTexts, fixtureYamlTexts, randomBlockYaml, tally } from './support/block-yaml-corpus';

/** 'declined', 'same', or the first difference between the fast way and the full parser. */
function check(text: string): 'declined' | 'same' | string {
  if (!readBlockFile(text)) return 'declined';
  const fast = parseYamlFile(text);
  const full = parseFully(text);
  if (full.problems.length > 0) return `took a text the parser rejects: ${full.problems[0].message}`;
  if (fast.problems.length > 0) return `problems: ${fast.problems[0].message}`;
  if (fast.documents.length !== full.documents.length) return `${fast.documents.length} documents, expected ${full.documents.length}`;
  for (let i = 0; i < full.documents.length; i++) {
    const [a, b] = [fast.documents[i], full.documents[i]];
    if (String(a.range) !== String(b.range)) return `document ${i} range ${String(a.range)}, expected ${String(b.range)}`;
    if (a.directives.docStart !== b.directives.docStart) return `document ${i} docStart ${String(a.directives.docStart)}`;
    if (a.errors.length + a.warnings.length > 0) return `document ${i} has errors`;
    const difference = compareNodes(a.contents, b.contents, `document ${i}`);
    if (difference) return difference;
  }
  const comments = (file: typeof fast) => JSON.stringify(file.comments);
  if (comments(fast) !== comments(full)) return `comments ${comments(fast)}, expected ${comments(full)}`;
  if (fast.lineCounter.lineStarts.join() !== full.lineCounter.lineStarts.join()) return 'line starts';
  return 'same';
}

const fixtureTexts = fixtureYamlTexts();
const tallied = (texts: Iterable<string>) => tally(texts, check);

suite('parseYamlFile: the block-style fast way = the full parser', () => {
  test('on every fixture file, taking most of them', () => {
    const { same, declined, wrong } = tallied(fixtureTexts);
    assert.deepEqual(wrong, []);
    assert.ok(same >= 0.8 * (same + declined), `took ${same} of ${same + declined}`);
  });

  test('on random block YAML: comments anywhere, literals with `#` lines, markers', () => {
    const next = random(0xfa57);
    const { same, declined, wrong } = tallied(Array.from({ length: 3000 }, () => randomBlockYaml(next)));
    assert.deepEqual(wrong.slice(0, 3), []);
    assert.ok(same >= 0.2 * (same + declined), `took ${same} of ${same + declined}`);
  });

  test('on random edits of the fixtures', () => {
    const next = random(0xed18);
    const inserts = ['x', ' ', '\n', '"', "'", ':', '- ', '---\n', '\n---\n', '|', '|-', '|+', '#', ' #', ' # c', '\n  # c\n', '\n# c\n', '\n    #!/bin/sh\n', '${A}', ': ', '\n  ', '\n\n', '  ', '-'];
    const texts = editedTexts(next, fixtureTexts, inserts, 6000);
    const { same, declined, wrong } = tallied(texts);
    assert.deepEqual(wrong.slice(0, 3), []);
    assert.ok(same >= 0.2 * (same + declined), `took ${same} of ${same + declined}`);
  });

  test("on the bench's generated manifests, which it takes whole", () => {
    for (const lines of [1_000, 10_000]) assert.equal(check(generateManifest(SEED ^ lines, lines)), 'same');
  });

  test('comments: after values, keys, quotes, literal headers and entries; `#` lines inside a literal are its text', () => {
    const text = [
      '# before',
      'a: 1 # after a plain value',
      'b: "q"  # after a quote',
      'c: # after a key',
      '  d: x',
      'e: | # after a header',
      '  #!/bin/sh',
      '  # still the script',
      ' # out of it',
      'f:',
      '  - # before an entry',
      '    g: 1',
      '---',
      '# in the second document',
      'h: 2',
      '',
    ].join('\n');
    assert.equal(check(text), 'same');
    const comments = parseYamlFile(text).comments.map((c) => c.text);
    assert.deepEqual(comments, [' before', ' after a plain value', ' after a quote', ' after a key', ' after a header', ' out of it', ' before an entry', ' in the second document']);
  });

  test('leaves empty documents and other YAML to the full parser', () => {
    for (const text of ['', '# only a comment\n', 'a: 1\n---\n---\nb: 2\n', '---\n', 'a: [1]\n']) assert.equal(readBlockFile(text), undefined, JSON.stringify(text));
    assert.equal(parseYamlFile('a: [1\n').problems.length > 0, true);
  });
});
