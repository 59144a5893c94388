/**
 * LineIndex gives the positions LSP's TextDocument gives: the server converts a document's
 * first findings with it (lsp/convert.ts), every later version with TextDocument's own.
 */
import * as assert from 'assert/strict';
import * as fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LineIndex } from '../core/positions';

function samePositions(text: string): void {
  const document = TextDocument.create('file:///a.yaml', 'yaml', 1, text);
  const index = new LineIndex(text);
  for (let offset = -2; offset <= text.length + 2; offset++) assert.deepEqual(index.positionAt(offset), document.positionAt(offset), `offset ${offset} of ${JSON.stringify(text)}`);
  assert.equal(index.lineCount, document.lineCount, `line count of ${JSON.stringify(text)}`);
}

suite('LineIndex', () => {
  test('line breaks of every kind, offsets inside a CRLF and outside the text', () => {
    for (const text of ['', 'a', 'a\n', 'a\nb', 'a\r\nb', 'a\rb', '\r', '\r\n', '\r\r\n', '\n\r', 'x\r\n\r\ny\r', 'key: 😀\r\nnext: 1\n']) samePositions(text);
  });

  test('random texts of letters, spaces, line breaks and astral characters', () => {
    const unit = fc.constantFrom('a', ' ', '\n', '\r', '\r\n', '😀', '$');
    fc.assert(fc.property(fc.array(unit, { maxLength: 40 }), (units) => samePositions(units.join(''))), { numRuns: 500 });
  });
});
