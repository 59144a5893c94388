/**
 * Recovers the YAML structure of a chart template without rendering it: for every output
 * action, the key path of the field it writes into (`spec.jobTemplate.spec.template.spec.
 * containers[0].env[1].value`), the `kind:` of its document, and the scalar it is part of.
 *
 * Every branch is read as written, so a resource behind `{{- if .Values.x.enabled }}` is
 * analysed like any other. Actions are masked out first; a line left with only actions and
 * whitespace (`{{- if … }}`, `{{- include … | nindent 4 }}`) adds no structure. A `define`
 * body starts from an empty path: it lands wherever it is included, so its paths are relative
 * and only fields recognised by their last keys (label values, `env[].value`) are typed.
 */
import type { NodePath } from '../yaml/scalar-sites';
import type { TemplateAction } from '../gotemplate/lexer';
import type { TemplateTree } from '../gotemplate/tree';

export type ScalarStyle = 'plain' | 'double' | 'single' | 'block' | 'flow' | 'injected';

export type ScalarPart = { kind: 'text'; start: number; end: number } | { kind: 'action'; action: TemplateAction };

export interface FieldSlot {
  /** Key path of the value (for a key: of the entry it names); '*' stands for a templated key. */
  path: NodePath;
  document: number;
  /** The document's literal `kind:`, when it has one. */
  kind: string | undefined;
  style: ScalarStyle;
  isKey: boolean;
  /** The scalar's source range: quotes included, trailing spaces and comments excluded. */
  start: number;
  end: number;
  /** Literal text and actions making up the scalar (inside the quotes). */
  parts: ScalarPart[];
  /** Column of the key or `-` that owns the scalar. */
  column: number;
}

interface Frame {
  col: number;
  seg: string | number;
  item: boolean;
  nextIndex: number;
}

export interface TemplateLayout {
  /** The slot of each output action, by the action's start offset. */
  slots: Map<number, FieldSlot>;
  /** The literal `kind:` of each document, by document index. */
  kinds: Map<number, string>;
}

const MASK = '\u0001';
const maskOrSpace = /^[\u0001\s]*$/;

/** The text with every action replaced by MASK characters (line breaks kept). */
function maskActions(text: string, actions: readonly TemplateAction[]): string {
  const parts: string[] = [];
  let at = 0;
  for (const a of actions) {
    parts.push(text.slice(at, a.start));
    // Most actions sit on one line: one repeat, not a regular expression over each.
    const action = text.slice(a.start, a.end);
    parts.push(action.includes('\n') || action.includes('\r') ? action.replace(/[^\r\n]/g, MASK) : MASK.repeat(action.length));
    at = a.end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

export function templateLayout(tree: TemplateTree): TemplateLayout {
  const { text } = tree;
  const actions = tree.scan.actions;
  const masked = maskActions(text, actions);
  const outputs = new Set(actions.filter((a) => tree.nodes.get(a.start)?.type === 'output' && !isDeclaration(tree, a)));
  const defineRegions = tree.defines.map((d) => ({ start: d.action.end, end: d.end }));
  const regionOf = (offset: number) => defineRegions.findIndex((r) => offset >= r.start && offset < r.end);

  const slots = new Map<number, FieldSlot>();
  const kinds = new Map<number, string>();
  const stack: Frame[] = [];
  let rootIndex = 0;
  let documentIndex = 0;
  let block: { col: number; path: NodePath } | undefined;
  let region = -1;

  const path = (frames = stack): NodePath => frames.map((f) => f.seg);
  // Every action of a range, control and comments included: they are part of the scalar's text.
  // Actions are sorted and disjoint, so a binary search finds the first one.
  const actionsIn = (start: number, end: number) => {
    let low = 0;
    let high = actions.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (actions[mid].end <= start) low = mid + 1;
      else high = mid;
    }
    const found: TemplateAction[] = [];
    for (let i = low; i < actions.length && actions[i].start < end; i++) found.push(actions[i]);
    return found;
  };
  const addSlot = (slot: Omit<FieldSlot, 'document' | 'kind'>) => {
    for (const part of slot.parts) {
      if (part.kind === 'action' && outputs.has(part.action) && !slots.has(part.action.start)) slots.set(part.action.start, { ...slot, document: documentIndex, kind: undefined });
    }
  };

  let lineStart = 0;
  while (lineStart <= text.length) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline < 0 ? text.length : newline;
    const contentEnd = text[lineEnd - 1] === '\r' ? lineEnd - 1 : lineEnd;
    const line = masked.slice(lineStart, contentEnd);
    const next = newline < 0 ? text.length + 1 : newline + 1;
    const lineRegion = regionOf(lineStart);
    if (lineRegion !== region) {
      // A define body starts or ends: its lines belong to another tree.
      region = lineRegion;
      stack.length = 0;
      block = undefined;
    }
    const indent = line.length - line.trimStart().length;
    const content = line.trimStart();
    const maskOnly = maskOrSpace.test(content);

    if (block && (maskOnly || indent > block.col)) {
      const inside = actionsIn(lineStart, contentEnd);
      for (const a of inside) addSlot({ path: block.path, style: 'block', isKey: false, start: a.start, end: a.end, parts: [{ kind: 'action', action: a }], column: block.col });
      lineStart = next;
      continue;
    }
    block = undefined;
    if (maskOnly) {
      // Output actions alone on a line inject whole lines (`toYaml … | nindent`): note the parent.
      const parent = stack.filter((f) => f.col < indent);
      for (const a of actionsIn(lineStart, contentEnd)) addSlot({ path: path(parent), style: 'injected', isKey: false, start: a.start, end: a.end, parts: [{ kind: 'action', action: a }], column: indent });
      lineStart = next;
      continue;
    }
    if (content.startsWith('#')) {
      lineStart = next;
      continue;
    }
    if (/^---(\s|$)/.test(line) || /^\.\.\.(\s|$)/.test(line)) {
      if (line.startsWith('---')) documentIndex++;
      stack.length = 0;
      rootIndex = 0;
      lineStart = next;
      continue;
    }

    let pos = indent;
    // Sequence entries: `- `, possibly several on one line (`- - a`).
    while (line[pos] === '-' && (pos + 1 === line.length || line[pos + 1] === ' ' || line[pos + 1] === '\t')) {
      while (stack.length > 0 && (stack[stack.length - 1].col > pos || (stack[stack.length - 1].col === pos && stack[stack.length - 1].item))) stack.pop();
      const parent = stack[stack.length - 1];
      const index = parent ? parent.nextIndex++ : rootIndex++;
      stack.push({ col: pos, seg: index, item: true, nextIndex: 0 });
      pos++;
      while (line[pos] === ' ' || line[pos] === '\t') pos++;
    }
    const itemCol = stack.length > 0 && stack[stack.length - 1].item ? stack[stack.length - 1].col : pos;
    if (pos >= line.length) {
      lineStart = next;
      continue;
    }

    const key = keyAt(line, pos);
    let valueAt = pos;
    let owner = itemCol;
    if (key) {
      while (stack.length > 0 && stack[stack.length - 1].col >= pos) stack.pop();
      const keyActions = actionsIn(lineStart + pos, lineStart + key.keyEnd);
      const name = keyActions.length > 0 || key.name.includes(MASK) ? '*' : key.name;
      stack.push({ col: pos, seg: name, item: false, nextIndex: 0 });
      if (keyActions.length > 0) {
        addSlot({ path: path(), style: 'plain', isKey: true, start: lineStart + pos, end: lineStart + key.keyEnd, parts: partsOf(lineStart + pos, lineStart + key.keyEnd, keyActions), column: pos });
      }
      valueAt = key.valueAt;
      owner = pos;
      if (stack.length === 1 && name === 'kind' && pos === 0) {
        const literal = line.slice(valueAt).replace(/\s+#.*$/, '').trim().replace(/^(["'])(.*)\1$/, '$2');
        if (literal && !literal.includes(MASK) && !kinds.has(documentIndex)) kinds.set(documentIndex, literal);
      }
    }
    if (valueAt >= line.length || line[valueAt] === '#') {
      lineStart = next;
      continue;
    }
    const value = scalarAt(line, valueAt);
    const start = lineStart + valueAt;
    let end = lineStart + value.end;
    let inside = actionsIn(start, end);
    // An action that spans lines extends the scalar to its end.
    const last = inside[inside.length - 1];
    if (last && last.end > end) {
      end = last.end;
      inside = actionsIn(start, end);
    }
    if (value.style === 'block') block = { col: owner, path: path() };
    else if (inside.length > 0) {
      const quoted = value.style === 'double' || value.style === 'single';
      const innerStart = quoted ? start + 1 : start;
      const innerEnd = quoted && value.closed ? end - 1 : end;
      addSlot({ path: path(), style: value.style, isKey: false, start, end, parts: partsOf(innerStart, innerEnd, inside), column: owner });
    }
    lineStart = next;
  }

  for (const [offset, slot] of slots) slots.set(offset, { ...slot, kind: kinds.get(slot.document) });
  return { slots, kinds };
}

/** `{{ $x := … }}` prints nothing: it is not an output. */
function isDeclaration(tree: TemplateTree, action: TemplateAction): boolean {
  const node = tree.nodes.get(action.start);
  return node?.type === 'output' && node.pipeline.declarations.length > 0;
}

function partsOf(start: number, end: number, actions: readonly TemplateAction[]): ScalarPart[] {
  const parts: ScalarPart[] = [];
  let at = start;
  for (const action of actions) {
    if (action.start > at) parts.push({ kind: 'text', start: at, end: action.start });
    parts.push({ kind: 'action', action });
    at = Math.max(at, action.end);
  }
  if (end > at) parts.push({ kind: 'text', start: at, end });
  return parts;
}

/** A mapping key at `pos`: its text, where it ends, and where the value starts. */
function keyAt(line: string, pos: number): { name: string; keyEnd: number; valueAt: number } | undefined {
  let keyEnd: number;
  let name: string;
  const c = line[pos];
  if (c === '"' || c === "'") {
    const close = quoteClose(line, pos);
    if (close < 0) return undefined;
    let after = close + 1;
    while (line[after] === ' ' || line[after] === '\t') after++;
    if (line[after] !== ':' || !endsIndicator(line, after + 1)) return undefined;
    keyEnd = close + 1;
    name = unquoteYaml(line.slice(pos, close + 1));
  } else {
    if ('[{|>!&*%@`'.includes(c) || (c === '?' && endsIndicator(line, pos + 1))) return undefined;
    let i = pos;
    for (; i < line.length; i++) {
      if (line[i] === ':' && endsIndicator(line, i + 1)) break;
      if (line[i] === '#' && (line[i - 1] === ' ' || line[i - 1] === '\t')) return undefined;
    }
    if (i >= line.length) return undefined;
    keyEnd = i;
    while (keyEnd > pos && (line[keyEnd - 1] === ' ' || line[keyEnd - 1] === '\t')) keyEnd--;
    name = line.slice(pos, keyEnd);
  }
  const colon = line.indexOf(':', keyEnd);
  let valueAt = colon + 1;
  while (line[valueAt] === ' ' || line[valueAt] === '\t') valueAt++;
  return { name, keyEnd, valueAt };
}

const endsIndicator = (line: string, at: number) => at >= line.length || line[at] === ' ' || line[at] === '\t';

function quoteClose(line: string, pos: number): number {
  const quote = line[pos];
  for (let i = pos + 1; i < line.length; i++) {
    if (quote === '"' && line[i] === '\\') i++;
    else if (line[i] === quote) {
      if (quote === "'" && line[i + 1] === "'") i++;
      else return i;
    }
  }
  return -1;
}

function unquoteYaml(quoted: string): string {
  const body = quoted.slice(1, -1);
  return quoted[0] === "'" ? body.replace(/''/g, "'") : body.replace(/\\(.)/g, '$1');
}

/** The scalar starting at `pos`: its style and where it ends on the line. */
function scalarAt(line: string, pos: number): { style: ScalarStyle; end: number; closed: boolean } {
  const c = line[pos];
  if (c === '"' || c === "'") {
    const close = quoteClose(line, pos);
    return close < 0 ? { style: c === '"' ? 'double' : 'single', end: line.length, closed: false } : { style: c === '"' ? 'double' : 'single', end: close + 1, closed: true };
  }
  if ((c === '|' || c === '>') && /^[|>][-+0-9]*\s*(#.*)?$/.test(line.slice(pos))) return { style: 'block', end: line.length, closed: true };
  if (c === '[' || c === '{') return { style: 'flow', end: line.length, closed: true };
  // A plain scalar runs to a ` #` comment or the end of the line.
  let end = line.length;
  for (let i = pos + 1; i < line.length; i++) {
    if (line[i] === '#' && (line[i - 1] === ' ' || line[i - 1] === '\t')) {
      end = i;
      break;
    }
  }
  while (end > pos && (line[end - 1] === ' ' || line[end - 1] === '\t')) end--;
  return { style: 'plain', end, closed: true };
}
