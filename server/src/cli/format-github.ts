/**
 * GitHub Actions workflow commands: one `::error file=…,line=…,col=…::message` per finding,
 * so findings appear as annotations on the pull request's diff.
 */
import { type Finding, LineIndex, type Severity } from '../core';
import { visibleMessage } from './terminal-text';

const commands: Record<Severity, string> = { error: 'error', warning: 'warning', information: 'notice', hint: 'notice' };

/**
 * Workflow-command escaping: `%`, CR and LF in data; also `:` and `,` in properties. Control
 * characters from the repository (a file name, a quoted value) are shown as escapes first: the
 * log viewer would otherwise interpret them.
 */
const data = (text: string) => visibleMessage(text).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const property = (text: string) => data(text).replace(/:/g, '%3A').replace(/,/g, '%2C');

export function formatGithub(findings: readonly Finding[], textOf: (file: string) => string | undefined, pathPrefix: string): string {
  const indexes = new Map<string, LineIndex>();
  return findings
    .map((finding) => {
      let index = indexes.get(finding.file);
      if (!index) indexes.set(finding.file, (index = new LineIndex(textOf(finding.file) ?? '')));
      const start = index.positionAt(finding.range.start);
      const end = index.positionAt(finding.range.end);
      const props = [
        `file=${property(pathPrefix + finding.file)}`,
        `line=${start.line + 1}`,
        `col=${start.character + 1}`,
        `endLine=${end.line + 1}`,
        ...(end.line === start.line ? [`endColumn=${end.character + 1}`] : []),
        `title=${property(`Render Lens ${finding.rule}`)}`,
      ];
      return `::${commands[finding.severity]} ${props.join(',')}::${data(finding.message)}\n`;
    })
    .join('');
}
