/**
 * SARIF 2.1.0 for GitHub code scanning and other viewers: rule metadata with help links,
 * exact regions (UTF-16 columns, 1-based), related locations, and fixes as replacements.
 */
import type * as Sarif from 'sarif';
import { type CheckedCounts, type Finding, LineIndex, type Range, ruleDocsUrl, RULES, type Severity } from '../core';
import { version } from '../version';

const levels: Record<Severity, Sarif.Result.level> = { error: 'error', warning: 'warning', information: 'note', hint: 'note' };

export function formatSarif(findings: readonly Finding[], textOf: (file: string) => string | undefined, checked?: Readonly<CheckedCounts & { files: number; fields: number }>): string {
  const indexes = new Map<string, LineIndex>();
  const region = (file: string, range: Range): Sarif.Region => {
    let index = indexes.get(file);
    if (!index) indexes.set(file, (index = new LineIndex(textOf(file) ?? '')));
    const start = index.positionAt(range.start);
    const end = index.positionAt(range.end);
    return { startLine: start.line + 1, startColumn: start.character + 1, endLine: end.line + 1, endColumn: end.character + 1, charOffset: range.start, charLength: range.end - range.start };
  };
  const location = (file: string, range: Range): Sarif.Location => ({
    physicalLocation: { artifactLocation: { uri: encodeURI(file), uriBaseId: '%SRCROOT%' }, region: region(file, range) },
  });
  const ruleIndex = new Map(RULES.map((rule, i) => [rule.id, i]));
  const log: Sarif.Log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'Render Lens',
            version,
            informationUri: 'https://github.com/render-lens/render-lens',
            rules: RULES.map((rule) => ({
              id: rule.id,
              name: rule.id.toLowerCase().replace(/-(.)/g, (_, c: string) => c.toUpperCase()),
              shortDescription: { text: rule.summary },
              fullDescription: { text: rule.summary },
              helpUri: ruleDocsUrl(rule.id),
              help: { text: rule.docs, markdown: rule.docs },
              defaultConfiguration: { level: levels[rule.severity] },
            })),
          },
        },
        columnKind: 'utf16CodeUnits',
        // What the run looked at: a run that checked nothing is visible as such, not as a clean pass.
        ...(checked ? { properties: { checked: { ...checked } } } : {}),
        originalUriBaseIds: { '%SRCROOT%': { description: { text: 'The root the paths are relative to.' } } },
        results: findings.map((finding) => ({
          ruleId: finding.rule,
          ...(ruleIndex.has(finding.rule) ? { ruleIndex: ruleIndex.get(finding.rule) } : {}),
          level: levels[finding.severity],
          message: { text: finding.message },
          locations: [location(finding.file, finding.range)],
          relatedLocations: finding.related.map((related, id) => ({ id, ...location(related.file, related.range), message: { text: related.message } })),
          fixes: finding.fixes.map((fix) => ({
            description: { text: fix.title },
            artifactChanges: groupByFile(fix.edits).map(([file, edits]) => ({
              artifactLocation: { uri: encodeURI(file), uriBaseId: '%SRCROOT%' },
              replacements: edits.map((edit) => ({ deletedRegion: region(file, edit.range), insertedContent: { text: edit.newText } })),
            })),
          })),
        })),
      },
    ],
  };
  return JSON.stringify(log, null, 2) + '\n';
}

function groupByFile<T extends { file: string }>(items: readonly T[]): Array<[string, T[]]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(item.file, [...(groups.get(item.file) ?? []), item]);
  return [...groups];
}
