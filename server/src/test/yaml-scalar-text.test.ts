import * as assert from 'assert/strict';
import { isScalar, parseAllDocuments, visit, type Scalar } from 'yaml';
import { parseYamlFile } from '../core/yaml/document';
import { scalarsOf } from '../core/yaml/scalar-sites';
import { decodeScalar, linearRange, sourceRange, type ScalarStyle } from '../core/yaml/scalar-text';
import { generateManifest, random, SEED } from './support/generate';
import { fixtureYamlTexts } from './support/block-yaml-corpus';
import { assertScales } from './support/scaling';
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

  test('a site maps ranges without the offset map exactly as with it, on every fixture scalar and random ranges', () => {
    const next = random(0x5ca1);
    const texts = [...fixtureYamlTexts(), generateManifest(SEED ^ 1000, 1000), 'a: |2\n   x ${A}\n  y\n', 'b: >\n  x ${A}\n  y\n', 'c: "\\t${A}"\n', "d: 'it''s ${A}'\n", 'e: |\r\n  x ${A}\r\n  y\r\n', 'f: |\n\n  \n  x ${A}\n'];
    let linear = 0;
    for (const text of texts) {
      const file = parseYamlFile(text);
      for (const document of file.documents) {
        const fresh = scalarsOf(document, text);
        const decoded = scalarsOf(document, text);
        fresh.forEach((site, i) => {
          const n = site.value.length;
          for (let k = 0; k < 4 && n > 0; k++) {
            const from = Math.floor(next() * n);
            const to = from + 1 + Math.floor(next() * Math.min(8, n - from));
            const expected = sourceRange(decoded[i].text, from, to);
            const fast = linearRange(text, site.style, site.range, site.value, from, to);
            if (fast) {
              linear++;
              assert.deepEqual(fast, expected, `${JSON.stringify(text.slice(site.range.start, site.range.end))} [${from}, ${to})`);
            }
            assert.deepEqual(site.rangeOf(from, to), expected);
          }
        });
      }
    }
    assert.ok(linear > 1000, `only ${linear} ranges were linear`);
  });

  test('placing every run of a long script stays linear (the offset map takes over after a few)', () => {
    const load = () => ({ ...(require('../core/yaml/document') as typeof import('../core/yaml/document')), ...(require('../core/yaml/scalar-sites') as typeof import('../core/yaml/scalar-sites')) });
    assertScales('findings in one literal block', 500, load, (lines, { parseYamlFile, scalarsOf }) => {
      const text = `run.sh: |\n${'  echo $$ done\n'.repeat(lines)}`;
      return () => {
        const [, site] = scalarsOf(parseYamlFile(text).documents[0], text);
        for (let at = site.value.indexOf('$$'); at !== -1; at = site.value.indexOf('$$', at + 2)) site.rangeOf(at, at + 2);
      };
    });
  });
});
