/** The output channel says what the server found at start: its clusters, and the files it checked. */
import * as assert from 'assert/strict';
import * as path from 'path';
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
      assert.match(await client.logged(/cluster\(s\)/), new RegExp(`${root.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}: 1 cluster\\(s\\) \\(production\\)$`));
    } finally {
      client.kill();
    }
  });
});
