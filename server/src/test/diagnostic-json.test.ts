/**
 * The stdio transport's encoder (runtime/diagnostic-json.ts) writes what vscode-jsonrpc's own
 * encoder writes — JSON.stringify of the message, in UTF-8 — byte for byte, while it writes
 * kept diagnostics from bytes made at an earlier publish. (incremental-staleness.test.ts
 * holds it to a fresh check after random edits.)
 */
import * as assert from 'assert/strict';
import * as fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic, DiagnosticRelatedInformation, Message } from 'vscode-languageserver/node';
import { toDiagnostics } from '../lsp/convert';
import { diagnosticBody, encodeMessage, publishedDiagnostic } from '../runtime/diagnostic-json';
import { FixStore } from '../lsp/fix-store';
import type { Finding } from '../core/model';

const uri = 'file:///repo/apps/app.yaml';
const file = 'apps/app.yaml';

function publish(diagnostics: Diagnostic[], version: number | null): Message {
  return { jsonrpc: '2.0', method: 'textDocument/publishDiagnostics', params: { uri, version, diagnostics } } as Message;
}

/** What vscode-jsonrpc's default encoder writes. */
const standard = (message: Message) => Buffer.from(JSON.stringify(message, undefined, 0), 'utf-8');

function finding(start: number, end: number, message: string, fixes = 0): Finding {
  return {
    rule: 'DOLLAR-COLLAPSE',
    severity: 'warning',
    file,
    range: { start, end },
    message,
    related: [{ file: 'clusters/dev/apps.yaml', range: { start: 0, end: 10 }, message: 'substituted by Kustomization apps in cluster dev' }],
    fixes: Array.from({ length: fixes }, (_, i) => ({ title: `fix ${i}`, edits: [{ file, range: { start: end, end }, newText: '$$' }] })),
  } as Finding;
}

suite('the stdio encoder of diagnostics', () => {
  const text = 'data:\n  a: echo $$\n  b: "ünïcödé $$ ✓"\n';
  const textOf = (other: string) => (other === file ? text : 'apiVersion: kustomize.toolkit.fluxcd.io/v1\n');
  const uriOf = (other: string) => `file:///repo/${other}`;

  test('writes JSON.stringify of every message, byte for byte: other methods, requests, non-ASCII text', () => {
    const messages = [
      { jsonrpc: '2.0', id: 3, result: { contents: { kind: 'markdown', value: 'ü ✓ `$$`' } } },
      { jsonrpc: '2.0', method: 'window/logMessage', params: { type: 3, message: 'checked' } },
      publish([], 4),
      publish([{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, message: 'made elsewhere ✓' }], null),
    ] as Message[];
    for (const message of messages) assert.deepEqual(Buffer.from(encodeMessage(message)), standard(message));
  });

  test('kept findings: the same bytes as a fresh conversion, at each version, as they move', () => {
    const document = (version: number, body: string) => TextDocument.create(uri, 'yaml', version, body);
    const kept = [finding(14, 16, 'a `$$` ✓', 2), finding(29, 31, 'b `$$` — ünïcödé', 0)];
    const store = new FixStore();
    let current = text;
    for (let version = 1; version <= 4; version++) {
      const diagnostics = toDiagnostics(document(version, current), kept, version, store, uriOf, textOf);
      const fresh = toDiagnostics(
        document(version, current),
        kept.map((f) => ({ ...f, related: f.related.map((r) => ({ ...r })) })),
        version,
        new FixStore(),
        uriOf,
        textOf,
      );
      assert.deepEqual(Buffer.from(encodeMessage(publish(diagnostics, version))), standard(publish(fresh, version)), `version ${version}`);
      // The next version gains a line above both findings: their positions move, their offsets too.
      current = `# v${version}\n${current}`;
      for (const f of kept) f.range = { start: f.range.start + 5, end: f.range.end + 5 };
    }
  });

  test('random findings: escapes, non-ASCII, lone surrogates, with and without fixes, republished and under another URI', () => {
    const odd = 'data:\n  a: "\u{1F600} $$"\n  b: "\ud800 lone"\n  c: ünï\n';
    const oddText = (other: string) => (other === file ? odd : 'k: \u{1F600}\nx: y\n');
    const chars = fc.string({ unit: fc.constantFrom('a', '"', '\\', '\n', '\u0000', 'ü', '\u{1F600}', '\ud800', '\udfff', '\u2028', '$') });
    const spec = fc.record({ start: fc.nat(odd.length), length: fc.nat(5), message: chars, related: chars, fixes: fc.nat(2) });
    fc.assert(
      fc.property(fc.array(spec, { maxLength: 8 }), (specs) => {
        const findings = specs.map((x) => {
          const f = finding(x.start, Math.min(x.start + x.length, odd.length), x.message, x.fixes);
          return { ...f, related: [{ ...f.related[0], file: 'clusters/dev/ü.yaml', message: x.related }] };
        });
        const store = new FixStore();
        for (let version = 1; version <= 2; version++) {
          for (const target of [uri, 'file:///other/%C3%BC.yaml']) {
            const diagnostics = toDiagnostics(TextDocument.create(target, 'yaml', version, odd), findings, version, store, uriOf, oddText);
            const message = { ...publish(diagnostics, version), params: { uri: target, version, diagnostics } } as Message;
            assert.deepEqual(Buffer.from(encodeMessage(message)), standard(message));
          }
        }
      }),
      { numRuns: 200, seed: 20261203 },
    );
  });

  test('a copy of a published diagnostic with a field added is written with that field', () => {
    const [plain, withFixes] = toDiagnostics(TextDocument.create(uri, 'yaml', 1, text), [finding(14, 16, 'no fixes'), finding(29, 31, 'fixes', 1)], 1, new FixStore(), uriOf, textOf);
    // Spread copies the symbol that names the body: the copies must not pass for their bodies.
    const tagged = [{ ...plain, tags: [1] }, { ...withFixes, tags: [1] }] as Diagnostic[];
    assert.deepEqual(Buffer.from(encodeMessage(publish(tagged, 1))), standard(publish(tagged, 1)));
  });

  test('a published diagnostic changed after conversion is written as it now is', () => {
    const diagnostics = toDiagnostics(TextDocument.create(uri, 'yaml', 1, text), [finding(14, 16, 'before', 1)], 1, new FixStore(), uriOf, textOf);
    encodeMessage(publish(diagnostics, 1));
    diagnostics[0].message = 'after';
    const written = Buffer.from(encodeMessage(publish(diagnostics, 1))).toString('utf-8');
    assert.equal(written, JSON.stringify(publish(diagnostics, 1)));
    assert.match(written, /"message":"after"/);
  });

  test('shared parts are kept as text only when nothing in them can change: a body made another way is written as it is', () => {
    const range = Object.freeze({ start: Object.freeze({ line: 0, character: 0 }), end: Object.freeze({ line: 0, character: 1 }) });
    const location = { uri: 'file:///repo/a.yaml', range };
    // Frozen on top, not below: its text must not be kept.
    const related = Object.freeze({ location, message: 'substituted by Kustomization apps in cluster dev' });
    const fields = { range, severity: 2 as const, source: 'render-lens', code: 'DOLLAR-COLLAPSE', message: 'm', relatedInformation: Object.freeze([related]) as unknown as DiagnosticRelatedInformation[] };
    const body = diagnosticBody({ ...fields, codeDescription: Object.freeze({ href: 'https://example.com/rule' }) });
    const first = publish([publishedDiagnostic(body, { version: 1 })], 1);
    assert.deepEqual(Buffer.from(encodeMessage(first)), standard(first));
    location.uri = 'file:///repo/b.yaml';
    const other = diagnosticBody({ ...fields, codeDescription: Object.freeze({ href: 'https://example.com/other' }) });
    const second = publish([publishedDiagnostic(other, { version: 2 })], 2);
    assert.deepEqual(Buffer.from(encodeMessage(second)), standard(second));
    // Not an object at all: no throw, the same bytes as JSON.stringify.
    const bare = diagnosticBody({ ...fields, codeDescription: null as unknown as { href: string }, relatedInformation: [undefined as unknown as DiagnosticRelatedInformation] });
    const third = publish([bare.diagnostic as Diagnostic], 3);
    assert.deepEqual(Buffer.from(encodeMessage(third)), standard(third));
  });
});
