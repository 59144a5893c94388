/**
 * Workspace paths as kustomize resolves references: `resolveInside` walks the reference by
 * hand (a graph resolves thousands), and must give what posix.normalize(posix.join(…)) gives,
 * refusing whatever leaves the workspace.
 */
import * as assert from 'assert/strict';
import { posix } from 'path';
import { random } from './support/generate';
import { resolveInside } from '../core/flux/paths';

/** The reference behaviour, with the workspace root as ''. */
function normalized(dir: string, ref: string): string | undefined {
  if (posix.isAbsolute(ref)) return undefined;
  const joined = posix.normalize(posix.join(dir === '' ? '.' : dir, ref)).replace(/\/$/, '');
  if (joined === '..' || joined.startsWith('../')) return undefined;
  return joined === '.' ? '' : joined;
}

suite('flux paths: references resolved inside the workspace', () => {
  test('random references from random directories resolve as posix.normalize does', () => {
    const next = random(0x9a7b);
    const segments = ['a', 'b', '..', '.', '', 'x.yaml', '...', '..a', 'a\\b', 'c d', '.b'];
    const dirs = ['', 'a', 'a/b', 'apps/base/app-000'];
    for (let n = 0; n < 20000; n++) {
      const parts = Array.from({ length: Math.floor(next() * 6) }, () => segments[Math.floor(next() * segments.length)]);
      let ref = parts.join('/');
      if (next() < 0.1) ref = `/${ref}`;
      if (next() < 0.1) ref = `${ref}/`;
      const dir = dirs[n % dirs.length];
      assert.equal(resolveInside(dir, ref), normalized(dir, ref), JSON.stringify([dir, ref]));
    }
  });

  test('a reference back to the root is the root, also with a trailing slash', () => {
    assert.equal(resolveInside('apps', '..'), '');
    assert.equal(resolveInside('apps', '../'), '');
    assert.equal(resolveInside('', './'), '');
    assert.equal(resolveInside('apps', '../..'), undefined);
    assert.equal(resolveInside('apps/base', '../../../etc/passwd'), undefined);
  });
});
