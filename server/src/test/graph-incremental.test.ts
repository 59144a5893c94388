/**
 * The graph of an engine that followed every edit equals the graph of a new engine on the
 * last versions. The engine keeps file models, render trees and readings of Kustomizations
 * and ConfigMaps from one graph to the next, and keeps the graph itself through edits that
 * cannot change it; any of those going stale shows here. Edits are seeded and aimed at what
 * the graph reads: ConfigMap data, overlay patches, Flux Kustomizations, kustomization files,
 * files appearing and disappearing — with keystrokes that break the YAML on the way.
 */
import * as assert from 'assert/strict';
import * as path from 'path';
import { CLUSTERS, random } from './support/generate';
import { Engine } from '../core/engine';
import { MemoryHost } from '../core/host';
import { graphSummary } from './support/graph-summary';
import { loadRepos } from './support/mutations';
import { generatedRepoFiles } from './support/generated-repo';

type Files = Record<string, string>;
type Random = () => number;

const keystrokes = ['x', '1', ' ', '\n', ':', '- ', '"', '#', '${cluster_name}', '$', '{', '---\n', '  ', '\n  ', 'optional: true', '-patch'];
const values = ['', 'x', 'prod', 'cluster-vars', 'cluster-settings', 'flux-system', 'default', './apps', '../base', 'true', '"5"', '${cluster_name}', 'ConfigMap', 'Secret', 'Always'];

/** One edit of a file's text: a keystroke, a new value for a field, or a line removed or repeated. */
function editText(text: string, next: Random): string {
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
  const lines = text.split('\n');
  const r = next();
  if (r < 0.35) {
    const at = Math.floor(next() * (text.length + 1));
    return text.slice(0, at) + pick(keystrokes) + text.slice(at + (next() < 0.3 ? 1 : 0));
  }
  const line = Math.floor(next() * lines.length);
  if (r < 0.8) {
    const colon = lines[line].indexOf(': ');
    if (colon !== -1) lines[line] = `${lines[line].slice(0, colon + 2)}${pick(values)}`;
  } else if (r < 0.9) lines.splice(line, 1);
  else lines.splice(line, 0, lines[line]);
  return lines.join('\n');
}

/** The files the graph reads most: what says Flux, kustomize, ConfigMap or Secret. */
function graphInputs(files: Files): string[] {
  return Object.keys(files).filter((f) => /kustomize|ConfigMap|Secret|Kustomization|op: /.test(files[f]) || /kustomization\.ya?ml$|\.env$/.test(f));
}

/**
 * `steps` seeded edits of `original`; after each, the following engine's graph must summarize
 * as a new engine's.
 */
function followEdits(original: Files, seed: number, steps: number): void {
  const next = random(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
  const files: Files = { ...original };
  const following = new Engine(new MemoryHost(files));
  following.fluxGraph();
  for (let step = 0; step < steps; step++) {
    const inputs = graphInputs(files);
    const names = Object.keys(files);
    const r = next();
    let file: string;
    let text: string | undefined;
    if (r < 0.06 && names.length > 1) {
      file = pick(names);
      text = undefined;
    } else if (r < 0.12) {
      const source = pick(names);
      // Half of them in a directory of their own, which appears with them.
      const dir = path.posix.dirname(pick(names));
      file = next() < 0.5 ? `${dir}/new-${step}.yaml` : `${dir}/new-${step}/${path.posix.basename(source)}`;
      text = files[source];
    } else if (r < 0.2) {
      file = pick(Object.keys(original));
      text = original[file];
    } else {
      file = next() < 0.85 && inputs.length > 0 ? pick(inputs) : pick(names);
      text = editText(files[file] ?? '', next);
    }
    // An open file has been checked before it is edited: the engine then knows its objects.
    if (next() < 0.5 && files[file] !== undefined) following.analyzeFile(file, { keep: true });
    following.update(file, text);
    if (text === undefined) delete files[file];
    else files[file] = text;
    const listed = Object.keys(files).sort();
    const fresh = new Engine(new MemoryHost(files));
    const expected = JSON.stringify(graphSummary(fresh.fluxGraph(), listed));
    const actual = JSON.stringify(graphSummary(following.fluxGraph(), listed));
    if (actual !== expected) assert.fail(`seed ${seed}, step ${step}: after ${text === undefined ? 'deleting' : 'editing'} ${file}, the graph differs from a new engine's\n${firstDifference(actual, expected)}`);
  }
}

function firstDifference(actual: string, expected: string): string {
  let i = 0;
  while (i < actual.length && actual[i] === expected[i]) i++;
  return `…${actual.slice(Math.max(0, i - 200), i + 200)}\nexpected\n…${expected.slice(Math.max(0, i - 200), i + 200)}`;
}

/** A small repository's directories and names, swapped between files and directories at random (layoutFuzz). */
const fuzzDirs = ['', 'a', 'a/b', 'a/b/c', 'base', 'base/sub', 'comp', 'x', 'x/y', 'clusters/one'];
const fuzzNames = ['kustomization.yaml', 'kustomization.yml', 'Kustomization', 'm.yaml', 'n.yml', 'b', 'c', 'sub', 'y', 'p.env', '.git/q.yaml'];
const fuzzRefs = ['a', 'a/b', 'a/b/c', 'base', 'base/sub', 'comp', 'x', 'x/y', './m.yaml', 'm.yaml', 'b', 'c', 'sub', '../base', '../comp', '../../a', 'y', 'n.yml', 'p.env', '../x/y', 'missing', 'missing/deep'];

const fluxObject = (name: string, path: string, components: string[]) =>
  `apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: ${name}\n  namespace: flux-system\nspec:\n  path: ${path}\n${components.length ? `  components:\n${components.map((c) => `    - ${c}\n`).join('')}` : ''}`;

function randomKustomization(next: () => number): string {
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
  const list = (n: number) => Array.from({ length: Math.floor(next() * n) }, () => `  - ${pick(fuzzRefs)}\n`).join('');
  const kind = next() < 0.2 ? 'Component' : 'Kustomization';
  return `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: ${kind}\nresources:\n${list(4)}components:\n${list(2)}patchesStrategicMerge:\n${list(2)}configMapGenerator:\n  - name: g\n    files:\n${list(2).replace(/^ {2}/gm, '      ')}    envs:\n${list(2).replace(/^ {2}/gm, '      ')}`;
}

function randomManifest(next: () => number): string {
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm${Math.floor(next() * 3)}\n  namespace: default\ndata:\n  k: v\n`;
}

/**
 * Files appearing and disappearing in a small repository (also where a directory was, and the
 * other way round), sometimes several before the next build, with the host kept in step or
 * not: the graph must equal a new engine's after each build.
 */
function layoutFuzz(seed: number, steps: number, synced: boolean): void {
  const next = random(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
  const files: Files = {
    'clusters/one/ks.yaml': fluxObject('root', './a', []) + '---\n' + fluxObject('two', './x', ['../comp']) + '---\n' + fluxObject('three', './base/sub', []) + '---\n' + fluxObject('four', './a/b/m.yaml', []),
    'a/m.yaml': randomManifest(next),
    'base/kustomization.yaml': randomKustomization(next),
  };
  const host = new MemoryHost({ ...files });
  const engine = new Engine(host);
  engine.fluxGraph();
  const set = (file: string, text: string | undefined) => {
    if (synced && text === undefined) host.deleteFile(file);
    else if (synced) host.setFile(file, text!);
    engine.update(file, text);
    if (text === undefined) delete files[file];
    else files[file] = text;
  };
  for (let step = 0; step < steps; step++) {
    const existing = Object.keys(files).filter((f) => f !== 'clusters/one/ks.yaml');
    const r = next();
    let file: string;
    let text: string | undefined;
    if (r < 0.35 && existing.length > 0) {
      file = pick(existing);
      text = undefined;
    } else {
      const dir = pick(fuzzDirs);
      const name = pick(fuzzNames);
      file = dir === '' ? name : `${dir}/${name}`;
      text = /ustomization/.test(name) ? randomKustomization(next) : randomManifest(next);
    }
    if (text !== undefined) {
      // Keep it a file system: no file where a directory is, no directory where a file is.
      for (const other of Object.keys(files)) if (other.startsWith(`${file}/`) || file.startsWith(`${other}/`)) set(other, undefined);
    }
    set(file, text);
    // Sometimes several changes before the next build.
    if (next() < 0.3) continue;
    const listed = Object.keys(files).sort();
    const expected = JSON.stringify(graphSummary(new Engine(new MemoryHost(files)).fluxGraph(), listed));
    const actual = JSON.stringify(graphSummary(engine.fluxGraph(), listed));
    if (actual !== expected) assert.fail(`seed ${seed}, step ${step}: after ${text === undefined ? 'deleting' : 'writing'} ${file}, the graph differs from a new engine's\n${firstDifference(actual, expected)}`);
  }
}


suite('flux graph: incremental = from scratch', () => {
  const fixtures = loadRepos().filter((repo) => repo.name.startsWith('flux'));
  const generated = generatedRepoFiles({ files: 200 });

  test('random edits of every Flux fixture repository', () => {
    assert.ok(fixtures.length >= 10, `${fixtures.length} Flux fixtures`);
    fixtures.forEach((repo, n) => followEdits(repo.files, 0x6a11 + n, 40));
  }).timeout(120_000);

  test('random edits of the generated multi-cluster repository', () => {
    for (let seed = 1; seed <= 3; seed++) followEdits(generated, 0x9e4 * seed, 40);
  }).timeout(120_000);

  test('keystrokes in the variable ConfigMap, its overlay patch and a Flux Kustomization (the bench cases)', () => {
    const cluster = CLUSTERS[0];
    const engine = new Engine(new MemoryHost(generated));
    engine.fluxGraph();
    const files: Files = { ...generated };
    for (const [file, anchor] of [
      ['vars/base/cluster-vars.yaml', 'log_level: info'],
      [`vars/${cluster}/cluster-vars-patch.yaml`, `cluster_name: ${cluster}`],
      [`clusters/${cluster}/apps/app-001.yaml`, 'interval: 10m'],
      ['apps/base/app-001/configmap.yaml', 'exec /app'],
    ]) {
      engine.analyzeFile(file, { keep: true });
      let text = files[file];
      for (let i = 0; i < 4; i++) {
        const at = text.indexOf(anchor) + anchor.length + i;
        text = text.slice(0, at) + String(i) + text.slice(at);
        engine.update(file, text);
        files[file] = text;
        const listed = Object.keys(files).sort();
        assert.equal(JSON.stringify(graphSummary(engine.fluxGraph(), listed)), JSON.stringify(graphSummary(new Engine(new MemoryHost(files)).fluxGraph(), listed)), `${file}, keystroke ${i}`);
      }
    }
  });

  test('opening a file as it is on disk keeps the graph; a file written after the listing joins it', () => {
    const host = new MemoryHost(generated);
    const engine = new Engine(host);
    const graph = engine.fluxGraph();
    // The graph never read the Deployment: opening it unchanged is no change.
    const deployment = 'apps/base/app-001/deployment.yaml';
    assert.equal(engine.update(deployment, generated[deployment]), false);
    assert.equal(engine.fluxGraph(), graph);
    // A manifest saved after the listing into a directory rendered whole, then opened: a new resource.
    const added = `clusters/${CLUSTERS[0]}/extra.yaml`;
    const text = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: extra\nspec:\n  ports:\n    - port: 80\n';
    host.setFile(added, text);
    assert.equal(engine.update(added, text), true);
    const listed = Object.keys({ ...generated, [added]: text }).sort();
    assert.equal(JSON.stringify(graphSummary(engine.fluxGraph(), listed)), JSON.stringify(graphSummary(new Engine(new MemoryHost({ ...generated, [added]: text })).fluxGraph(), listed)));
    assert.ok(engine.fluxGraph().contextsOf(added).length > 0, 'the new file is rendered');
  });

  test('render trees that read nothing that changed are reused, the one that did is walked again', () => {
    const engine = new Engine(new MemoryHost(generated));
    const trees = () => new Map(engine.fluxGraph().clusters.flatMap((c) => c.instances.map((i) => [`${c.name}/${i.kustomization.id}`, i.tree] as const)));
    const before = trees();
    engine.update('vars/base/cluster-vars.yaml', generated['vars/base/cluster-vars.yaml'].replace('log_level: info', 'log_level: debug'));
    const afterData = trees();
    assert.ok([...before].every(([key, tree]) => afterData.get(key) === tree), 'a ConfigMap value reaches no tree');
    const overlay = 'apps/overlays/production/app-001/kustomization.yaml';
    engine.update(overlay, `${generated[overlay]}# a comment\n`);
    const afterOverlay = trees();
    const walked = [...afterData].filter(([key, tree]) => afterOverlay.get(key) !== tree).map(([key]) => key);
    assert.deepEqual(walked, ['production/clusters/production/apps/app-001.yaml#0']);
  });

  test('a file that appears or disappears walks again only the trees that looked where it lies', () => {
    const host = new MemoryHost(generated);
    const engine = new Engine(host);
    const trees = () => new Map(engine.fluxGraph().clusters.flatMap((c) => c.instances.map((i) => [`${c.name}/${i.kustomization.id}`, i.tree] as const)));
    const files: Files = { ...generated };
    const walkedAfter = (file: string, text: string | undefined): string[] => {
      const before = trees();
      if (text === undefined) delete files[file];
      else files[file] = text;
      if (text === undefined) host.deleteFile(file);
      else host.setFile(file, text);
      assert.equal(engine.update(file, text), true, `${file}: a change of the layout`);
      const after = trees();
      const listed = Object.keys(files).sort();
      assert.equal(JSON.stringify(graphSummary(engine.fluxGraph(), listed)), JSON.stringify(graphSummary(new Engine(new MemoryHost(files)).fluxGraph(), listed)), file);
      return [...before].filter(([key, tree]) => after.get(key) !== tree).map(([key]) => key);
    };
    const service = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: extra\n';
    // Next to a base's files, but no kustomization lists it: no tree looked there.
    assert.deepEqual(walkedAfter('apps/base/app-001/extra.yaml', service), []);
    // In a new directory under a cluster's root, which Flux renders whole: that cluster's root tree.
    const [cluster] = CLUSTERS;
    const rootTrees = walkedAfter(`clusters/${cluster}/extra/extra.yaml`, service);
    assert.deepEqual(rootTrees, [`${cluster}/clusters/${cluster}/flux-system/gotk-sync.yaml#1`]);
    assert.ok(engine.fluxGraph().contextsOf(`clusters/${cluster}/extra/extra.yaml`).length > 0, 'the new file is rendered');
    // A base lists a file that is missing; it appears: the trees of the three overlays of that app.
    const base = 'apps/base/app-002/kustomization.yaml';
    walkedAfter(base, undefined);
    walkedAfter(base, generated[base].replace('resources:\n', 'resources:\n  - later.yaml\n'));
    assert.deepEqual(walkedAfter('apps/base/app-002/later.yaml', service).sort(), CLUSTERS.map((c) => `${c}/clusters/${c}/apps/app-002.yaml#0`).sort());
    // It goes again: the same trees.
    assert.deepEqual(walkedAfter('apps/base/app-002/later.yaml', undefined).sort(), CLUSTERS.map((c) => `${c}/clusters/${c}/apps/app-002.yaml#0`).sort());
  });

  test('files appearing and disappearing in a small repository, several between builds, files and directories swapping', () => {
    for (let seed = 1; seed <= 120; seed++) layoutFuzz(seed, 60, seed % 2 === 0);
  }).timeout(120_000);

  test('a rescan finds a file that was missing, written to disk without a watcher event', () => {
    const root = 'apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: root\n  namespace: flux-system\nspec:\n  path: ./a\n';
    const files: Files = { 'clusters/one/ks.yaml': root, 'a/kustomization.yaml': 'resources:\n  - b\n', 'a/b/m.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: m\n' };
    const host = new MemoryHost(files);
    const engine = new Engine(host);
    assert.equal(engine.fluxGraph().contextsOf('a/b/m.yaml').length, 0, 'a/b has no kustomization file yet');
    files['a/b/kustomization.yaml'] = 'resources:\n  - m.yaml\n';
    host.setFile('a/b/kustomization.yaml', files['a/b/kustomization.yaml']);
    engine.rescan();
    const listed = Object.keys(files).sort();
    assert.equal(JSON.stringify(graphSummary(engine.fluxGraph(), listed)), JSON.stringify(graphSummary(new Engine(new MemoryHost(files)).fluxGraph(), listed)));
    assert.ok(engine.fluxGraph().contextsOf('a/b/m.yaml').length > 0, 'rendered once its kustomization file is found');
  });

  test("a parent's JSON 6902 patch changes the child's postBuild in the graph, never the child as written", () => {
    const kustomization = (name: string, spec: string) => `apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: ${name}\n  namespace: flux-system\nspec:\n${spec}`;
    const files: Files = {
      'clusters/prod/flux-system/gotk-sync.yaml': kustomization('flux-system', '  path: ./clusters/prod\n'),
      'clusters/prod/apps.yaml': kustomization(
        'apps',
        '  path: ./apps\n  patches:\n    - target:\n        kind: Kustomization\n        name: web\n      patch: |\n        - op: add\n          path: /spec/postBuild/substituteFrom/-\n          value:\n            kind: ConfigMap\n            name: extra\n',
      ),
      'apps/web.yaml': kustomization('web', '  path: ./web\n  postBuild:\n    substituteFrom:\n      - kind: ConfigMap\n        name: base-vars\n'),
      'web/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  a: ${A}\n',
    };
    const engine = new Engine(new MemoryHost(files));
    for (let build = 0; build < 3; build++) {
      const graph = engine.fluxGraph();
      const web = graph.clusters[0].instances.find((i) => i.kustomization.name === 'web')!;
      assert.deepEqual(web.postBuild?.substituteFrom.map((s) => s.name), ['base-vars', 'extra'], `build ${build}`);
      assert.deepEqual(web.kustomization.postBuild?.substituteFrom.map((s) => s.name), ['base-vars'], `build ${build}`);
      engine.update('web/cm.yaml', `${files['web/cm.yaml']}  b: "${build}"\n`);
      engine.update('clusters/prod/apps.yaml', `${files['clusters/prod/apps.yaml']}# build ${build}\n`);
    }
  });

  test('the graph of the generated repository is built from compact models: no syntax tree is kept', () => {
    const engine = new Engine(new MemoryHost(generated));
    engine.fluxGraph();
    assert.deepEqual(engine.index.cachedParses(), { files: 0, source: 0 });
  });

  test('a workspace check keeps the parses of files with findings, and those parsed before it, only', () => {
    const engine = new Engine(new MemoryHost(generated));
    const open = Object.keys(generated).find((file) => file.endsWith('deployment.yaml'))!;
    engine.index.parsed(open);
    const result = engine.analyzeWorkspace();
    const withFindings = new Set(result.findings.map((f) => f.file));
    assert.ok(withFindings.size > 0 && !withFindings.has(open), 'the repository has findings, none in the parsed file');
    const kept = Object.keys(generated).filter((file) => engine.index.hasParse(file)).sort();
    assert.deepEqual(kept, [...withFindings, open].sort());
    // What the check dropped is read again when asked, as it was.
    const fresh = new Engine(new MemoryHost(generated));
    const dropped = Object.keys(generated).find((file) => file.endsWith('service.yaml'))!;
    assert.deepEqual(engine.index.objects(dropped), fresh.index.objects(dropped));
  });
});
