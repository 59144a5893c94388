/**
 * "What will the cluster receive?" for a whole file in one render context: every document
 * run through the controller path (serialize, opt-out, substitute, re-read), shown as YAML.
 * Secret values never appear: variables from Secrets are substituted as placeholders, and
 * the data of Secret objects is replaced by a short hash.
 */
import type { Engine } from '../engine';
import { fleetDocuments } from '../fleet/options';
import type { RenderContext } from '../flux/graph';
import { GoMap, type GoValue } from '../yaml/v2/value';
import { substituteResource } from '../pipeline';
import { exceedsAliasLimit, maxAliasCount } from '../limits';
import { sha256Hex } from '../sha256';
import { contextLabel } from '../substitution';
import { goJsonParse } from '../yaml/v2/json';
import { marshalYamlV2 } from '../yaml/v2/marshal';

export interface RenderedDocument {
  /** YAML of what is applied, or undefined when the controller fails. */
  yaml?: string;
  /** The reconcile error the controller reports, when it fails. */
  error?: string;
  skipped?: 'label' | 'annotation' | 'novars';
}

export interface RenderedFile {
  context: string;
  strict: boolean;
  documents: RenderedDocument[];
}

/** The render contexts of a file, labelled for a picker. */
/** Which of Render Lens's checks a file gets besides Flux's: a chart template, a Fleet file (fleet.yaml or HelmOps), or plain YAML. */
export function fileKind(engine: Engine, file: string): 'helm-template' | 'fleet' | 'yaml' {
  if (engine.isHelmTemplate(file)) return 'helm-template';
  return fleetDocuments(file, engine.documentsOf(file)).length > 0 ? 'fleet' : 'yaml';
}

export function renderContexts(engine: Engine, file: string): Array<{ label: string; context: RenderContext }> {
  return engine.fluxGraph().contextsOf(file).map((context) => ({ label: contextLabel(context), context }));
}

export function renderFile(engine: Engine, file: string, context: RenderContext): RenderedFile {
  const parsed = engine.index.parsed(file);
  const { instance } = context;
  const vars: Record<string, string> = {};
  for (const [name, variable] of instance.variables.vars) {
    const winner = variable.layers[0];
    // A placeholder keeps secrets out of the preview; the substituted text shows where they go.
    vars[name] = winner?.secret || variable.value === undefined ? `<secret ${name}>` : variable.value;
  }
  const documents: RenderedDocument[] = (parsed?.documents ?? []).map((document) => {
    const [start, , end] = document.range;
    const source = parsed!.text.slice(start, end);
    if (source.trim() === '' || source.replace(/#.*$/gm, '').trim() === '') return {};
    // Rendering copies each alias in place: an alias bomb would exhaust the server's memory.
    if (exceedsAliasLimit(document)) return { error: `not rendered: its aliases multiply it past ${maxAliasCount} copies (an alias bomb), which Render Lens does not expand` };
    try {
      if (!instance.postBuild) return asYaml(source);
      const outcome = substituteResource({ source, vars, strict: instance.strict, always: instance.postBuild.strategy === 'Always' });
      if (outcome.kind === 'failed') return { error: outcome.controllerError };
      return { yaml: fromJson(outcome.final), ...(outcome.kind === 'skipped' ? { skipped: outcome.reason } : {}) };
    } catch (error) {
      // A bug or a stack overflow (10,000 nested `${…}`) costs this document, not the preview;
      // only the error's kind is shown, never a message that could quote the text.
      return { error: `not rendered: Render Lens failed on this document (${error instanceof Error ? error.name : 'error'})` };
    }
  });
  return { context: contextLabel(context), strict: instance.strict, documents };
}

/**
 * Without postBuild the controller applies the document as built; show it normalized the same
 * way. One that does not parse shows its error, never its text: it may be a Secret.
 */
function asYaml(source: string): RenderedDocument {
  const outcome = substituteResource({ source, vars: {}, strict: false, always: false });
  return outcome.kind === 'failed' ? { error: outcome.controllerError } : { yaml: fromJson(outcome.final) };
}

function fromJson(json: string): string {
  return marshalYamlV2(redactSecretData(goJsonParse(json)));
}

/** A Secret's data and stringData values become `<redacted sha256:…>`. */
function redactSecretData(value: GoValue): GoValue {
  if (!(value instanceof GoMap) || value.get('kind') !== 'Secret') return value;
  for (const section of ['data', 'stringData']) {
    const map = value.get(section);
    if (!(map instanceof GoMap)) continue;
    for (const entry of map.entries) entry[1] = `<redacted sha256:${sha256Hex(String(entry[1])).slice(0, 12)}>`;
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
    .map((d) => (d.error !== undefined ? `# ✗ ${d.error}\n` : `${d.skipped ? `# not substituted (${d.skipped})\n` : ''}${d.yaml}`));
  return `${header.join('\n')}\n${body.map((b) => `---\n${b}`).join('')}`;
}
