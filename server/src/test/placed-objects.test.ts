/**
 * A cluster works out a file's ConfigMap or Secret (its data, labels, annotations after
 * kustomize's patches and Flux's) only when something reads them (placedFileObject); who it
 * is, which is what lookups go by, is known at once. Both must be what the eager placedData
 * gives, over every fixture repository (rule cases and Flux repositories) and the bench's
 * generated one.
 */
import * as assert from 'assert/strict';
import { Engine } from '../core/engine';
import { MemoryHost } from '../core/host';
import { objectData, placedData, placedFileObject, type FluxOverlay, type ObjectData } from '../core/flux/object-data';
import { loadRepos } from './support/mutations';
import { generatedRepoFiles } from './support/generated-repo';

function described(o: ObjectData): string {
  const maps = (m: Map<string, unknown>) => JSON.stringify([...m]);
  return JSON.stringify([o.kind, o.name, o.namespace, o.file, o.range, o.hashed, o.opaque, maps(o.data), maps(o.labels), maps(o.annotations)]);
}

suite('flux graph: objects placed when first read', () => {
  test('who they are and what they hold match placedData, in every cluster of every repository', () => {
    const repos = [...loadRepos(), { name: 'generated', files: generatedRepoFiles({ files: 200 }) }];
    let compared = 0;
    for (const repo of repos) {
      const engine = new Engine(new MemoryHost(repo.files));
      for (const cluster of engine.fluxGraph().clusters) {
        for (const instance of cluster.instances) {
          const k = instance.kustomization;
          const flux: FluxOverlay = { file: k.object.file, patches: k.patches, components: instance.tree.rootComponents, targetNamespace: k.targetNamespace };
          for (const rendered of instance.tree.occurrences) {
            if (rendered.role !== 'resource') continue;
            for (const object of engine.index.model(rendered.file)?.objects ?? []) {
              const lazy = placedFileObject(object, rendered.chain, flux, engine.index);
              const data = objectData(object);
              if (!lazy) continue;
              assert.equal(described(lazy), described(placedData(data!, rendered.chain, flux, engine.index)), `${repo.name}: ${object.file} in ${cluster.name}/${k.name}`);
              compared++;
            }
          }
        }
      }
    }
    assert.ok(compared >= 100, `${compared} objects compared`);
  });
});
