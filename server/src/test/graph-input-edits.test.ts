/**
 * After a keystroke in a file that held no Flux marker (a Kustomization, a Flux version
 * line, ...), the engine looks for a new one only around the edit. It must still see every
 * marker the edit completes, wherever its parts are: `kind:` and the kind name may sit far
 * apart across whitespace, and the edit may land anywhere in between.
 */
import * as assert from 'assert/strict';
import { random } from './support/generate';
import { Engine } from '../core/engine';
import { MemoryHost } from '../core/host';
import { otherGraphInput, otherGraphInputAfterEdit } from '../core/workspace/graph-edits';

const pieces = ['kind:', 'kind', ':', ' ', '   ', '\n', '\t', '\n    ', 'Kustomization', 'Kustomizations', 'Component', 'ExternalSecret', 'Secret', 'x', 'data', 'kustomize.toolkit.fluxcd.io', 'kustomize.toolkit', '.fluxcd.io', 'Flux Version:', 'Flux', 'StrictPostBuild', 'Substitutions', '# ', '- '];

suite('graph inputs after an edit', () => {
  test('an edit never hides a marker it completes, and finds no marker that is not there', () => {
    const next = random(0x6a1d);
    const pick = () => pieces[Math.floor(next() * pieces.length)];
    let checked = 0;
    let found = 0;
    for (let round = 0; round < 30000; round++) {
      let before = '';
      const boundaries = [0];
      const length = 1 + Math.floor(next() * 30);
      for (let i = 0; i < length; i++) boundaries.push((before += pick()).length);
      if (otherGraphInput.test(before)) continue;
      // Mostly between two pieces (right after a `kind:`, say), else anywhere.
      const at = next() < 0.7 ? boundaries[Math.floor(next() * boundaries.length)] : Math.floor(next() * (before.length + 1));
      const removed = Math.floor(next() * 3) === 0 ? Math.floor(next() * 12) : 0;
      const inserted = next() < 0.8 ? pick() : '';
      // Whitespace runs longer than the window's reach, on either side of the edit.
      const padding = next() < 0.3 ? ' '.repeat(80) : '';
      const left = next() < 0.5;
      const after = before.slice(0, at) + (left ? padding + inserted : inserted + padding) + before.slice(at + removed);
      const base = before.slice(0, at) + padding + before.slice(at + removed);
      if (otherGraphInput.test(base)) continue;
      const truth = otherGraphInput.test(after);
      assert.equal(otherGraphInputAfterEdit(base, after), truth, `${JSON.stringify(base)} → ${JSON.stringify(after)}`);
      checked++;
      if (truth) found++;
    }
    // The cases exercise both answers.
    assert.ok(checked > 1000 && found > 100, `${checked} edits, ${found} of them completing a marker`);
  });

  test('a kind name typed far from its `kind:` in a big manifest drops the graph', () => {
    const filler = Array.from({ length: 2000 }, (_, i) => `  key-${i}: value-${i}`).join('\n');
    const manifest = (kind: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app-settings\ndata:\n${filler}\n---\napiVersion: kustomize.config.k8s.io/v1beta1\nkind:${' '.repeat(100)}\n${kind}\n`;
    const host = new MemoryHost({
      'clusters/dev/app.yaml': 'apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: app\nspec:\n  path: ./apps\n  postBuild:\n    substitute:\n      cluster: dev\n',
      'apps/kustomization.yaml': 'resources:\n  - manifest.yaml\n',
      'apps/manifest.yaml': manifest(''),
    });
    const engine = new Engine(host);
    engine.fluxGraph();
    const typed = 'Kustomization';
    let dropped: number | undefined;
    for (let i = 1; i <= typed.length && dropped === undefined; i++) {
      if (engine.update('apps/manifest.yaml', manifest(typed.slice(0, i)))) dropped = i;
      engine.fluxGraph();
    }
    assert.equal(dropped, typed.length, 'the graph is rebuilt when the kind name is complete, not before');
  });
});
