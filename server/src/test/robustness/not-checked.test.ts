/**
 * Files that are not UTF-8 YAML text are not checked, and one information finding at their
 * start says so and why, instead of a flood of syntax errors quoting their bytes or silence.
 * A lone CR is a line break, as go-yaml reads it. Every file is built here.
 */
import * as assert from 'assert/strict';
import { Engine } from '../../core/engine';
import { MemoryHost } from '../../core/host';
import type { Finding } from '../../core/model';
import { formatRendered, renderContexts, renderFile } from '../../core/render/rendered-file';
import { NodeHost } from '../../node-host';
import { configMap, fluxKustomization } from '../support/hostile-repos';
import { rangeViolations } from '../support/invariants';
import { suiteWorkspaces } from '../support/temp-workspace';

function analyze(host: MemoryHost | NodeHost): Finding[] {
  const log: string[] = [];
  const engine = new Engine(host, { log: (m) => log.push(m) });
  const { findings } = engine.analyzeWorkspace(['']);
  assert.deepEqual(log, []);
  assert.deepEqual(rangeViolations(findings, (file) => engine.index.text(file)), []);
  return findings;
}

const summary = (findings: readonly Finding[], file: string) => findings.filter((f) => f.file === file).map((f) => [f.rule, f.severity, f.range.start, f.message]);

suite('robustness: files that are not checked say why', function () {
  this.timeout(60000);
  const { temp } = suiteWorkspaces();

  test('UTF-16 files with a byte order mark (either byte order), binary files and non-UTF-8 text', () => {
    const text = configMap('wide', '  k: ${A}\n');
    const swapped = Buffer.from(text, 'utf16le');
    for (let i = 0; i + 1 < swapped.length; i += 2) [swapped[i], swapped[i + 1]] = [swapped[i + 1], swapped[i]];
    const latin = Buffer.alloc(4096);
    for (let i = 0; i < latin.length; i++) latin[i] = 0x80 + ((i * 37) % 0x40); // continuation bytes with nothing to continue
    const root = temp({
      ...fluxKustomization('apps', 'apps'),
      'apps/le.yaml': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]),
      'apps/be.yaml': Buffer.concat([Buffer.from([0xfe, 0xff]), swapped]),
      'apps/nul.yaml': Buffer.from(`${text}  z: "a\u0000b"\n`),
      'apps/latin.yaml': latin,
      // One stray invalid byte is a typo in a text file: it is checked.
      'apps/stray.yaml': Buffer.concat([Buffer.from(configMap('stray', '  k: "${A}"\n# caf')), Buffer.from([0xe9]), Buffer.from('\n')]),
    });
    const findings = analyze(new NodeHost(root));
    const utf16 = "Not checked: this file is UTF-16 (it starts with a UTF-16 byte order mark); Render Lens reads YAML as UTF-8. Save it as UTF-8 to have it checked.";
    assert.deepEqual(summary(findings, 'apps/le.yaml'), [['YAML-SYNTAX', 'information', 0, utf16]]);
    assert.deepEqual(summary(findings, 'apps/be.yaml'), [['YAML-SYNTAX', 'information', 0, utf16]]);
    assert.deepEqual(summary(findings, 'apps/nul.yaml'), [['YAML-SYNTAX', 'information', 0, 'Not checked: this file holds a NUL byte (line 8), so it is binary, not YAML text.']]);
    assert.deepEqual(summary(findings, 'apps/latin.yaml'), [['YAML-SYNTAX', 'information', 0, 'Not checked: this file is not UTF-8 text (4096 of its first 4096 characters are not valid UTF-8).']]);
    assert.deepEqual(summary(findings, 'apps/stray.yaml').map(([rule]) => rule), ['TYPE-CHANGE']);
    // The preview says the same instead of rendering nothing.
    const engine = new Engine(new NodeHost(root));
    const [{ context }] = renderContexts(engine, 'apps/le.yaml');
    assert.match(formatRendered('apps/le.yaml', renderFile(engine, 'apps/le.yaml', context)), /^# ✗ Not checked: this file is UTF-16 /m);
  });

  test('CR-only line breaks are line breaks: the same findings, at the same offsets, as with LF', () => {
    const lf = configMap('cm', '  k: "${A}"\n  n: ${B}\n  s: |\n    echo $$\n');
    const files = (text: string) => ({ ...fluxKustomization('apps', 'apps'), 'apps/cm.yaml': text });
    const expected = summary(analyze(new MemoryHost(files(lf))), 'apps/cm.yaml');
    assert.deepEqual(expected.map(([rule]) => rule).sort(), ['DOLLAR-COLLAPSE', 'TYPE-CHANGE', 'UNDEFINED-VAR']);
    assert.deepEqual(summary(analyze(new MemoryHost(files(lf.replace(/\n/g, '\r')))), 'apps/cm.yaml'), expected);
    // Mixed with LF, as a file edited on two systems may be.
    assert.deepEqual(summary(analyze(new MemoryHost(files(lf.replace(/\n/g, (_, at: number) => (at % 2 ? '\r' : '\n'))))), 'apps/cm.yaml'), expected);
  });
});
