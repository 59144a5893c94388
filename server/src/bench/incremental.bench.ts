/**
 * The incremental paths give the answers a fresh start gives: a bench that measured a wrong
 * answer would measure nothing. After random edits to generated multi-document manifests,
 * - the incremental re-parse (workspace/reparse.ts) equals a full parse of the new text:
 *   documents, node ranges, source token offsets (where both have them), errors, comments, problems;
 * - the findings of an engine that saw every version (re-parse, kept graph, per-document
 *   caches of workspace/document-cache.ts) equal those of a new engine on the last version.
 * Edits mix the harmless with the breaking: quotes, brackets, `---`, `...`, directives, `$$`.
 */
import * as path from 'path';
import { Engine } from '../core/engine';
import { parseIncremental, reparseYamlFile } from '../core/workspace/reparse';
import { parseYamlFile } from '../core/yaml/document';
import { NodeHost } from '../node-host';
import { FIRST_APP_BASE, SEED, generateFluxRepo, generateManifest, random } from '../test/support/generate';
import { LSP_REPO_KEY, lspExtra } from '../test/support/lsp-repo';
import { compare } from '../test/support/parse-compare';
import { randomEdit } from '../test/support/random-edits';
import { benchDir } from '../dev/project-paths';
import { table, type BenchOptions } from './report';

export async function benchIncremental(options: BenchOptions): Promise<string[]> {
  const parse = differential(options.quick ? 300 : 1000);
  const analysis = analysisDifferential(options.quick ? 25 : 60);
  return table([
    { what: 'incremental re-parse = full parse', value: `${parse.equal}/${parse.total}`, budget: 'all', pass: parse.equal === parse.total, note: parse.firstDifference },
    { what: 'findings after edits = findings of a new engine', value: `${analysis.equal}/${analysis.total}`, budget: 'all', pass: analysis.equal === analysis.total, note: analysis.firstDifference },
  ]);
}

/**
 * Edits to a manifest in a substituted path of a Flux repository: one engine follows every
 * version, as the language server does; a new engine checks the last one.
 */
function analysisDifferential(cases: number): { equal: number; total: number; firstDifference?: string } {
  const next = random(SEED ^ 0xa7a1);
  const repo = generateFluxRepo(path.join(benchDir, 'lsp-1k'), { files: 200, extraKey: LSP_REPO_KEY, extra: lspExtra });
  const file = `${FIRST_APP_BASE}/scripts.yaml`;
  const host = new NodeHost(repo.root);
  let equal = 0;
  let firstDifference: string | undefined;
  for (let n = 0; n < cases; n++) {
    const following = new Engine(host);
    let text = generateManifest(SEED ^ (n + 7), 40 + Math.floor(next() * 100));
    following.update(file, text);
    following.analyzeFile(file, { keep: true });
    let same = true;
    for (let step = 0; step < 5 && same; step++) {
      text = randomEdit(text, next);
      following.update(file, text);
      const incremental = JSON.stringify(following.analyzeFile(file, { keep: true }));
      const fresh = new Engine(host);
      fresh.update(file, text);
      if (incremental !== JSON.stringify(fresh.analyzeFile(file))) {
        same = false;
        firstDifference ??= `case ${n} step ${step}`;
      }
    }
    if (same) equal++;
  }
  return { equal, total: cases, firstDifference };
}

/**
 * Random edits (one character, a line, a `---`, quotes, brackets, block headers) to small
 * multi-document files: the incremental re-parse must equal a full parse of the new text.
 */
function differential(cases: number): { equal: number; total: number; firstDifference?: string } {
  const next = random(SEED ^ 0xd1ff);
  let equal = 0;
  let firstDifference: string | undefined;
  for (let n = 0; n < cases; n++) {
    const base = generateManifest(SEED ^ n, 60 + Math.floor(next() * 120));
    let parsed = parseIncremental(base);
    let text = base;
    let same = true;
    for (let step = 0; step < 4 && same; step++) {
      text = randomEdit(text, next);
      parsed = reparseYamlFile(parsed, text);
      const difference = compare(parsed, parseYamlFile(text));
      if (difference) {
        same = false;
        firstDifference ??= `case ${n}: ${difference}`;
      }
    }
    if (same) equal++;
  }
  return { equal, total: cases, firstDifference };
}

