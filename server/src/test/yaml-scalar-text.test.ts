import * as assert from 'assert/strict';
import { isScalar, parseAllDocuments, visit, type Scalar } from 'yaml';
import { parseYamlFile, scalarsOf } from '../core/yaml/document';
import { decodeScalar, sourceRange, type ScalarStyle } from '../core/yaml/scalar-text';
import { loadConformance } from './support/paths';

/** Decodes every string scalar of `source` ourselves and compares with the yaml package. */
function mismatches(source: string): string[] {
  const problems: string[] = [];
  for (const doc of parseAllDocuments(source, { keepSourceTokens: true })) {
    if (doc.errors.length > 0) continue;
    visit(doc, {
      Scalar(_key, node: Scalar) {
        if (typeof node.value !== 'string' || !node.range) return;
        const raw = source.slice(node.range[0], node.range[1]);
        const indent = (node.srcToken as { indent?: number } | undefined)?.indent ?? 0;
        const decoded = decodeScalar(raw, (node.type ?? 'PLAIN') as ScalarStyle, node.range[0], indent).value;
        if (decoded !== node.value) problems.push(`${JSON.stringify(raw)}: got ${JSON.stringify(decoded)}, want ${JSON.stringify(node.value)}`);
      },
    });
  }
  return problems;
}

suite('scalar text: decoded values with source offsets', () => {
  test('decodes every string scalar of the pipeline vectors as the yaml package does', () => {
    const rows = loadConformance<{ source: string }>('pipeline/pipeline.jsonl');
    const problems = rows.flatMap((row) => mismatches(row.source));
    assert.deepEqual(problems.slice(0, 20), []);
  });

  test('decodes folding, escapes, chomping and indentation indicators', () => {
    const source = [
      'plain: one\n  two\n\n  three',
      'single: \'it\'\'s\n  folded\'',
      'double: "tab\\tesc \\u00e9 \\x41\\\n    joined"',
      'literal: |\n  a\n\n  b\n\n',
      'keep: |+\n  a\n\n',
      'strip: >-\n  a\n  b\n\n  c\n    more\n  d\n',
      'explicit: |2\n   indented\n  x\n',
      'nested:\n  - key: >1\n      x\n',
      'crlf: "a\r\n  b"',
    ].join('\n');
    assert.deepEqual(mismatches(source + '\n'), []);
  });

  test('maps a ${VAR} inside a double-quoted scalar with escapes to its source columns', () => {
    const text = 'value: "\\u00e9 ${VAR}"\n';
    const file = parseYamlFile(text);
    const site = [...scalarsOf(file.documents[0], text)].find((s) => !s.isKey);
    assert.ok(site);
    const at = site.text.value.indexOf('${VAR}');
    const range = sourceRange(site.text, at, at + '${VAR}'.length);
    assert.equal(text.slice(range.start, range.end), '${VAR}');
  });

  test('maps a token in the second line of a literal block to its source columns', () => {
    const text = 'data:\n  run.sh: |\n    echo one\n    echo $$ ${X}\n';
    const file = parseYamlFile(text);
    const site = [...scalarsOf(file.documents[0], text)].find((s) => !s.isKey && isScalar(s.node) && s.path.join('.') === 'data.run.sh');
    assert.ok(site);
    const at = site.text.value.indexOf('$$');
    const range = sourceRange(site.text, at, at + 2);
    assert.equal(range.start, text.indexOf('$$'));
    assert.equal(text.slice(range.start, range.end), '$$');
  });
});
