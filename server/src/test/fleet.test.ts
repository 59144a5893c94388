import * as assert from 'assert/strict';
import { Engine } from '../core/engine';
import { fleetCompletionsAt } from '../core/fleet/completion';
import { goDurationError } from '../core/fleet/go-duration';
import { fleetHoverAt } from '../core/fleet/hover';
import { invalidPointerMessage, pointerFix, rootTrap } from '../core/fleet/json-pointer';
import { suggestPatchOp } from '../core/fleet/patch-ops';
import { goRegexpError } from '../core/fleet/regexp';
import { fleetDialect } from '../core/gotemplate/dialect';
import { buildTree } from '../core/gotemplate/tree';
import { MemoryHost } from '../core/host';

const engineWith = (files: Record<string, string>) => new Engine(new MemoryHost(files));

/** The offset just after the n-th occurrence of `needle`, or `delta` into it. */
function offsetOf(text: string, needle: string, delta = needle.length): number {
  const at = text.indexOf(needle);
  assert.ok(at >= 0, `${needle} not found`);
  return at + delta;
}

suite('fleet: completion', () => {
  const fleetYaml = `diff:
  comparePatches:
    - kind: Deployment
      operations:
        - op: 
        - op: rem
        - {"op": "re", "path": "/x"}
helm:
  values:
    region: \${ .Clus }
`;
  const engine = engineWith({ 'fleet.yaml': fleetYaml });

  test('offers the five operations after an empty `op:`', () => {
    const items = fleetCompletionsAt(engine, 'fleet.yaml', offsetOf(fleetYaml, '- op: '));
    assert.deepEqual(
      items.map((i) => i.label),
      ['add', 'ignore', 'remove', 'replace', 'test'],
    );
    assert.equal(items[2].insertText, 'remove');
    assert.deepEqual(items[2].range, { start: offsetOf(fleetYaml, '- op: '), end: offsetOf(fleetYaml, '- op: ') });
  });

  test('replaces a partly typed op, keeping its quotes', () => {
    const plain = fleetCompletionsAt(engine, 'fleet.yaml', offsetOf(fleetYaml, 'op: rem'));
    assert.equal(fleetYaml.slice(plain[0].range.start, plain[0].range.end), 'rem');
    const quoted = fleetCompletionsAt(engine, 'fleet.yaml', offsetOf(fleetYaml, '"re"', 3));
    assert.equal(fleetYaml.slice(quoted[0].range.start, quoted[0].range.end), '"re"');
    assert.equal(quoted.find((i) => i.label === 'replace')?.insertText, '"replace"');
  });

  test('offers the template context after a dot in ${ }', () => {
    const items = fleetCompletionsAt(engine, 'fleet.yaml', offsetOf(fleetYaml, '.Clus'));
    assert.deepEqual(
      items.map((i) => i.label),
      ['.ClusterName', '.ClusterNamespace', '.ClusterLabels', '.ClusterAnnotations', '.ClusterValues'],
    );
    assert.equal(fleetYaml.slice(items[0].range.start, items[0].range.end), 'Clus');
    assert.equal(items[0].insertText, 'ClusterName');
  });

  test('offers nothing elsewhere', () => {
    assert.deepEqual(fleetCompletionsAt(engine, 'fleet.yaml', offsetOf(fleetYaml, 'kind: Dep')), []);
    const other = engineWith({ 'apps/cm.yaml': 'op: \n' });
    assert.deepEqual(fleetCompletionsAt(other, 'apps/cm.yaml', 4), []);
  });
});

suite('fleet: hover', () => {
  const fleetYaml = `helm:
  values:
    region: \${ .ClusterLabels.region | upper }
    name: \${ .ClusterName }
    values: \${ .ClusterValues.ingress.host }
diff:
  comparePatches:
    - kind: Deployment
      name: web-.*
      operations:
        - {"op": "remove", "path": "/spec/replicas"}
`;
  const engine = engineWith({ 'fleet.yaml': fleetYaml });

  test('explains a label lookup and the missingkey trap', () => {
    const hover = fleetHoverAt(engine, 'fleet.yaml', offsetOf(fleetYaml, '.ClusterLabels', 3));
    assert.ok(hover);
    assert.equal(fleetYaml.slice(hover.range.start, hover.range.end), '.ClusterLabels.region');
    assert.match(hover.markdown, /the label `region` of the Fleet `Cluster` resource/);
    assert.match(hover.markdown, /`\$\{ get \.ClusterLabels "region" \}` gives "" there instead/);
  });

  test('explains the cluster name and templateValues', () => {
    assert.match(fleetHoverAt(engine, 'fleet.yaml', offsetOf(fleetYaml, '.ClusterName', 2))?.markdown ?? '', /name of the Fleet `Cluster` resource/);
    assert.match(fleetHoverAt(engine, 'fleet.yaml', offsetOf(fleetYaml, '.ClusterValues', 2))?.markdown ?? '', /`templateValues\.ingress\.host` from the spec of the Fleet `Cluster` resource/);
  });

  test('explains an op and a name', () => {
    assert.match(fleetHoverAt(engine, 'fleet.yaml', offsetOf(fleetYaml, '"remove"', 2))?.markdown ?? '', /Removes `path` before comparing/);
    assert.match(fleetHoverAt(engine, 'fleet.yaml', offsetOf(fleetYaml, 'web-.*', 1))?.markdown ?? '', /unanchored Go \(RE2\) regular expression/);
  });

  test('is silent outside Fleet files', () => {
    const other = engineWith({ 'apps/cm.yaml': 'data:\n  x: ${ .ClusterName }\n' });
    assert.equal(fleetHoverAt(other, 'apps/cm.yaml', 14), undefined);
  });
});

suite('fleet: fleet.yaml keys at the top level', () => {
  test('reports unknown and misplaced top-level keys, with a rename where it is safe', () => {
    const text = 'defaultNamspace: web\ntargetNamespace: web\nvalues:\n  a: 1\nhelm:\n  chart: ./chart\n';
    const findings = engineWith({ 'fleet.yaml': text }).analyzeFile('fleet.yaml', { only: ['FLEET-FIELD'] }).findings;
    assert.deepEqual(
      findings.map((f) => [text.slice(f.range.start, f.range.end), f.severity, f.fixes[0]?.edits[0].newText]),
      [
        ['defaultNamspace', 'warning', 'defaultNamespace'],
        ['targetNamespace', 'warning', 'namespace'],
        ['values', 'warning', undefined],
      ],
    );
    assert.match(findings[2].message, /Did you mean `helm\.values`\?/);
  });

  test('leaves alone a fleet.yaml of another tool', () => {
    const text = 'mysql:\n  address: db:3306\nserver:\n  tls: yes\n';
    assert.deepEqual(engineWith({ 'fleet.yaml': text }).analyzeFile('fleet.yaml').findings, []);
  });

  test('only the first document of fleet.yaml is read', () => {
    const text = 'helm:\n  chart: x\n---\nhelm:\n  version: 1.10\n';
    assert.deepEqual(engineWith({ 'fleet.yaml': text }).analyzeFile('fleet.yaml', { only: ['FLEET-FIELD'] }).findings, []);
  });
});

suite('fleet: Go text/template parsing', () => {
  const parse = (text: string) => buildTree('helm.values', text, fleetDialect);
  const error = (text: string) => parse(text).stop?.message;

  test('accepts what Go accepts', () => {
    for (const ok of [
      'plain text } with braces {',
      '${ if eq .ClusterName "a" }x${ else if .ClusterLabels }y${ else }z${ end }',
      '${ range $i, $v := .ClusterValues.list }${ $i }${ break }${ end }',
      '${- /* trimmed comment */ -}',
      '${ $x := 1 }${ $x = 2 }${ $x }',
      '${ (index .ClusterLabels "a").b }',
      '${ "}" }${ `}` }${ \'}\' }',
      '${ 0x1F }${ 1_000 }${ -1.5e3 }${ .5 }',
      '${ define "t" }${ . }${ end }${ template "t" .ClusterName }',
    ]) {
      assert.equal(error(ok), undefined, ok);
    }
  });

  test('rejects with Go’s messages', () => {
    const cases: Array<[string, string]> = [
      ['${ .ClusterName', 'unclosed action'],
      ['${ if .x }', 'unexpected EOF'],
      ['${ end }', 'unexpected {{end}}'],
      ['${ else }', 'unexpected {{else}}'],
      ['${ $y }', 'undefined variable "$y"'],
      ['${ }', 'missing value for command'],
      ['${ break }', '{{break}} outside {{range}}'],
      ['${ "a" | "b" }', 'non executable command in pipeline stage 2'],
      ['${ "abc }', 'unterminated quoted string'],
      ['${ 3x }', 'bad number syntax: "3x"'],
      ['${ (1 }', 'unclosed left paren'],
      ['${ 1) }', 'unexpected right paren'],
      ['${ .a.b$ }', 'bad character U+0024 \'$\''],
      ['${ .x := 1 }', 'unexpected ":=" in operand'],
      ['${/* open }', 'unclosed comment'],
      ['${/* c */ x }', 'comment ends before closing delimiter'],
      ['${ if .a }${ else }${ else }${ end }', 'expected end; found {{else}}'],
      ['${ "a".b }', 'unexpected . after term "\\"a\\""'],
    ];
    for (const [text, message] of cases) assert.equal(error(text), message, text);
  });

  test('collects every call of a missing function and goes on', () => {
    const result = parse('${ env "A" }${ tpl "x" . }${ upper "b" }');
    assert.equal(result.stop, undefined);
    assert.deepEqual(
      result.unknownFunctions.map((f) => f.name),
      ['env', 'tpl'],
    );
  });
});

suite('fleet: comparePatches helpers', () => {
  test('JSON pointer messages and fixes follow Fleet', () => {
    assert.equal(invalidPointerMessage('spec.replicas'), 'invalid JSON pointer "spec.replicas": must start with "/", e.g. "/spec/replicas"');
    assert.equal(invalidPointerMessage('metadata/kind'), 'invalid JSON pointer "metadata/kind": must start with "/", e.g. "/spec/replicas"');
    assert.equal(invalidPointerMessage('.spec.replicas'), 'invalid JSON pointer ".spec.replicas": must start with "/", e.g. "/spec/replicas"');
    assert.equal(invalidPointerMessage(''), 'invalid JSON pointer "": must not be empty, e.g. "/spec/replicas"');
    assert.equal(pointerFix('spec.replicas'), '/spec/replicas');
    assert.equal(pointerFix('metadata/kind'), '/metadata/kind');
    assert.equal(pointerFix('metadata.annotations.example.com/x'), undefined);
    assert.equal(pointerFix('spec..x'), undefined);
    assert.equal(pointerFix(''), undefined);
    assert.equal(rootTrap('metadata/kind'), 'kind');
    assert.equal(rootTrap('a/b/c'), undefined);
  });

  test('suggests only plausible ops', () => {
    assert.equal(suggestPatchOp('Remove'), 'remove');
    assert.equal(suggestPatchOp('delete'), 'remove');
    assert.equal(suggestPatchOp('replce'), 'replace');
    assert.equal(suggestPatchOp('move'), undefined);
    assert.equal(suggestPatchOp(''), undefined);
  });

  test('names are compiled with Go’s syntax, not JavaScript’s', () => {
    assert.equal(goRegexpError('^web-(api|worker)$'), undefined);
    assert.equal(goRegexpError('(?<name>web)'), undefined);
    assert.match(goRegexpError('(?<=a)b')?.message ?? '', /^error parsing regexp: invalid named capture/);
    assert.match(goRegexpError('(a)\\1')?.message ?? '', /^error parsing regexp: invalid escape sequence: `\\1`/);
    // JavaScript would accept both of these.
    assert.doesNotThrow(() => new RegExp('(?<=a)b'));
    assert.doesNotThrow(() => new RegExp('(a)\\1'));
  });

  test('durations follow time.ParseDuration', () => {
    assert.equal(goDurationError('1h30m'), undefined);
    assert.equal(goDurationError('0'), undefined);
    assert.equal(goDurationError('1.5s'), undefined);
    assert.equal(goDurationError('5d'), 'time: unknown unit "d" in duration "5d"');
    assert.equal(goDurationError('5'), 'time: missing unit in duration "5"');
    assert.equal(goDurationError(''), 'time: invalid duration ""');
  });
});
