/**
 * The server and the CLI never write to the user's files. A copy of the demo repository is
 * fingerprinted (every entry's type, mode, mtime and content hash), taken through a full
 * editor session — open, edit, hover, code actions, previews, watched-file events, Check
 * Workspace, close — and every CLI command, and fingerprinted again: nothing may differ.
 */
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import { DidChangeWatchedFilesNotification, FileChangeType, type FileEvent } from 'vscode-languageserver-protocol';
import { checkWorkspaceCommand, contextsRequest, renderRequest, type ContextsResult } from '../../protocol';
import { fixturesDir } from '../support/paths';
import { ProbeClient } from '../support/probe-client';
import { differences, fingerprint, removeWorkspace, runCli, writeWorkspace } from '../support/temp-workspace';

function readTree(dir: string, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) Object.assign(out, readTree(dir, rel));
    else out[rel] = fs.readFileSync(path.join(dir, rel), 'utf8');
  }
  return out;
}

suite('robustness: the user\'s files are never written', function () {
  this.timeout(60000);
  let root: string;
  let files: Record<string, string>;

  suiteSetup(() => {
    files = readTree(path.join(fixturesDir, 'demo'));
    root = writeWorkspace(files, 'render-lens-readonly-');
    // Older mtimes, so a rewrite of the same bytes still shows.
    const past = new Date(Date.now() - 86400000);
    for (const file of Object.keys(files)) fs.utimesSync(path.join(root, file), past, past);
  });
  suiteTeardown(() => removeWorkspace(root));

  test('a full editor session and every CLI command leave the workspace as it was', async () => {
    const before = fingerprint(root);
    const yamlFiles = Object.keys(files).filter((f) => f.endsWith('.yaml'));
    assert.ok(yamlFiles.length > 5);

    const client = await ProbeClient.start(root);
    try {
      let applied = 0;
      for (const file of yamlFiles) {
        const uri = client.uriOf(root, file);
        const text = files[file];
        const published = await client.open(uri, text);
        // Take every quick fix the way an editor does: into the buffer, never to disk.
        let edited = text;
        for (const diagnostic of published.diagnostics) {
          for (const action of await client.codeActions(uri, diagnostic)) {
            const edits = action.edit?.changes?.[uri];
            if (edits && edits.length > 0 && edited === text) {
              edited = applyFirst(text, edits);
              applied++;
            }
          }
        }
        await client.replace(uri, edited, 2);
        await client.replace(uri, `${edited}\n# \${EDITED} $$\n`, 3);
        const lines = text.split('\n');
        await Promise.all(lines.flatMap((line, l) => [...line.matchAll(/\$/g)].map((m) => client.hover(uri, { line: l, character: m.index }))));
        const { contexts } = (await client.connection.sendRequest(contextsRequest, { uri })) as ContextsResult;
        for (const context of contexts) await client.connection.sendRequest(renderRequest, { uri, context: context.id });
      }
      assert.ok(applied > 0, 'quick fixes were offered and taken');
      await client.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
        changes: yamlFiles.map((file): FileEvent => ({ uri: client.uriOf(root, file), type: FileChangeType.Changed })),
      });
      await client.executeCommand(checkWorkspaceCommand, { workDoneToken: 'readonly' });
      for (const file of yamlFiles) await client.close(client.uriOf(root, file));
      assert.ok(client.alive);
    } finally {
      assert.equal(await client.stop(), 0);
    }

    const commands = [
      ['check', '.'],
      ['check', '--format', 'json', '.'],
      ['check', '--format', 'sarif', '.'],
      ['check', '--format', 'github', '--strict', '.'],
      ['explain', 'apps/backup/cronjob.yaml'],
      ['explain', 'cluster_name'],
      ['render', 'apps/backup/cronjob.yaml', '--cluster', 'production'],
    ];
    const runs = await Promise.all(commands.map((args) => runCli(args, root)));
    runs.forEach((run, i) => assert.notEqual(run.code, 2, `${commands[i].join(' ')}: ${run.stderr}`));

    assert.deepEqual(differences(before, fingerprint(root)), []);
  });
});

/** The buffer after the first edit of a code action (its other edits are disjoint by construction). */
function applyFirst(text: string, edits: ReadonlyArray<{ range: { start: { line: number; character: number }; end: { line: number; character: number } }; newText: string }>): string {
  const lines = text.split('\n');
  const offset = (p: { line: number; character: number }) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  const [edit] = edits;
  return text.slice(0, offset(edit.range.start)) + edit.newText + text.slice(offset(edit.range.end));
}
