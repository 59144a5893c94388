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
import type { Range } from '../model';
import type { ScalarSite } from '../yaml/scalar-sites';
import { sourceRange } from '../yaml/scalar-text';
import { sortedEntries } from '../goyaml/v2/emit-sort';
import { GoMap } from '../goyaml/v2/value';
import type { FleetDocument, OptionsBlock } from './options';
import { closest } from './suggest';
import { isHelmOnlyFunction, isRemovedFunction, isTemplateFunction, removedFunctions } from './template/functions';
import { keywords } from './template/lexer';
import { parseTemplate, type Arg, type Pipe, type Segment, type TemplateNode } from './template/parser';
import { fieldValue, goScalar, type SiteIndex } from './yaml';

export const contextFields = ['ClusterName', 'ClusterNamespace', 'ClusterLabels', 'ClusterAnnotations', 'ClusterValues'] as const;
export type ContextField = (typeof contextFields)[number];

const delims: [string, string] = ['${', '}'];

export interface TemplateSource {
  /** How Fleet names the field: `helm.values`, `targets[0].helm.templateValues.x`. */
  where: string;
  text: string;
  /** Each piece of `text`: the scalar it comes from and where it starts in `text`. */
  pieces: Array<{ site: ScalarSite; at: number }>;
}

export interface TemplateProblem {
  range: Range;
  message: string;
  /** Lower than the rule's error: `information` for what Render Lens did not check. */
  severity?: 'information';
  fix?: { title: string; range: Range; newText: string };
}

/** A read of the template context, for hover: `.ClusterLabels.env` → ['ClusterLabels', 'env']. */
export interface TemplateLookup {
  range: Range;
  path: string[];
}

export interface TemplateAnalysis {
  source: TemplateSource;
  problems: TemplateProblem[];
  lookups: TemplateLookup[];
  /** Every action `${ … }`, for hover. */
  actions: Range[];
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
type Dot = 'root' | 'labels' | 'annotations' | 'string' | 'unknown';

export function analyzeTemplate(source: TemplateSource): TemplateAnalysis {
  const problems: TemplateProblem[] = [];
  const lookups: TemplateLookup[] = [];
  const toSource = (pos: number, end: number) => mapRange(source, pos, end);
  const spans = actionRanges(source.text);

  // A shell or Flux variable is reported on its own and blanked out (offsets kept), so the
  // parse error it causes does not hide the rest of the template.
  let text = source.text;
  for (const [pos, end] of spans) {
    const written = source.text.slice(pos, end);
    const name = variableName(written);
    if (name === undefined) continue;
    problems.push(variableProblem(source, name, written, [pos, end], toSource));
    text = text.slice(0, pos) + ' '.repeat(end - pos) + text.slice(end);
  }

  const parsed = parseTemplate(text, (name) => isTemplateFunction(name), delims);
  for (const call of parsed.unknownFunctions) {
    const range = toSource(call.pos, call.end);
    if (isRemovedFunction(call.name)) {
      problems.push({
        range,
        message: `\`${call.name}\` is not available in Fleet's values templates: Fleet removes ${removedFunctions.slice(0, -1).join(', ')} and ${removedFunctions[removedFunctions.length - 1]} from the functions, so ${source.where} fails to parse (function "${call.name}" not defined).`,
      });
    } else if (isHelmOnlyFunction(call.name)) {
      problems.push({ range, message: `\`${call.name}\` is a Helm function: Fleet's values templates have Go's and sprig's functions only, so ${source.where} fails to parse (function "${call.name}" not defined).` });
    } else {
      problems.push({ range, message: `Fleet cannot parse ${source.where} as a template: function "${call.name}" not defined.` });
    }
  }
  if (parsed.error?.limit) {
    problems.push({ range: toSource(parsed.error.pos, parsed.error.end), message: `Not checked: ${parsed.error.message}.`, severity: 'information' });
  } else if (parsed.error) {
    const { message, pos, end, unclosed } = parsed.error;
    const hint = unclosed ? ` (this \`${unclosed}\` has no \`\${ end }\`)` : '';
    problems.push({ range: toSource(pos, end), message: `Fleet cannot parse ${source.where} as a template (\${ } delimiters): ${message}${hint}.` });
  }

  const walkNodes = (nodes: readonly TemplateNode[], dot: Dot): void => {
    for (const node of nodes) {
      switch (node.type) {
        case 'action':
          walkPipe(node.pipe, dot);
          break;
        case 'if':
        case 'with':
        case 'range':
          walkPipe(node.pipe, dot);
          walkNodes(node.list, node.type === 'if' ? dot : node.type === 'with' ? dotAfter(node.pipe, dot) : 'unknown');
          walkNodes(node.elseList, dot);
          break;
        case 'template':
          if (node.pipe) walkPipe(node.pipe, dot);
          break;
        case 'define':
        case 'block':
          if (node.pipe) walkPipe(node.pipe, dot);
          walkNodes(node.list, 'unknown');
          break;
      }
    }
  };
  const walkPipe = (pipe: Pipe, dot: Dot): void => {
    for (const cmd of pipe.cmds) for (const arg of cmd.args) walkArg(arg, dot);
  };
  const walkArg = (arg: Arg, dot: Dot): void => {
    if (arg.type === 'field') checkPath(arg.segments, dot);
    else if (arg.type === 'variable' && arg.name === '$') checkPath(arg.segments, 'root');
    else if (arg.type === 'chain') walkArg(arg.node, dot);
    else if (arg.type === 'pipe') walkPipe(arg.pipe, dot);
  };
  const checkPath = (segments: readonly Segment[], dot: Dot): void => {
    if (segments.length === 0) return;
    let path: string[];
    let stringFrom: number;
    if (dot === 'root') {
      const [first] = segments;
      if (!(contextFields as readonly string[]).includes(first.name)) {
        problems.push(unknownField(first, toSource(first.pos, first.end)));
        return;
      }
      path = segments.map((s) => s.name);
      stringFrom = first.name === 'ClusterValues' ? Infinity : first.name === 'ClusterName' || first.name === 'ClusterNamespace' ? 1 : 2;
    } else if (dot === 'labels' || dot === 'annotations') {
      path = [dot === 'labels' ? 'ClusterLabels' : 'ClusterAnnotations', ...segments.map((s) => s.name)];
      stringFrom = 1;
    } else if (dot === 'string') {
      path = [];
      stringFrom = 0;
    } else return;
    if (path.length > 0) lookups.push({ range: toSource(segments[0].pos - 1, segments[segments.length - 1].end), path });
    const bad = segments[stringFrom];
    if (bad) {
      problems.push({
        range: toSource(bad.pos - 1, bad.end),
        message: `${stringFrom === 0 ? 'The dot' : `\`.${segments.slice(0, stringFrom).map((s) => s.name).join('.')}\``} is a string: \`.${bad.name}\` fails to render with "can't evaluate field ${bad.name} in type string".`,
      });
    }
  };
  const dotAfter = (pipe: Pipe, dot: Dot): Dot => {
    const only = pipe.cmds.length === 1 && pipe.cmds[0].args.length === 1 ? pipe.cmds[0].args[0] : undefined;
    const segments = only?.type === 'field' && dot === 'root' ? only.segments : only?.type === 'variable' && only.name === '$' ? only.segments : undefined;
    if (!segments || segments.length !== 1) return 'unknown';
    const name = segments[0].name;
    return name === 'ClusterLabels' ? 'labels' : name === 'ClusterAnnotations' ? 'annotations' : name === 'ClusterName' || name === 'ClusterNamespace' ? 'string' : 'unknown';
  };
  walkNodes(parsed.root, 'root');

  const actions = spans.map(([pos, end]) => toSource(pos, end));
  return { source, problems, lookups, actions };
}

/** The name in `${NAME}` or `${NAME:-default}` when it cannot be a template action. */
function variableName(written: string): string | undefined {
  const match = /^\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?[-=?+][^}]*)?\}$/.exec(written);
  const name = match?.[1];
  if (name === undefined || keywords.has(name) || ['true', 'false', 'nil'].includes(name)) return undefined;
  if (isTemplateFunction(name) || isRemovedFunction(name) || isHelmOnlyFunction(name)) return undefined;
  return name;
}

/**
 * `${HOME}` or `${name:-x}`: a shell or Flux variable, which Fleet reads as a call of the
 * function `HOME`. `${ `${` }` writes a literal `${` (a raw string needs no escaping in any
 * YAML style); `${ClusterName}` only lacks its dot.
 */
function variableProblem(source: TemplateSource, name: string, written: string, span: [number, number], toSource: (pos: number, end: number) => Range): TemplateProblem {
  const field = contextFields.find((f) => f.toLowerCase() === name.toLowerCase());
  const nameRange = toSource(span[0] + 2, span[0] + 2 + name.length);
  if (field && written === `\${${name}}`) {
    return {
      range: toSource(span[0], span[1]),
      message: `Fleet fails to parse ${source.where}: \`${written}\` calls a function "${name}", which is not defined. Template fields start with a dot: \`\${ .${field} }\`.`,
      fix: { title: `Change to \`.${field}\``, range: nameRange, newText: `.${field}` },
    };
  }
  const delim = toSource(span[0], span[0] + 2);
  const fix = delim.end - delim.start === 2 ? { title: `Keep \`${written}\` as text`, range: delim, newText: '${ `${` }' } : undefined;
  return {
    range: toSource(span[0], span[1]),
    message: `\`${written}\` looks like a shell or Flux variable, but Fleet templates ${source.where} with \`\${ }\` delimiters and fails to parse it (function "${name}" not defined). Write "\${ \`\${\` }${written.slice(2)}" to keep it as text, or set helm.disablePreProcess: true.`,
    ...(fix ? { fix } : {}),
  };
}

function unknownField(segment: Segment, range: Range): TemplateProblem {
  const helm = segment.name === 'Values' || segment.name === 'Release' || segment.name === 'Chart' || segment.name === 'Capabilities';
  const suggestion = segment.name === 'Values' ? undefined : closest(segment.name, contextFields);
  const fields = contextFields.map((f) => `.${f}`).join(', ');
  let message = `\`.${segment.name}\` is not in Fleet's template context (${fields}): with missingkey=error every render fails (map has no entry for key "${segment.name}").`;
  if (helm) message += ` This is Fleet's values template, not a Helm template${segment.name === 'Values' ? '; a cluster\'s own values are `.ClusterValues`' : ''}.`;
  else if (suggestion) message += ` Did you mean \`.${suggestion}\`?`;
  const exact = range.end - range.start === segment.name.length;
  const fix = suggestion && exact ? { title: `Change to \`.${suggestion}\``, range, newText: suggestion } : undefined;
  return { range, message, ...(fix ? { fix } : {}) };
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
function mapRange(source: TemplateSource, pos: number, end: number): Range {
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
