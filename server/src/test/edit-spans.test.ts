/**
 * The server keeps each keystroke's span for the engine (lsp/edit-spans.ts). Driven through
 * TextDocuments' own configuration with random changes: ranged ones anywhere (reversed,
 * past the end of a line or of the text, across CRLF), several at once, and whole texts.
 */
import * as assert from 'assert/strict';
import type { TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';
import { random, SEED } from './support/generate';
import { spanOf } from '../core/workspace/text-change';
import { EditSpans } from '../lsp/edit-spans';

const pieces = ['a', 'key: value', '\n', '\r\n', '  - x\n', '', '${VAR}', 'é', '😀'];

suite('edit spans from the editor', () => {
  test('a ranged change gives the span TextDocument applied; other changes give none', () => {
    const next = random(SEED ^ 0xed17);
    const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
    const spans = new EditSpans();
    let document = spans.documents.create('file:///a.yaml', 'yaml', 1, 'a: 1\r\nb: 2\nc: 3\n');
    const counts = { ranged: 0, other: 0 };
    for (let version = 2; version < 400; version++) {
      const before = document.getText();
      const lines = before.split('\n').length;
      const position = () => ({ line: Math.floor(next() * (lines + 1)), character: Math.floor(next() * 12) });
      const ranged = (): TextDocumentContentChangeEvent => ({ range: { start: position(), end: position() }, text: Array.from({ length: Math.floor(next() * 3) }, () => pick(pieces)).join('') });
      const kind = next();
      const changes = kind < 0.8 ? [ranged()] : kind < 0.9 ? [ranged(), ranged()] : [{ text: pick(pieces).repeat(3) }];
      document = spans.documents.update(document, changes, version);
      const after = document.getText();
      const edit = spans.take(document);
      if (changes.length === 1 && 'range' in changes[0]) {
        counts.ranged++;
        assert.ok(edit, `version ${version}: a ranged change has a span`);
        assert.equal(edit.before, before);
        const { start, oldEnd, newEnd } = edit.span;
        assert.equal(before.slice(0, start) + after.slice(start, newEnd) + before.slice(oldEnd), after, `version ${version}`);
        assert.equal(after.slice(start, newEnd), changes[0].text);
        assert.equal(spanOf(edit, before, after), edit.span, 'the engine takes it');
      } else {
        counts.other++;
        assert.equal(edit, undefined, `version ${version}: no span for ${changes.length} changes`);
      }
      assert.equal(spans.take(document), undefined, 'a span is taken once');
    }
    assert.ok(counts.ranged > 200 && counts.other > 40, JSON.stringify(counts));
  });

  test("a span is not given for another document, nor once that document moved on without one", () => {
    const spans = new EditSpans();
    const first = spans.documents.create('file:///a.yaml', 'yaml', 1, 'a: 1\n');
    const second = spans.documents.create('file:///b.yaml', 'yaml', 1, 'b: 1\n');
    spans.documents.update(first, [{ range: { start: { line: 0, character: 3 }, end: { line: 0, character: 4 } }, text: '2' }], 2);
    assert.equal(spans.take(second), undefined);
    spans.documents.update(first, [{ range: { start: { line: 0, character: 3 }, end: { line: 0, character: 4 } }, text: '3' }], 3);
    spans.documents.update(first, [{ text: 'a: 4\n' }], 4);
    assert.equal(spans.take(first), undefined);
  });

  test('the engine ignores a span whose text before is not the one it has, or whose lengths do not add up', () => {
    const span = { start: 1, oldEnd: 2, newEnd: 2 };
    assert.equal(spanOf({ before: 'abc', span }, 'abc', 'axc'), span);
    assert.equal(spanOf({ before: 'abd', span }, 'abc', 'axc'), undefined);
    assert.equal(spanOf({ before: 'abc', span: { start: 1, oldEnd: 2, newEnd: 3 } }, 'abc', 'axc'), undefined);
    assert.equal(spanOf({ before: 'abc', span: { start: 2, oldEnd: 1, newEnd: 1 } }, 'abc', 'abc'), undefined);
    assert.equal(spanOf(undefined, 'abc', 'axc'), undefined);
  });
});
