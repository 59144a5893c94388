import * as assert from 'assert/strict';
import * as fs from 'fs';
import { createRequire } from 'module';
import * as path from 'path';
import { readRepoConfig } from '../core/config';
import { matchesGlob } from '../core/path-glob';
import { Engine } from '../core/engine';
import { MemoryHost } from '../core/host';
import { loadCase } from './support/fixtures';
import { fixturesDir, projectRoot } from './support/paths';

const schema = JSON.parse(fs.readFileSync(path.join(projectRoot, 'server', 'schemas', 'render-lens.schema.json'), 'utf8')) as object;
const Ajv = (createRequire(path.join(projectRoot, 'package.json'))('ajv') as { default: new (o: object) => { validate(s: object, d: unknown): boolean; errorsText(): string } }).default;
const ajv = new Ajv({ allErrors: true });

suite('.render-lens.yaml', () => {
  test('the schema contributed to VS Code accepts what the engine reads and rejects typos', () => {
    const good = { severity: { 'SILENT-DEFAULT': 'off', 'DOLLAR-COLLAPSE': 'error' }, strict: false, exclude: ['vendor/**'], clusters: { staging: { fluxVersion: '2.8.3' }, production: { strict: true } } };
    assert.ok(ajv.validate(schema, good), ajv.errorsText());
    assert.ok(!ajv.validate(schema, { severty: {} }));
    assert.ok(!ajv.validate(schema, { severity: { 'SILENT-DEFAULT': 'loud' } }));
    assert.ok(!ajv.validate(schema, { clusters: { staging: { fluxVersion: 'latest' } } }));
    const read = readRepoConfig(JSON.stringify(good));
    assert.deepEqual(read.severities, good.severity);
    assert.deepEqual(read.clusterStrict, { staging: false, production: true });
    assert.deepEqual(read.problems, []);
  });

  test('reports a bad severity instead of ignoring it silently', () => {
    assert.deepEqual(readRepoConfig('severity:\n  UNDEFINED-VAR: loud\n').problems, ['.render-lens.yaml: severity of UNDEFINED-VAR must be one of error, warning, information, hint, off']);
  });

  test('severities, excludes and per-cluster strict mode change what the engine reports', () => {
    const files = loadCase(path.join(fixturesDir, 'rules', 'UNDEFINED-VAR', 'two-clusters')).files;
    const undefinedVar = (config: string) =>
      new Engine(new MemoryHost({ ...files, '.render-lens.yaml': config }))
        .analyzeWorkspace()
        .findings.filter((f) => f.rule === 'UNDEFINED-VAR')
        .map((f) => f.severity);
    assert.deepEqual(undefinedVar(''), ['error', 'warning']);
    assert.deepEqual(undefinedVar('clusters:\n  staging:\n    strict: true\n'), ['error', 'error']);
    assert.deepEqual(undefinedVar('severity:\n  UNDEFINED-VAR: hint\n'), ['hint', 'hint']);
    assert.deepEqual(undefinedVar('severity:\n  UNDEFINED-VAR: "off"\n'), []);
    assert.deepEqual(undefinedVar('exclude:\n  - apps/**\n'), []);
  });

  test('globs: ** spans directories, * stays inside one', () => {
    assert.ok(matchesGlob('apps/web/deploy.yaml', 'apps/**'));
    assert.ok(matchesGlob('apps/web/deploy.yaml', '**/deploy.yaml'));
    assert.ok(!matchesGlob('apps/web/deploy.yaml', 'apps/*.yaml'));
    assert.ok(matchesGlob('apps/deploy.yaml', 'apps/*.yaml'));
  });
});
