/**
 * The disk host reads files the root listing found without resolving their paths again (the
 * listing walked real directories only). What changes on disk after the listing must still
 * not make it read through a link, or anything but a file.
 */
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import { NodeHost } from '../node-host';
import { removeWorkspace, writeWorkspace } from './support/temp-workspace';

suite('disk host: reading listed files', () => {
  const roots: string[] = [];
  suiteTeardown(() => roots.forEach(removeWorkspace));
  const workspace = (files: Record<string, string>) => {
    const root = writeWorkspace(files, 'render-lens-host-');
    roots.push(root);
    return root;
  };

  test('a listed file is read; one that became a link or a directory after the listing reads as missing', function () {
    if (process.platform === 'win32') this.skip();
    const outside = workspace({ 'secret.yaml': 'OUTSIDE' });
    const root = workspace({ 'apps/a.yaml': 'a: 1\n', 'apps/b.yaml': 'b: 1\n', 'apps/c.yaml': 'c: 1\n' });
    const host = new NodeHost(root);
    assert.deepEqual(host.listFiles(''), ['apps/a.yaml', 'apps/b.yaml', 'apps/c.yaml']);
    assert.equal(host.readFile('apps/a.yaml'), 'a: 1\n');
    fs.rmSync(path.join(root, 'apps', 'b.yaml'));
    fs.symlinkSync(path.join(outside, 'secret.yaml'), path.join(root, 'apps', 'b.yaml'));
    assert.equal(host.readFile('apps/b.yaml'), undefined);
    fs.rmSync(path.join(root, 'apps', 'c.yaml'));
    fs.mkdirSync(path.join(root, 'apps', 'c.yaml'));
    assert.equal(host.readFile('apps/c.yaml'), undefined);
  });

  test('a file not in the listing is checked in full: a link to outside reads as missing', function () {
    if (process.platform === 'win32') this.skip();
    const outside = workspace({ 'secret.yaml': 'OUTSIDE' });
    const root = workspace({ 'apps/a.yaml': 'a: 1\n' });
    const host = new NodeHost(root);
    host.listFiles('');
    fs.symlinkSync(path.join(outside, 'secret.yaml'), path.join(root, 'apps', 'later.yaml'));
    fs.symlinkSync(outside, path.join(root, 'linked'));
    fs.writeFileSync(path.join(root, 'apps', 'new.yaml'), 'new: 1\n');
    assert.equal(host.readFile('apps/later.yaml'), undefined);
    assert.equal(host.readFile('linked/secret.yaml'), undefined);
    assert.equal(host.readFile('apps/new.yaml'), 'new: 1\n');
    // Listing a subdirectory (which may itself be reached through a link) trusts nothing new.
    assert.deepEqual(host.listFiles('linked'), ['linked/secret.yaml']);
    assert.equal(host.readFile('linked/secret.yaml'), undefined);
  });
});
