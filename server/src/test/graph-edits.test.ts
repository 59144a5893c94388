/**
 * holdsOtherGraphInput (core/workspace/graph-edits.ts) decides whether an edited file can
 * change the Flux graph in ways the engine does not follow edit by edit. It is a faster form
 * of one regex, and must give the regex's answer on every text: the fixtures, and random
 * edits of them that build and break the markers it looks for.
 */
import * as assert from 'assert/strict';
import { random } from '../bench/generate';
import { holdsOtherGraphInput } from '../core/workspace/graph-edits';
import { editedTexts, fixtureYamlTexts } from './support/block-yaml-corpus';

const otherGraphInput = /kustomize\.toolkit\.fluxcd\.io|kind:\s*(ExternalSecret|Kustomization|Component)\b|StrictPostBuildSubstitutions|Flux Version:/;

suite('graph edits: what else makes a file a graph input', () => {
  test('the fast search answers as the regex, on the fixtures and on edits of them', () => {
    const inserts = ['kind:', 'kind: ', 'kind:\n  ', 'kind:\u00a0', 'Kustomization', 'Kustomizations', 'Component', 'Component_', 'ExternalSecret', 'kind:Kustomization', 'kind: Component-x', 'kind: kind: Kustomization', 'kustomize.toolkit.fluxcd.io', 'kustomize.toolkit', 'Flux Version:', 'Flux Version', 'StrictPostBuildSubstitutions', ' ', '\n', 'x', ':'];
    const texts = [...fixtureYamlTexts(), ...editedTexts(random(0x6e7), fixtureYamlTexts(), inserts, 4000)];
    let holding = 0;
    for (const text of texts) {
      const expected = otherGraphInput.test(text);
      assert.equal(holdsOtherGraphInput(text), expected, JSON.stringify(text.slice(0, 200)));
      if (expected) holding++;
    }
    // Both answers must be common, or the comparison says little.
    assert.ok(holding > texts.length / 10 && holding < texts.length * 0.9, `${holding} of ${texts.length} hold one`);
  });
});
