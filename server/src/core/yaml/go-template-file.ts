/**
 * Whether a YAML-named file outside a Helm chart is really a Go template (a test asset with
 * `{{ .Name }}`, a `*.tmpl.yaml`, a generator's input): it is rendered before any YAML parser
 * sees it, so reading it as YAML only reports the template's own syntax as broken YAML.
 *
 * The sign is an action where YAML would read structure: at the start of a line, after a
 * sequence dash, or as a whole value after `key:` (`namespace: {{ .Namespace }}` is a flow
 * mapping to YAML, which nobody writes on purpose). Lines inside a block scalar (`|`, `>`)
 * are text: a ConfigMap holding an Alertmanager template is YAML.
 */

const templateName = /\.(tmpl|tpl|gotmpl)(\.ya?ml)?$|\.ya?ml\.(tmpl|tpl|gotmpl)$/i;

/** `{{` at a line's start, after dashes, or right after `key:`; the key may not start a quote or a comment. */
const structuralAction = /^[ \t]*(?:-[ \t]+)*(?:[^\s#'"{[\-][^#'"]*?:[ \t]+)?\{\{/;

/** A line that opens a block scalar: `key: |`, `- >-`, `key: |2 # note`. */
const blockScalarStart = /(?:^|:[ \t]|^[ \t]*-[ \t])[ \t]*[|>][-+0-9]*[ \t]*(?:#.*)?$/;

export function isGoTemplateFile(file: string, text: string): boolean {
  if (templateName.test(file)) return true;
  if (!text.includes('{{')) return false;
  let blockIndent = -1;
  let lineStart = 0;
  while (lineStart <= text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = text.length;
    const line = text.slice(lineStart, lineEnd);
    lineStart = lineEnd + 1;
    const indent = line.length - line.trimStart().length;
    const blank = line.trim() === '';
    if (blockIndent >= 0) {
      if (blank || indent > blockIndent) continue;
      blockIndent = -1;
    }
    if (structuralAction.test(line)) return true;
    if (blockScalarStart.test(line)) blockIndent = indent;
  }
  return false;
}
