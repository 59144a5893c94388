/**
 * Patterns a repository supplies — kustomize patch targets, `exclude` globs — built here to
 * make a backtracking matcher run for minutes. They are matched in linear time (RE2 for
 * targets, a position-set matcher for globs), with Go's semantics for the targets. A test
 * that regressed would hang until mocha's timeout, not fail on a clock.
 */
import * as assert from 'assert/strict';
import * as fc from 'fast-check';
import { Engine } from '../../core/engine';
import { envsubst } from '../../core/envsubst';
import { FluxGraph } from '../../core/flux/graph';
import { MemoryHost } from '../../core/host';
import { matchesGlob } from '../../core/path-glob';
import { FileIndex } from '../../core/workspace/file-index';
import { configMap, fluxKustomizationText } from '../support/hostile-repos';
import { instanceOf } from '../support/flux-fixtures';

/** Thirty `a` and a `!`: `(a+)+$` backtracks 2^30 ways on it in JavaScript. */
const slowName = `${'a'.repeat(30)}!`;

function patchRepo(targets: readonly { name: string; key: string }[]): Record<string, string> {
  const data = '  SLOW: original\n  CASE: original\n  LOOK: original\n';
  return {
    'clusters/prod/apps.yaml': fluxKustomizationText('apps', 'apps', ['  postBuild:', '    substituteFrom:', '      - kind: ConfigMap', '        name: vars', '      - kind: ConfigMap', `        name: "${slowName}"`]),
    'clusters/prod/settings.yaml': fluxKustomizationText('settings', 'settings'),
    'apps/cm.yaml': configMap('app', '  k: "${SLOW} ${CASE} ${LOOK}"\n'),
    'settings/kustomization.yaml': [
      'resources:',
      '  - vars.yaml',
      'patches:',
      ...targets.map(({ name, key }) => `  - target:\n      kind: ConfigMap\n      name: ${JSON.stringify(name)}\n    patch: |\n      - op: replace\n        path: /data/${key}\n        value: patched`),
      '',
    ].join('\n'),
    'settings/vars.yaml': `${configMap('vars', data).replace('namespace: default', 'namespace: flux-system')}---\n${configMap(JSON.stringify(slowName), '  OTHER: original\n').replace('namespace: default', 'namespace: flux-system')}`,
  };
}

function valueOf(files: Record<string, string>, name: string): string | undefined {
  const graph = FluxGraph.build(new FileIndex(new MemoryHost(files)), { strict: true });
  return instanceOf(graph, 'prod', 'apps').variables.vars.get(name)?.value;
}

suite('robustness: hostile patterns from the repository', function () {
  this.timeout(60000);

  test('a patch target name that backtracks exponentially in JavaScript is matched by RE2', () => {
    const files = patchRepo([{ name: '(a+)+$', key: 'SLOW' }]);
    // Neither object matches (`vars`, and the name ending in `!`): the value stays.
    assert.equal(valueOf(files, 'SLOW'), 'original');
    const log: string[] = [];
    new Engine(new MemoryHost(files), { log: (m) => log.push(m) }).analyzeWorkspace(['']);
    assert.deepEqual(log, []);
  });

  test('patch target names follow Go: inline flags work, lookahead matches nothing', () => {
    const files = patchRepo([
      { name: '(?i)VARS', key: 'CASE' },
      { name: '(?=v)vars', key: 'LOOK' },
      { name: 'v.r|x', key: 'SLOW' },
    ]);
    assert.equal(valueOf(files, 'CASE'), 'patched', 'Go accepts (?i)');
    assert.equal(valueOf(files, 'LOOK'), 'original', 'Go cannot compile a lookahead, so kustomize rejects the target');
    // kustomize anchors the whole pattern as `^(?:v.r|x)$`: `vars` is neither.
    assert.equal(valueOf(files, 'SLOW'), 'original');
  });

  test('an exclude glob that is polynomial for a backtracking matcher, against a 120-character name', () => {
    const glob = '**a**a**a**a**a**a**a**a**a**b';
    const name = `apps/${'a'.repeat(120)}.yaml`;
    assert.equal(matchesGlob(name, glob), false);
    assert.equal(matchesGlob(`apps/${'a'.repeat(120)}b`, glob), true);
    const files = { '.render-lens.yaml': `exclude: [${JSON.stringify(glob)}]\n`, [name]: configMap('long', '  k: v\n') };
    const engine = new Engine(new MemoryHost(files));
    assert.equal(engine.isExcluded(name), false);
    engine.analyzeWorkspace(['']);
  });

  test("the same glob in envsubst's trims (`${X##…}`, Go's path.Match) against 12,000 characters", () => {
    const value = 'a'.repeat(12000);
    for (const op of ['#', '##', '%', '%%']) {
      const result = envsubst(`\${X${op}**a**a**a**a**a**a**a**a**a**b}`, () => value, { strict: false });
      assert.equal(result.kind === 'output' ? result.text : result.kind, value, op);
    }
  });

  test('globs: on short inputs the linear matcher agrees with the regular expression it replaced', () => {
    // The translation matchesGlob used before, kept here as the oracle (exponential only on long input).
    const oracle = (path: string, glob: string) => {
      let pattern = '';
      for (let i = 0; i < glob.length; i++) {
        const c = glob[i];
        if (c === '*' && glob[i + 1] === '*') {
          pattern += glob[i + 2] === '/' ? '(?:.*/)?' : '.*';
          i += glob[i + 2] === '/' ? 2 : 1;
        } else if (c === '*') pattern += '[^/]*';
        else if (c === '?') pattern += '[^/]';
        else pattern += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
      }
      return new RegExp(`^${pattern}(?:/.*)?$`).test(path);
    };
    const text = (units: string[], max: number) => fc.array(fc.constantFrom(...units), { maxLength: max }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text(['a', 'b', '/', '.'], 12), text(['a', 'b', '/', '*', '**', '**/', '?', '.'], 8), (path, glob) => matchesGlob(path, glob) === oracle(path, glob)),
      { seed: 20261206, numRuns: 3000 },
    );
  });

  test('globs: `**/` spans whole folders, `*` and `?` stay inside a name, a matched folder matches what it holds', () => {
    const cases: [string, string, boolean][] = [
      ['apps/web/deploy.yaml', 'apps/**', true],
      ['apps/web/deploy.yaml', '**/deploy.yaml', true],
      ['deploy.yaml', '**/deploy.yaml', true],
      ['apps/mydeploy.yaml', '**/deploy.yaml', false],
      ['apps/web/deploy.yaml', 'apps/*.yaml', false],
      ['apps/deploy.yaml', 'apps/*.yaml', true],
      ['apps/web/deploy.yaml', 'apps/*', true],
      ['apps/web/deploy.yaml', 'apps/w?b', true],
      ['apps/w/b/deploy.yaml', 'apps/w?b', false],
      ['apps/web/deploy.yaml', 'a**.yaml', true],
      ['apps/web/deploy.yaml', 'apps/**/web/**/*.yaml', true],
      ['apps/x/y/web/deploy.yaml', 'apps/**/web/*.yaml', true],
      ['apps/xweb/deploy.yaml', 'apps/**/web/*.yaml', false],
      ['apps/web.yaml', 'apps/web.yaml', true],
      ['apps/webxyaml', 'apps/web.yaml', false],
      ['apps/[a].yaml', 'apps/[a].yaml', true],
      ['apps/a.yaml', 'apps/[a].yaml', false],
      ['appsx', 'apps', false],
    ];
    assert.deepEqual(
      cases.filter(([path, glob, expected]) => matchesGlob(path, glob) !== expected),
      [],
    );
  });
});
