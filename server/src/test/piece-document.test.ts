/**
 * The server's open documents (lsp/piece-document.ts) against vscode-languageserver-textdocument's,
 * on the same random changes: ranged ones anywhere (reversed, past the end of a line or of the
 * text, splitting or joining `\r\n`), several at once, whole texts, and bursts typed in one
 * place in a big text. Text, line count, offsets and positions must agree after each change.
 */
import * as assert from 'assert/strict';
import { TextDocument, type TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';
import { random, SEED } from './support/generate';
import { PieceDocument } from '../lsp/piece-document';

const pieces = ['a', 'key: value', '\n', '\r\n', '\r', '  - x\n', '', '${VAR}', 'é', '😀', 'long line '.repeat(40)];

function assertSame(ours: PieceDocument, theirs: TextDocument, where: string): void {
  assert.equal(ours.version, theirs.version, where);
  assert.equal(ours.lineCount, theirs.lineCount, `${where}: line count`);
  const text = theirs.getText();
  for (let offset = -1; offset <= text.length + 1; offset += 1 + Math.floor(text.length / 40)) assert.deepEqual(ours.positionAt(offset), theirs.positionAt(offset), `${where}: positionAt(${offset})`);
  for (let line = -1; line <= theirs.lineCount; line++) {
    for (const character of [-1, 0, 1, 3, 200]) assert.equal(ours.offsetAt({ line, character }), theirs.offsetAt({ line, character }), `${where}: offsetAt(${line}:${character})`);
    assert.deepEqual(ours.getLineRange(line), theirs.getLineRange(line), `${where}: getLineRange(${line})`);
    assert.equal(ours.getEOLCharacters(line), theirs.getEOLCharacters(line), `${where}: getEOLCharacters(${line})`);
  }
  assert.equal(ours.getText(), text, `${where}: text`);
}

suite('open documents', () => {
  test('random changes give the text, lines, offsets and positions TextDocument gives', () => {
    const next = random(SEED ^ 0x91ece);
    const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
    const start = 'a: 1\r\nb: 2\nc: 3\r\rd: 4\n';
    const ours = new PieceDocument('file:///a.yaml', 'yaml', 1, start);
    let theirs = TextDocument.create('file:///a.yaml', 'yaml', 1, start);
    for (let version = 2; version < 600; version++) {
      const lines = theirs.lineCount;
      const position = () => ({ line: Math.floor(next() * (lines + 2)) - 1, character: Math.floor(next() * 14) - 1 });
      const ranged = (): TextDocumentContentChangeEvent => ({ range: { start: position(), end: position() }, text: Array.from({ length: Math.floor(next() * 3) }, () => pick(pieces)).join('') });
      const kind = next();
      const changes = kind < 0.8 ? [ranged()] : kind < 0.95 ? [ranged(), ranged(), ranged()] : [{ text: pick(pieces).repeat(3) }];
      ours.update(changes, version);
      theirs = TextDocument.update(theirs, changes, version);
      // Read back only now and then: between reads, the pieces and line starts keep up on their own.
      if (version % 7 === 0 || kind >= 0.95) assertSame(ours, theirs, `version ${version}`);
    }
    assertSame(ours, theirs, 'at the end');
  });

  test('a burst typed in one line of a big text, read once at its end', () => {
    const big = Array.from({ length: 3000 }, (_, i) => `    line ${i}: echo "\${VAR_${i % 7}}"`).join('\n') + '\n';
    const ours = new PieceDocument('file:///b.yaml', 'yaml', 1, big);
    let theirs = TextDocument.create('file:///b.yaml', 'yaml', 1, big);
    let column = 10;
    for (let version = 2; version < 1200; version++) {
      const at = { line: 1500, character: column };
      const change = version % 50 === 0 ? { range: { start: { line: 1500, character: column - 3 }, end: at }, text: '' } : { range: { start: at, end: at }, text: version % 97 === 0 ? '\n' : 'x' };
      column = version % 50 === 0 ? column - 3 : version % 97 === 0 ? 0 : column + 1;
      ours.update([change], version);
      theirs = TextDocument.update(theirs, [change], version);
    }
    assertSame(ours, theirs, 'after the burst');
  });
});
