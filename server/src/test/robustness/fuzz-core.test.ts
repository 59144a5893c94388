/**
 * Fuzzing the core: every fixture repository under test-fixtures/, with one YAML file mutated
 * (byte flips, truncations, inserted `${`, `$$`, `{{`, tabs, NUL, BOM, CRLF, lone surrogates,
 * emoji, terminal escapes, deep indentation and nesting), through the Engine over a
 * MemoryHost and the CLI's output formats. Seeded: a failure prints its seed and path, and
 * replays with them.
 */
import { nothingCounted } from '../../core/checked-counts';
import * as assert from 'assert/strict';
import * as fc from 'fast-check';
import { Engine } from '../../core/engine';
import { MemoryHost } from '../../core/host';
import { hoverAt } from '../../core';
import type { Finding } from '../../core/model';
import { formatRendered, renderContexts, renderFile } from '../../core/render/rendered-file';
import { applyFix, applyPreferred, changedFiles, fixViolations, rangeViolations } from '../support/invariants';
import { loadRepos, mutatedRepoArb, type MutatedRepo } from '../support/mutations';
import { formatGithub } from '../../cli/format-github';
import { formatJson } from '../../cli/format-json';
import { formatSarif } from '../../cli/format-sarif';
import { formatText } from '../../cli/format-text';
import { frameWidth } from '../../cli/terminal-text';
import { maxMessageLength } from '../../core/limits';

/** Fixed, so a run is reproducible; RENDER_LENS_FUZZ_SEED and _RUNS explore further. */
const seed = Number(process.env.RENDER_LENS_FUZZ_SEED ?? 20261202);
const numRuns = Number(process.env.RENDER_LENS_FUZZ_RUNS ?? 400);

function analyze(files: Record<string, string>) {
  const log: string[] = [];
  const engine = new Engine(new MemoryHost(files), { log: (m) => log.push(m) });
  const { findings } = engine.analyzeWorkspace(['']);
  return { engine, findings, log };
}

/** Offsets worth hovering: every `$`, `{` and `}` and its neighbours, plus an even spread. */
function hoverOffsets(text: string): number[] {
  const out = new Set<number>([0, text.length]);
  for (let i = 0; i < text.length; i++) if ('${}'.includes(text[i])) for (const d of [-1, 0, 1, 2]) out.add(Math.min(text.length, Math.max(0, i + d)));
  for (let i = 0; i < 40; i++) out.add(Math.floor((i * text.length) / 40));
  return [...out].slice(0, 400);
}

function check(m: MutatedRepo): void {
  const { engine, findings, log } = analyze(m.files);
  const textOf = (file: string) => m.files[file];
  assert.deepEqual(log, [], 'no rule or step failed');
  assert.deepEqual(rangeViolations(findings, textOf), []);

  const text = m.files[m.file];
  for (const offset of hoverOffsets(text)) {
    const hover = hoverAt(engine, m.file, offset);
    if (hover) assert.ok(hover.range.start >= 0 && hover.range.start <= hover.range.end && hover.range.end <= text.length, `hover range at ${offset} lies inside the file`);
  }
  for (const { context } of renderContexts(engine, m.file)) formatRendered(m.file, renderFile(engine, m.file, context));
  assert.deepEqual(outputViolations(findings, textOf), []);

  // Each fix of the mutated file applies cleanly on its own.
  for (const finding of findings.filter((f) => f.file === m.file)) {
    for (const fix of finding.fixes) {
      assert.deepEqual(fixViolations(fix, textOf), []);
      applyFix(m.files, fix);
    }
  }
  // Preferred fixes are idempotent and converge: a fix applied is not offered again at the
  // text it produced, and rounds stop changing anything (a fix may reveal another finding:
  // an empty placeholder value that TYPE-CHANGE then flags).
  let files = m.files;
  let current = findings;
  for (let round = 1; ; round++) {
    const next = applyPreferred(files, current);
    if (changedFiles(files, next).length === 0) return;
    assert.ok(round <= 4, `preferred fixes converge within 4 rounds (changed: ${changedFiles(files, next).join(', ')})`);
    const applied = new Set(current.flatMap((f) => fixKeys(f, files)));
    const after = analyze(next);
    assert.deepEqual(after.log, [], 'no rule failed on the fixed files');
    const again = after.findings.flatMap((f) => fixKeys(f, next)).filter((key) => applied.has(key));
    assert.deepEqual(again, [], 'a fix applied is not offered again');
    files = next;
    current = after.findings;
  }
}

/** What the CLI formats print that they must not: positions that are not numbers, raw terminal controls, unbounded lines. */
function outputViolations(findings: readonly Finding[], textOf: (file: string) => string | undefined): string[] {
  const out: string[] = [];
  const text = formatText(findings, textOf, false);
  const github = formatGithub(findings, textOf, '');
  const machine = formatJson(findings, textOf, 1, 1, nothingCounted) + formatSarif(findings, textOf);
  // Outside strings, JSON holds a null only where a number was NaN; a workflow command's properties hold only numbers and names.
  if (/\bnull\b/.test(machine.replace(/"(?:[^"\\]|\\.)*"/g, '""'))) out.push('json or sarif: a position is null');
  for (const line of github.split('\n')) if (/=(?:NaN|undefined)\b/.test(line.split('::')[1] ?? '')) out.push(`github: ${line.slice(0, 120)}`);
  for (const [name, printed] of [['text', text], ['github', github]]) if (/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/.test(printed)) out.push(`${name}: a raw control character`);
  for (const line of text.split('\n')) if (line.length > 2 * frameWidth + maxMessageLength) out.push(`text: a line of ${line.length} characters`);
  return out;
}

/** A preferred fix as "this rule, this fix, on this text": what applying it twice would repeat. */
function fixKeys(finding: Finding, files: Record<string, string>): string[] {
  const text = files[finding.file]?.slice(finding.range.start, finding.range.end);
  return finding.fixes.filter((fix) => fix.preferred).map((fix) => `${finding.rule}|${fix.title}|${finding.file}|${text}|${fix.edits.map((e) => e.newText).join('|')}`);
}

suite('robustness: fuzzed fixture YAML through the core', function () {
  this.timeout(60000);
  const repos = loadRepos();

  test('fixtures are found', () => assert.ok(repos.length > 20, `${repos.length} fixture repositories`));

  test('no exception escapes; ranges lie inside their files; fixes apply cleanly and converge', () => {
    fc.assert(
      fc.property(mutatedRepoArb(repos), (m) => {
        try {
          check(m);
        } catch (error) {
          // Name the case: the shrunk counterexample is in fast-check's report as well.
          throw new Error(`${m.repo.name} ${m.file} ${JSON.stringify(m.mutations)}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }),
      // The time limit bounds this test's own work; the seed keeps every run the same.
      { seed, numRuns, interruptAfterTimeLimit: process.env.RENDER_LENS_FUZZ_RUNS ? undefined : 15000, markInterruptAsFailure: false },
    );
  });
});
