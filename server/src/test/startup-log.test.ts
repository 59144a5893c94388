/** The output channel says what the server found at start (its clusters, the files it checked) and why an open file is not checked. */
import * as assert from 'assert/strict';
import * as path from 'path';
import { DidOpenTextDocumentNotification } from 'vscode-languageserver-protocol/node';
import { clustersRequest, type ClustersResult } from '../protocol';
import { ProbeClient } from './support/probe-client';
import { fixturesDir } from './support/paths';

suite('the start, in the output channel', () => {
  test('after the background check: the clusters found, and how many files, findings and errors, with the time', async () => {
    const root = path.join(fixturesDir, 'demo');
    const client = await ProbeClient.start(root);
    try {
      const checked = await client.logged(/workspace checked at start/);
      assert.match(checked, /workspace checked at start: (\d+) file\(s\), (\d+) finding\(s\), (\d+) error\(s\) in \d+ ms$/);
      const [, files, findings, errors] = /(\d+) file\(s\), (\d+) finding\(s\), (\d+) error\(s\)/.exec(checked)!;
      assert.ok(Number(files) >= 8, files);
      assert.ok(Number(findings) >= Number(errors) && Number(errors) >= 2, `${findings} findings, ${errors} errors`);
      const escaped = root.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
      assert.match(await client.logged(/cluster\(s\)/), new RegExp(`${escaped}: \\d+ files, 1 cluster\\(s\\): production \\(3 Kustomizations, from a flux bootstrap at clusters/production/flux-system/gotk-sync\\.yaml:\\d+\\);`));
    } finally {
      client.kill();
    }
  });

  test('Show Clusters answers with each folder\'s files and cluster names, which Restart Server logs', async () => {
    const root = path.join(fixturesDir, 'real-repo', 'kochhaus-home');
    const client = await ProbeClient.start(root, {}, { checkWorkspaceOnStartup: false });
    try {
      const answer = await client.request<ClustersResult>(clustersRequest, null);
      assert.deepEqual(answer.folders, [{ root, files: 22, clusters: ['main', 'network'] }]);
      assert.match(answer.text, /^network\n {2}starts at kubernetes\/network\/flux\/cluster — flux-instance HelmRelease/m);
    } finally {
      client.kill();
    }
  });

  test('an open file that is not checked: the reason', async () => {
    const root = path.join(fixturesDir, 'demo');
    const client = await ProbeClient.start(root, {}, { exclude: ['apps/backup/**'], checkWorkspaceOnStartup: false });
    try {
      const open = (file: string) => client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: client.uriOf(root, file), languageId: 'yaml', version: 1, text: 'a: ${b}\n' } });
      await open('apps/backup/cronjob.yaml');
      await open('apps/values.yaml.tmpl');
      assert.match(await client.logged(/cronjob\.yaml is not checked/), /apps\/backup\/cronjob\.yaml is not checked: excluded by `apps\/backup\/\*\*` in the renderLens\.exclude setting$/);
      assert.match(await client.logged(/values\.yaml\.tmpl is not checked/), /apps\/values\.yaml\.tmpl is not checked: only \.yaml and \.yml files, \.tpl files of a Helm chart, and files a Flux-rendered configMapGenerator reads are checked$/);
    } finally {
      client.kill();
    }
  });
});
