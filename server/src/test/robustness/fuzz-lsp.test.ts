/**
 * Fuzzing the running server: mutated fixture YAML sent as editor buffers (didOpen, then
 * didChange) to the built server over stdio. Every version gets its diagnostics, each inside
 * its document; every code action's edit applies; hovers answer without error; nothing is
 * logged as a failure; the process stays up.
 */
import * as assert from 'assert/strict';
import * as fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, Diagnostic, Range } from 'vscode-languageserver-protocol';
import { loadRepos, mutatedRepoArb } from '../support/mutations';
import { ProbeClient } from '../support/probe-client';
import { removeWorkspace, writeWorkspace } from '../support/temp-workspace';

const seed = Number(process.env.RENDER_LENS_FUZZ_SEED ?? 20261203);

function insideDocument(range: Range, document: TextDocument): boolean {
  const { start, end } = range;
  const lastLine = document.lineCount - 1;
  const ok = (p: Range['start']) => p.line >= 0 && p.character >= 0 && p.line <= lastLine && document.offsetAt(p) === document.offsetAt(document.positionAt(document.offsetAt(p)));
  return ok(start) && ok(end) && document.offsetAt(start) <= document.offsetAt(end) && end.line <= lastLine;
}

/** A code action's edits to `uri`, applied to the buffer; throws when one does not apply cleanly. */
function applyAction(action: CodeAction, uri: string, document: TextDocument): string {
  const edits = action.edit?.changes?.[uri] ?? [];
  for (const edit of edits) assert.ok(insideDocument(edit.range, document), `edit of "${action.title}" lies inside the document`);
  return TextDocument.applyEdits(document, edits);
}

suite('robustness: fuzzed fixture YAML through the language server', function () {
  this.timeout(60000);
  const repos = loadRepos();
  const roots: string[] = [];
  let client: ProbeClient | undefined;

  suiteTeardown(async () => {
    if (client?.alive) assert.equal(await client.stop(), 0, 'the server exits cleanly after the fuzzing');
    for (const root of roots) removeWorkspace(root);
  });

  test('no failure escapes; diagnostics lie inside their documents; code actions apply', async () => {
    // One server for the whole run, with each fixture repository as a workspace folder (its
    // files on disk, as a user's clone has them); the mutated text is only ever a buffer.
    const samples = fc.sample(mutatedRepoArb(repos), { seed, numRuns: 150 });
    const rootOf = new Map<string, string>();
    for (const m of samples) if (!rootOf.has(m.repo.name)) rootOf.set(m.repo.name, writeWorkspace(m.repo.files));
    roots.push(...rootOf.values());
    client = await ProbeClient.start([...rootOf.values()]);
    const deadline = Date.now() + 20000;
    let version = 1;
    let diagnostics = 0;
    let actions = 0;
    for (const m of samples) {
      if (Date.now() > deadline) break;
      const root = rootOf.get(m.repo.name)!;
      const uri = client.uriOf(root, m.file);
      const text = m.files[m.file];
      const what = `${m.repo.name} ${m.file} ${JSON.stringify(m.mutations)}`;
      const opened = await client.open(uri, m.repo.files[m.file], ++version);
      assert.ok(opened.diagnostics.length >= 0);
      const published = await client.replace(uri, text, ++version);
      const document = TextDocument.create(uri, 'yaml', version, text);
      diagnostics += published.diagnostics.length;
      for (const diagnostic of published.diagnostics) {
        assert.ok(insideDocument(diagnostic.range, document), `${what}: ${diagnostic.code} at ${JSON.stringify(diagnostic.range)} lies inside the document`);
        const offered = await client.codeActions(uri, diagnostic as Diagnostic);
        actions += offered.length;
        for (const action of offered) applyAction(action, uri, document);
      }
      const lines = text.split(/\r\n|\r|\n/);
      const positions = lines.flatMap((line, l) => [...line.matchAll(/[$}{]/g)].map((match) => ({ line: l, character: match.index })).slice(0, 20));
      const hovers = await Promise.all(positions.slice(0, 200).map((p) => client!.hover(uri, p)));
      for (const hover of hovers) if (hover?.range) assert.ok(insideDocument(hover.range, document), `${what}: hover range lies inside the document`);
      await client.close(uri);
      assert.ok(client.alive, `${what}: the server is alive`);
    }
    assert.ok(diagnostics > 100 && actions > 20, `the inputs reach the rules (${diagnostics} diagnostics, ${actions} code actions)`);
    assert.deepEqual(
      client.log.filter((line) => /failed|uncaught|unhandled|error\]/.test(line)),
      [],
      'the server logged no failure',
    );
  });
});
