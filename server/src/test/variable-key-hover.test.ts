import * as assert from 'assert/strict';
import * as path from 'path';
import { Engine } from '../core/engine';
import { MemoryHost } from '../core/host';
import { hoverAt } from '../core';
import { loadCase } from './support/fixtures';
import { fixturesDir } from './support/paths';

const overridden = loadCase(path.join(fixturesDir, 'rules', 'INERT-VALUE', 'overridden')).files;

function hoverOnKey(file: string, line: string): { text: string; markdown: string } {
  const engine = new Engine(new MemoryHost(overridden));
  const at = overridden[file].indexOf(line);
  assert.ok(at >= 0, `${line} not found in ${file}`);
  const hover = hoverAt(engine, file, at + 2);
  assert.ok(hover, `no hover on ${line}`);
  return { text: overridden[file].slice(hover.range.start, hover.range.end), markdown: hover.markdown };
}

suite('hover on a variable key', () => {
  test('says which contexts read it, where it wins and to which layer it loses', () => {
    const { text, markdown } = hoverOnKey('clusters/production/cluster-vars.yaml', '  replicas: "3"');
    assert.equal(text, 'replicas');
    assert.match(markdown, /^\*\*`replicas`\*\*: a Flux variable \(ConfigMap cluster-vars\), `3` here\./);
    assert.match(markdown, /Read by 2 contexts; it wins in 1:/);
    assert.match(markdown, /- production\/apps: loses to `5` from postBuild\.substitute of Kustomization apps — clusters\/production\/kustomizations\.yaml:15/);
    assert.match(markdown, /- production\/jobs: \*\*wins\*\*/);
  });

  test('says when no context receives the value', () => {
    const { markdown } = hoverOnKey('clusters/production/app-vars.yaml', '  replicas: "4"');
    assert.match(markdown, /No context receives this value: every one that reads it takes another layer/);
  });

  test('a key no Flux Kustomization reads has no such hover', () => {
    const engine = new Engine(new MemoryHost(overridden));
    const file = 'jobs/report.yaml';
    assert.equal(hoverAt(engine, file, overridden[file].indexOf('namespace: jobs') + 2), undefined);
  });
});
