import { isConsumed } from './support/consumed';
import type { Rule } from './rule';

/**
 * YAML-SYNTAX: the file is not valid YAML.
 *
 * Nothing else can be checked in a document that does not parse, and neither kustomize nor
 * the controller will accept it; the parser's message is shown where it points.
 */
export const yamlSyntax: Rule = {
  id: 'YAML-SYNTAX',
  severity: 'error',
  summary: 'The document is not valid YAML.',
  docs: `# YAML-SYNTAX

## What it does
Shows the YAML parser's error at the place it points to, in files that something renders:
a Flux Kustomization's tree (resources, patches, generator inputs, kustomization files), a
Helm chart or a Fleet bundle. YAML that nothing renders (Ansible, Terraform inputs, a
\`tmp/\` dump) is left to your YAML tooling.

## Why is this bad?
kustomize cannot build a file that does not parse, so the Kustomization that includes it
fails before any substitution happens, and Render Lens cannot check the broken document.

## Example
\`\`\`yaml
metadata:
  labels: {app: web
\`\`\`

## Fix
Correct the YAML; the message names what the parser expected.
`,
  *check(context) {
    if (context.parsed.problems.length === 0 || !isConsumed(context)) return;
    for (const problem of context.parsed.problems) {
      yield { range: problem.range, message: shortenQuotedToken(problem.message.replace(/\s+at line \d+, column \d+:?[\s\S]*$/, '')), severity: problem.severity };
    }
  },
};

/** The parser quotes the whole token it did not expect (`… in YAML stream: "…"`), which may be a whole line of the file. */
function shortenQuotedToken(message: string, max = 60): string {
  const quote = message.indexOf(': "');
  if (quote === -1 || message.length - quote <= max + 4) return message;
  return `${message.slice(0, quote + 3 + max)}…"`;
}
