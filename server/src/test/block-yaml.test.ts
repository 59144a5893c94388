/**
 * The block-subset reader (yaml/block-yaml.ts) stands in for the full parser when the
 * Flux graph reads a file: whenever it takes a text, its nodes must be the full parser's —
 * values, types, sources and every range — and whatever it is not sure of it must leave.
 * Checked on every fixture file, on random block YAML and on random edits of the fixtures;
 * each check also makes sure the reader takes most of what it is meant for, so it cannot pass
 * by declining everything.
 */
import * as assert from 'assert/strict';
import { random } from './support/generate';
import { readBlockYaml } from '../core/yaml/block-yaml';
import { parseYamlFile } from '../core/yaml/document';
import { compareNodes, editedTexts, fixtureYamlTexts, randomBlockYaml, tally } from './support/block-yaml-corpus';

/** 'declined', 'same', or the first difference between the reader and the full parser. */
function check(text: string): 'declined' | 'same' | string {
  const documents = readBlockYaml(text);
  if (!documents) return 'declined';
  const full = parseYamlFile(text);
  if (full.problems.length > 0) return `took a text the parser rejects: ${full.problems[0].message}`;
  if (documents.length !== full.documents.length) return `${documents.length} documents, expected ${full.documents.length}`;
  for (let i = 0; i < documents.length; i++) {
    const expected = full.documents[i].contents;
    // An empty document's null scalar ends where the parser's bookkeeping puts it; only its start is used.
    const empty = expected !== null && documents[i] !== null && (expected as { value?: unknown }).value === null && !('items' in expected);
    const difference = compareNodes(documents[i], expected, `document ${i}`, empty);
    if (difference) return difference;
  }
  return 'same';
}

const fixtureTexts = fixtureYamlTexts();
const tallied = (texts: Iterable<string>) => tally(texts, check);

suite('block-subset YAML reader = the full parser', () => {
  test('on every fixture file, taking most of them', () => {
    const { same, declined, wrong } = tallied(fixtureTexts);
    assert.deepEqual(wrong, []);
    assert.ok(same >= 0.85 * (same + declined), `took ${same} of ${same + declined}`);
  });

  test('on random block YAML: nesting, quoting, literals, empty values, comments anywhere, markers', () => {
    const next = random(0xb10c);
    const texts = Array.from({ length: 3000 }, () => randomBlockYaml(next));
    const { same, declined, wrong } = tallied(texts);
    assert.deepEqual(wrong.slice(0, 3), []);
    assert.ok(same >= 0.25 * (same + declined), `took ${same} of ${same + declined}`);
  });

  test('on random edits of the fixtures (quotes, indicators, markers, comments, indentation)', () => {
    const next = random(0xed17);
    const inserts = ['x', ' ', '\n', '"', "'", '[', ']', '{', '}', ':', '- ', '---\n', '\n---\n', '...\n', '|', '|-', '|+', '>-', '#', ' #', '&a ', '*a', '!!str ', '%YAML 1.2\n', '${A}', ': ', '\n  ', '\n    # c\n', '\n# c\n', '\n\n', '  ', '-', "''", '""', '~', 'null', '1', '\t', '\r\n'];
    const texts = editedTexts(next, fixtureTexts, inserts, 6000);
    const { same, declined, wrong } = tallied(texts);
    assert.deepEqual(wrong.slice(0, 3), []);
    assert.ok(same >= 0.2 * (same + declined), `took ${same} of ${same + declined}`);
  });

  test('takes the shapes kustomization files and Flux objects are written in', () => {
    const shapes = [
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: vars # the cluster settings\n  namespace: flux-system\ndata:\n  a: "1"\n  b: \'it\'\'s\'\n  c: |\n    line\n\n    more\n  d: |-\n    x\n  e:\n',
      'resources:\n  - ../base\n  # - ../disabled\n  - app.yaml\npatches:\n  - path: patch.yaml\n    target:\n      kind: Deployment\n  - patch: |\n      - op: add\n        path: /data/x\n        value: y\n    target:\n      kind: ConfigMap\n',
      'resources:\n- a.yaml\n- b.yaml\n',
      '---\napiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nspec:\n  postBuild:\n    substitute:\n      cluster: prod\n    substituteFrom:\n      - kind: ConfigMap\n        name: vars\n        optional: true\n---\n',
      'a: 1\n  # an indented comment belongs to the value\nb: 2\n',
      'm:\n  a: 1\n  # stays with the inner map\n# top\nb: 2\n',
      'k: |+\n  kept\n\n\nz: 1',
      'list:\n  - a\n\n  - b\n\n# trailing\n',
    ];
    for (const text of shapes) assert.equal(check(text), 'same', text);
  });

  test('leaves to the full parser what it does not model', () => {
    const others = ['a: [1, 2]\n', 'a: {b: c}\n', 'a: &x 1\nb: *x\n', 'a: !!str 1\n', 'a: >\n  folded\n', 'a: "multi\n  line"\n', 'a: plain\n  continued\n', 'a:\tb\n', 'a: b\r\n', '%YAML 1.2\n---\na: 1\n', 'a: 1\n...\n', '? a\n: b\n', 'a: "esc\\n"\n', 'a: |2\n   x\n', '- - nested\n', 'a: b: c\n'];
    for (const text of others) assert.equal(readBlockYaml(text), undefined, text);
  });
});
