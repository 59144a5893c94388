/**
 * Fleet's own values templating (rancher/fleet internal/cmd/controller/target/builder.go,
 * preprocessHelmValues). Per cluster, Fleet marshals `helm.values` back to YAML and runs the
 * whole text as ONE Go text/template with `${` `}` delimiters, `missingkey=error`, sprig
 * minus env/expandenv/include/tpl/getHostByName, over a map holding .ClusterName,
 * .ClusterNamespace, .ClusterLabels, .ClusterAnnotations and .ClusterValues. Each
 * `helm.templateValues` entry is a template of its own.
 *
 * Only the strings holding `${` matter to the parse (text between actions is copied), so the
 * template is those strings in the order go-yaml v2 writes them (keys sorted), joined.
 */
import { isMap, isScalar, isSeq, type Node } from 'yaml';
import { pathSegments, type PathSegment, type Pipeline, type Term } from '../gotemplate/ast';
import { fleetDialect, helmDialect } from '../gotemplate/dialect';
import { fleetRemovedFunctions } from '../gotemplate/functions';
import { keywords } from '../gotemplate/lexer';
import { buildTree, type TemplateTree, type TreeNode } from '../gotemplate/tree';
import type { Range } from '../model';
import type { ScalarSite } from '../yaml/scalar-sites';
import { sourceRange } from '../yaml/scalar-text';
import { sortedEntries } from '../goyaml/v2/emit-sort';
import { GoMap } from '../goyaml/v2/value';
import type { FleetDocument, OptionsBlock } from './options';
import { fieldValue, goScalar, type SiteIndex } from './yaml';

export const contextFields = ['ClusterName', 'ClusterNamespace', 'ClusterLabels', 'ClusterAnnotations', 'ClusterValues'] as const;
export type ContextField = (typeof contextFields)[number];

export interface TemplateSource {
  /** How Fleet names the field: `helm.values`, `targets[0].helm.templateValues.x`. */
  where: string;
  text: string;
  /** Each piece of `text`: the scalar it comes from and where it starts in `text`. */
  pieces: Array<{ site: ScalarSite; at: number }>;
}

/** A read of the template context, for hover: `.ClusterLabels.env` → ['ClusterLabels', 'env']. */
export interface TemplateLookup {
  range: Range;
  path: string[];
}

/** The templates of a Fleet document, skipping blocks where `disablePreProcess` is set. */
export function valuesTemplates(doc: FleetDocument): TemplateSource[] {
  const disabled = (block: OptionsBlock) => goScalar(fieldValue(fieldValue(block.map, 'helm', doc.fold), 'disablePreProcess', doc.fold), doc.sites)?.value === true;
  // A customization is merged over the top-level options, and a true bool always wins.
  if (disabled(doc.blocks[0])) return [];
  const out: TemplateSource[] = [];
  for (const block of doc.blocks) {
    if (disabled(block)) continue;
    const helm = fieldValue(block.map, 'helm', doc.fold);
    const values = fieldValue(helm, 'values', doc.fold);
    if (isMap(values)) {
      const sites = templateScalars(values, doc.sites);
      if (sites.length > 0) out.push(joined(`${block.prefix}helm.values`, sites));
    }
    const templateValues = fieldValue(helm, 'templateValues', doc.fold);
    if (isMap(templateValues)) {
      for (const pair of templateValues.items) {
        const site = isScalar(pair.value) ? doc.sites.get(pair.value) : undefined;
        if (site && site.value.includes('${')) out.push(joined(`${block.prefix}helm.templateValues.${String((pair.key as { value?: unknown })?.value)}`, [site]));
      }
    }
  }
  return out;
}

function joined(where: string, sites: ScalarSite[]): TemplateSource {
  const pieces: TemplateSource['pieces'] = [];
  let text = '';
  for (const site of sites) {
    if (text !== '') text += '\n';
    pieces.push({ site, at: text.length });
    text += site.value;
  }
  return { where, text, pieces };
}

/** String keys and values holding `${`, in the order go-yaml v2 marshals the map. */
function templateScalars(node: Node | null | undefined, sites: SiteIndex): ScalarSite[] {
  if (isMap(node)) {
    const order = new GoMap(true);
    node.items.forEach((pair, i) => order.set(goScalar(pair.key as Node, sites)?.text ?? String(i), String(i)));
    return sortedEntries(order).flatMap(([, i]) => {
      const pair = node.items[Number(i)];
      return [...templateScalars(pair.key as Node, sites), ...templateScalars(pair.value as Node, sites)];
    });
  }
  if (isSeq(node)) return node.items.flatMap((item) => templateScalars(item as Node, sites));
  const site = isScalar(node) ? sites.get(node) : undefined;
  return site && goScalar(node, sites)?.kind === 'string' && site.value.includes('${') ? [site] : [];
}

/** What the dot holds: the context, a string map (labels), a string, or something unknown. */
export type Dot = 'root' | 'labels' | 'annotations' | 'string' | 'unknown';

/** A field chain the template reads, and what the dot held there. */
export interface ContextRead {
  segments: PathSegment[];
  dot: Exclude<Dot, 'unknown'>;
}

/** A `${NAME}` that cannot be a template action: a shell or Flux variable. */
export interface ShellVariable {
  name: string;
  written: string;
  /** Offsets in the template text. */
  span: [number, number];
}

/** A values template as Fleet parses it, and what it reads: shared by the rule, the hover and completion. */
export interface TemplateReading {
  source: TemplateSource;
  tree: TemplateTree;
  shellVariables: ShellVariable[];
  reads: ContextRead[];
  lookups: TemplateLookup[];
  /** Every action `${ … }`, for hover. */
  actions: Range[];
  /** A range of the template text in the file. */
  toSource(pos: number, end: number): Range;
}

export function readTemplate(source: TemplateSource): TemplateReading {
  const toSource = (pos: number, end: number) => mapRange(source, pos, end);
  const spans = actionRanges(source.text);

  // A shell or Flux variable is set aside and blanked out (offsets kept), so the parse error
  // it causes does not hide the rest of the template.
  const shellVariables: ShellVariable[] = [];
  let text = source.text;
  for (const [pos, end] of spans) {
    const written = source.text.slice(pos, end);
    const name = variableName(written);
    if (name === undefined) continue;
    shellVariables.push({ name, written, span: [pos, end] });
    text = text.slice(0, pos) + ' '.repeat(end - pos) + text.slice(end);
  }

  const tree = buildTree(source.where, text, fleetDialect);
  const reads = contextReads(tree);
  const lookups = reads.flatMap((read) => {
    const path = lookupPath(read);
    const { segments } = read;
    return path ? [{ range: toSource(segments[0].start - 1, segments[segments.length - 1].end), path }] : [];
  });
  const actions = spans.map(([pos, end]) => toSource(pos, end));
  return { source, tree, shellVariables, reads, lookups, actions, toSource };
}

/** The context path a read looks up, when the dot is the context or one of its maps. */
function lookupPath({ segments, dot }: ContextRead): string[] | undefined {
  const names = segments.map((s) => s.name);
  if (dot === 'root') return (contextFields as readonly string[]).includes(names[0]) ? names : undefined;
  if (dot === 'labels' || dot === 'annotations') return [dot === 'labels' ? 'ClusterLabels' : 'ClusterAnnotations', ...names];
  return undefined;
}

/**
 * Every field chain the template reads, in order, following what `with` and `range` do to the
 * dot. Only what Go parsed before its first error counts: nothing after it is ever rendered.
 */
function contextReads(tree: TemplateTree): ContextRead[] {
  const reads: ContextRead[] = [];
  const walkNodes = (nodes: readonly TreeNode[], dot: Dot): void => {
    for (const node of nodes) {
      switch (node.type) {
        case 'output':
          walkPipeline(node.pipeline, dot);
          break;
        case 'cond':
          for (const branch of node.branches) {
            walkPipeline(branch.pipeline, dot);
            walkNodes(branch.body, branch.keyword === 'if' ? dot : dotAfter(branch.pipeline, dot));
          }
          walkNodes(node.elseBody ?? [], dot);
          break;
        case 'range':
          walkPipeline(node.pipeline, dot);
          walkNodes(node.body, 'unknown');
          walkNodes(node.elseBody ?? [], dot);
          break;
        case 'template':
          if (node.pipeline) walkPipeline(node.pipeline, dot);
          break;
      }
    }
  };
  const walkPipeline = (pipeline: Pipeline, dot: Dot): void => {
    for (const command of pipeline.commands) for (const arg of command.args) walkTerm(arg, dot);
  };
  const walkTerm = (term: Term, dot: Dot): void => {
    if (term.kind === 'field') read(pathSegments(term), dot);
    else if (term.kind === 'variable' && term.name === '$') read(pathSegments(term), 'root');
    else if (term.kind === 'pipeline') walkPipeline(term.pipeline, dot);
  };
  const read = (segments: PathSegment[], dot: Dot): void => {
    if (segments.length > 0 && dot !== 'unknown') reads.push({ segments, dot });
  };
  const dotAfter = (pipeline: Pipeline, dot: Dot): Dot => {
    const only = pipeline.commands.length === 1 && pipeline.commands[0].args.length === 1 ? pipeline.commands[0].args[0] : undefined;
    const path = only?.kind === 'field' && dot === 'root' ? only.path : only?.kind === 'variable' && only.name === '$' ? only.path : undefined;
    if (!path || path.length !== 1) return 'unknown';
    const name = path[0];
    return name === 'ClusterLabels' ? 'labels' : name === 'ClusterAnnotations' ? 'annotations' : name === 'ClusterName' || name === 'ClusterNamespace' ? 'string' : 'unknown';
  };
  const complete = tree.beforeStop;
  walkNodes(complete ? tree.body.slice(0, complete.body) : tree.body, 'root');
  for (const define of complete ? tree.defines.slice(0, complete.defines) : tree.defines) walkNodes(define.body, 'unknown');
  return reads;
}

/** The name in `${NAME}` or `${NAME:-default}` when it cannot be a template action. */
function variableName(written: string): string | undefined {
  const match = /^\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?[-=?+][^}]*)?\}$/.exec(written);
  const name = match?.[1];
  if (name === undefined || keywords.has(name) || ['true', 'false', 'nil'].includes(name)) return undefined;
  if (helmDialect.hasFunction(name) || (fleetRemovedFunctions as readonly string[]).includes(name)) return undefined;
  return name;
}

/** The `${ … }` spans of a template text, found like the lexer finds them (roughly: to the first `}` outside quotes). */
function actionRanges(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let at = text.indexOf('${');
  while (at >= 0) {
    let i = at + 2;
    let quote: string | undefined;
    for (; i < text.length; i++) {
      const c = text[i];
      if (quote) {
        if (c === '\\' && quote === '"') i++;
        else if (c === quote) quote = undefined;
      } else if (c === '"' || c === '`' || c === "'") quote = c;
      else if (c === '}') break;
    }
    const end = Math.min(i + 1, text.length);
    out.push([at, end]);
    at = text.indexOf('${', end);
  }
  return out;
}

/** A range of the template text in the file; ranges never leave the piece they start in. */
export function mapRange(source: TemplateSource, pos: number, end: number): Range {
  let index = source.pieces.length - 1;
  while (index > 0 && source.pieces[index].at > pos) index--;
  const piece = source.pieces[index];
  const length = piece.site.value.length;
  const from = Math.min(Math.max(pos - piece.at, 0), length);
  const to = Math.min(Math.max(end - piece.at, from), length);
  if (length === 0) return piece.site.range;
  if (from === length) {
    const at = piece.site.text.ends[length - 1];
    return { start: at, end: at };
  }
  return sourceRange(piece.site.text, from, to);
}
