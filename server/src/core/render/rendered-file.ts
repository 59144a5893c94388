/**
 * "What will the cluster receive?" for a whole file in one render context: every document
 * run through the controller path (serialize, opt-out, substitute, re-read), shown as YAML.
 * Secret values never appear: variables from Secrets are substituted as placeholders, and
 * the data of Secret objects is replaced by a short hash.
 */
import type { WorkspaceView } from '../model/workspace-view';
import { fleetDocuments } from '../fleet/options';
import type { RenderContext } from '../flux/graph';
import { alwaysIgnored } from '../flux/strategy-support';
import { GoMap, type GoValue } from '../goyaml/v2/value';
import { substituteResource } from '../pipeline';
import { exceedsAliasLimit, maxAliasCount, notCheckedReason } from '../limits';
import { redactedPlaceholder } from './redaction';
import { LineIndex } from '../positions';
import { contextLabel } from '../substitution';
import { goJsonParse } from '../goyaml/v2/json';
import { marshalYamlV2 } from '../goyaml/v2/marshal';

export interface RenderedDocument {
  /** YAML of what is applied, or undefined when the controller fails. */
  yaml?: string;
  /** The reconcile error the controller reports, when it fails. */
  error?: string;
  /** When it fails: the check's errors inside the document, `file:line:col: message`, which say where in the file. */
  causes?: string[];
  skipped?: 'label' | 'annotation' | 'novars';
}

export interface RenderedFile {
  context: string;
  strict: boolean;
  documents: RenderedDocument[];
}

/** The render contexts of a file, labelled for a picker. */
/** Which of Render Lens's checks a file gets besides Flux's: a chart template, a Fleet file (fleet.yaml or HelmOps), or plain YAML. */
export function fileKind(workspace: WorkspaceView, file: string): 'helm-template' | 'fleet' | 'yaml' {
  if (workspace.isHelmTemplate(file)) return 'helm-template';
  return fleetDocuments(file, workspace.documentsOf(file)).length > 0 ? 'fleet' : 'yaml';
}

export function renderContexts(workspace: WorkspaceView, file: string): Array<{ label: string; context: RenderContext }> {
  return workspace.fluxGraph().contextsOf(file).map((context) => ({ label: contextLabel(context), context }));
}

export function renderFile(workspace: WorkspaceView, file: string, context: RenderContext): RenderedFile {
  const parsed = workspace.index.parsed(file);
  const { instance } = context;
  const vars: Record<string, string> = {};
  const secrets = new Set<string>();
  for (const [name, variable] of instance.variables.vars) {
    const winner = variable.layers[0];
    // A placeholder keeps secrets out of the preview; the substituted text shows where they go.
    if (winner?.secret || variable.value === undefined) secrets.add(name);
    vars[name] = secrets.has(name) ? `<secret ${name}>` : variable.value!;
  }
  // `${PASS:0:6}` or `${#PASS}` must not cut or count the placeholder's text.
  const redacted = (name: string) => secrets.has(name);
  const salt = workspace.config().redactionSalt;
  // A file that is not read (too big, UTF-16, binary) renders nothing: say why instead.
  const skipped = notCheckedReason(workspace.index.text(file) ?? '');
  if (skipped !== undefined) return { context: contextLabel(context), strict: instance.strict, documents: [{ error: skipped }] };
  const documents: RenderedDocument[] = (parsed?.documents ?? []).map((document) => {
    const [start, , end] = document.range;
    const source = parsed!.text.slice(start, end);
    if (source.trim() === '' || source.replace(/#.*$/gm, '').trim() === '') return {};
    // Rendering copies each alias in place: an alias bomb would exhaust the server's memory.
    if (exceedsAliasLimit(document)) return { error: `not rendered: its aliases multiply it past ${maxAliasCount} copies (an alias bomb), which Render Lens does not expand` };
    try {
      if (!instance.postBuild) return asYaml(source, salt);
      const outcome = substituteResource({ source, vars, strict: instance.strict, always: instance.postBuild.strategy === 'Always' && !alwaysIgnored(instance), redacted });
      if (outcome.kind === 'failed') return { error: outcome.controllerError, causes: causesIn(workspace, file, start, end) };
      return { yaml: fromJson(outcome.final, salt), ...(outcome.kind === 'skipped' ? { skipped: outcome.reason } : {}) };
    } catch (error) {
      // A bug or a stack overflow (10,000 nested `${…}`) costs this document, not the preview;
      // only the error's kind is shown, never a message that could quote the text.
      return { error: `not rendered: Render Lens failed on this document (${error instanceof Error ? error.name : 'error'})` };
    }
  });
  return { context: contextLabel(context), strict: instance.strict, documents };
}

/**
 * The controller's error names a line of the document as it re-serialized it (`yaml: line 4:
 * …`), not of the file. The check's errors inside the document say where, as `check` does.
 */
function causesIn(workspace: WorkspaceView, file: string, start: number, end: number): string[] {
  const text = workspace.index.text(file) ?? '';
  const lines = new LineIndex(text);
  return workspace
    .analyzeFile(file)
    .findings.filter((f) => f.severity === 'error' && f.range.start >= start && f.range.start < end)
    .map((f) => {
      const at = lines.positionAt(f.range.start);
      return `${file}:${at.line + 1}:${at.character + 1}: ${f.rule}: ${f.message}`;
    });
}

/**
 * Without postBuild the controller applies the document as built; show it normalized the same
 * way. One that does not parse shows its error, never its text: it may be a Secret.
 */
function asYaml(source: string, salt: string | undefined): RenderedDocument {
  const outcome = substituteResource({ source, vars: {}, strict: false, always: false });
  return outcome.kind === 'failed' ? { error: outcome.controllerError } : { yaml: fromJson(outcome.final, salt) };
}

function fromJson(json: string, salt: string | undefined): string {
  return marshalYamlV2(redactSecretData(goJsonParse(json), salt));
}

/** A Secret's data and stringData values become `<redacted sha256:…>`, or `<redacted>` when short (redaction.ts). */
function redactSecretData(value: GoValue, salt: string | undefined): GoValue {
  if (!(value instanceof GoMap) || value.get('kind') !== 'Secret') return value;
  for (const section of ['data', 'stringData']) {
    const map = value.get(section);
    if (!(map instanceof GoMap)) continue;
    for (const entry of map.entries) entry[1] = redactedPlaceholder(String(entry[1]), salt);
  }
  return value;
}

/** The text of the preview: a header, then each document or the error it fails with. */
export function formatRendered(file: string, rendered: RenderedFile): string {
  const header = [
    `# ${file} as kustomize-controller applies it in ${rendered.context}${rendered.strict ? ' (strict)' : ''}.`,
    '# Each document as written here, through post-build substitution; kustomize patches and',
    '# generators of the tree are not applied. Secret values are never shown.',
  ];
  const body = rendered.documents
    .filter((d) => d.yaml !== undefined || d.error !== undefined)
    .map((d) => (d.error !== undefined ? `# ✗ ${d.error}\n${(d.causes ?? []).map((c) => `#   ${c}\n`).join('')}` : `${d.skipped ? `# not substituted (${d.skipped})\n` : ''}${d.yaml}`));
  return `${header.join('\n')}\n${body.map((b) => `---\n${b}`).join('')}`;
}
