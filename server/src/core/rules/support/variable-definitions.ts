/**
 * Where Flux variables are defined and who reads them, for the rules that report on the
 * definition rather than on a `${…}`: inline `postBuild.substitute` keys and the keys of
 * `substituteFrom` ConfigMaps and Secrets (base data, overlay patches, generators), one entry
 * per written location with every Kustomization instance that reads it. Also a cheap view of
 * which names the files a Kustomization substitutes mention, and of ConfigMaps and Secrets
 * that something other than Flux also reads.
 */
import { Memo } from '../../memo';
import { isMap, isPair, isScalar, isSeq, type Node } from 'yaml';
import { fluxKustomizeGroup, type SubstituteFrom } from '../../flux/flux-kustomization';
import type { Cluster, FluxGraph, KustomizationInstance } from '../../flux/graph';
import type { DataLayer, ObjectData } from '../../flux/object-data';
import type { Range } from '../../model/index';
import type { ParsedFile } from '../../yaml/document';
import { mapGet, scalarText } from '../../yaml/nodes';
import { perGraph } from './per-graph';
import type { RuleContext } from '../rule';

/** One Kustomization instance reading a definition. */
export interface Reader {
  instance: KustomizationInstance;
  /** The substituteFrom entry it reads the key through; undefined for an inline key. */
  ref?: SubstituteFrom;
  object?: ObjectData;
  /** The key's layers in that object as the cluster receives it, base first. */
  layers?: readonly DataLayer[];
}

/** A variable key as written in one place. */
export interface Definition {
  name: string;
  file: string;
  /** As the graph records it: the key, a patch op, a generator literal or env line. */
  range: Range;
  via: DataLayer['via'] | 'substitute';
  readers: Reader[];
}

/** The controller's variable-name check (Go RE2: `[:alpha:]` and `[:digit:]` are ASCII). */
export const validName = /^[_A-Za-z][_A-Za-z0-9]*$/;
export const namePattern = '^[_[:alpha:]][_[:alpha:][:digit:]]*$';

interface Index {
  byFile: Map<string, Definition[]>;
  byName: Map<string, Definition[]>;
}

function indexOf(graph: FluxGraph, textOf: (file: string) => string | undefined): Index {
  return perGraph(graph, 'variable definitions', () => buildIndex(graph, textOf));
}

function buildIndex(graph: FluxGraph, textOf: (file: string) => string | undefined): Index {
  const byLocation = new Map<string, Definition>();
  const definitionAt = (name: string, file: string, range: Range, via: Definition['via']) => {
    const key = `${file}\0${range.start}\0${range.end}\0${name}`;
    let definition = byLocation.get(key);
    if (!definition) byLocation.set(key, (definition = { name, file, range, via, readers: [] }));
    return definition;
  };
  // An instance's readers are all added before the next instance's, so a reader already
  // there for this instance and entry is among the last few of the definition's readers.
  const addReader = (definition: Definition, reader: Reader) => {
    const readers = definition.readers;
    for (let i = readers.length - 1; i >= 0 && readers[i].instance === reader.instance; i--) if (readers[i].ref === reader.ref) return;
    readers.push(reader);
  };
  // A shared ConfigMap is read by every app of its cluster: its definitions (and their keys)
  // are worked out once per object, not once per reader.
  const ofObject = new Map<ObjectData, Array<{ definition: Definition; layers: readonly DataLayer[] }>>();
  const definitionsOf = (object: ObjectData) => {
    let known = ofObject.get(object);
    if (known) return known;
    known = [];
    for (const [name, layers] of object.data) {
      for (const layer of layers) {
        const at = layer.via === 'generator' ? generatorEntry(textOf, name, layer, object) : layer;
        known.push({ definition: definitionAt(name, at.file, at.range, layer.via), layers });
      }
    }
    ofObject.set(object, known);
    return known;
  };
  for (const cluster of graph.clusters) {
    for (const instance of cluster.instances) {
      const postBuild = instance.postBuild;
      if (!postBuild) continue;
      for (const { ref, object } of instance.variables.sources) {
        if (!object) continue;
        const definitions = definitionsOf(object);
        for (let i = 0; i < definitions.length; i++) addReader(definitions[i].definition, { instance, ref, object, layers: definitions[i].layers });
      }
      for (const entry of postBuild.substitute) addReader(definitionAt(entry.name, entry.file, entry.keyRange, 'substitute'), { instance });
    }
  }
  const index: Index = { byFile: new Map(), byName: new Map() };
  const push = (map: Map<string, Definition[]>, key: string, definition: Definition) => {
    const list = map.get(key);
    if (list) list.push(definition);
    else map.set(key, [definition]);
  };
  for (const definition of byLocation.values()) {
    push(index.byFile, definition.file, definition);
    push(index.byName, definition.name, definition);
  }
  return index;
}

/**
 * Where a generated key is written. A literal (`KEY=value`) is where the graph says. A key
 * from `files:` or `envs:` is shown at its entry in the kustomization file: the data file is
 * not YAML, or is the value as a whole, so the graph points at all of it.
 */
function generatorEntry(textOf: (file: string) => string | undefined, name: string, layer: DataLayer, object: ObjectData): { file: string; range: Range } {
  const text = textOf(layer.file);
  if (layer.file === object.file || (/\.ya?ml$/i.test(layer.file) && text !== undefined && layer.range.end - layer.range.start < text.length)) return layer;
  const kustomization = textOf(object.file);
  if (kustomization === undefined) return layer;
  const entries = kustomization.slice(object.range.start, object.range.end);
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const keyed = new RegExp(`(^|[\\s"'-])(${escape(name)})=`, 'm').exec(entries);
  if (keyed) {
    const start = object.range.start + keyed.index + keyed[1].length;
    return { file: object.file, range: { start, end: start + name.length } };
  }
  const base = layer.file.split('/').pop() ?? layer.file;
  const listed = new RegExp(`(^|[\\s"'/-])(${escape(base)})(?=["'\\s]|$)`, 'm').exec(entries);
  if (!listed) return layer;
  const start = object.range.start + listed.index + listed[1].length;
  return { file: object.file, range: { start, end: start + base.length } };
}

/** The definitions written in `file`, in source order. */
export function definitionsIn(context: RuleContext, file: string): readonly Definition[] {
  return [...(indexOf(context.fluxGraph(), (f) => textOf(context, f)).byFile.get(file) ?? [])].sort((a, b) => a.range.start - b.range.start);
}

/**
 * Whether `file` holds any variable definition (valid name or not) that some cluster reads:
 * a file that holds none gives the definition rules nothing to report.
 */
export function holdsDefinitions(graph: FluxGraph, file: string, textOf: (file: string) => string | undefined): boolean {
  return indexOf(graph, textOf).byFile.has(file);
}

/** Every definition of `name`, anywhere. */
export function definitionsNamed(context: RuleContext, name: string): readonly Definition[] {
  return indexOf(context.fluxGraph(), (f) => textOf(context, f)).byName.get(name) ?? [];
}

/** `production/apps`: the cluster and the Kustomization, for messages. */
export function instanceLabel(instance: KustomizationInstance): string {
  return `${instance.cluster.name}/${instance.kustomization.name}`;
}

/** Distinct labels, shortened after three: `a, b, c and 2 more`. */
export function labelList(labels: readonly string[]): string {
  const unique = [...new Set(labels)];
  return unique.length <= 3 ? unique.join(', ') : `${unique.slice(0, 3).join(', ')} and ${unique.length - 3} more`;
}

/** Does the key come from an overlay only (the base object of this reader lacks it)? */
export function addedByOverlay(reader: Reader): boolean {
  return reader.layers !== undefined && reader.layers.length > 0 && reader.layers[0].via === 'patch';
}

const escapePointer = (name: string) => name.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The span of the name itself inside a definition's range: the key scalar (inside its quotes),
 * the `/data/KEY` of a JSON 6902 op, the `KEY` of a generator literal or env line. Undefined
 * when the name is not written there as such (e.g. a patch that replaces the whole map).
 */
export function keySpan(text: string, name: string, range: Range): Range | undefined {
  const source = text.slice(range.start, range.end);
  if (source === name) return range;
  if (source.length === name.length + 2 && /^(["']).*\1$/s.test(source) && source.slice(1, -1) === name) return { start: range.start + 1, end: range.end - 1 };
  const literal = /^(["']?)([^=]*)=/.exec(source);
  if (literal && literal[2] === name) return { start: range.start + literal[1].length, end: range.start + literal[1].length + name.length };
  const pointer = escapePointer(name);
  const path = new RegExp(`/(?:data|stringData|spec/postBuild/substitute)/(${pointer.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})(?=["'\\s]|$)`, 'm').exec(source);
  if (path) {
    const start = range.start + path.index + path[0].length - pointer.length;
    return { start, end: start + pointer.length };
  }
  return undefined;
}

/** `range`, cut to the end of its first line: where a finding on a multi-line node points. */
export function firstLine(text: string, range: Range): Range {
  const newline = text.indexOf('\n', range.start);
  return { start: range.start, end: newline === -1 || newline > range.end ? range.end : newline };
}

/** A SOPS-encrypted file: its MAC covers the keys, so an edit breaks decryption. */
export function isSopsFile(text: string): boolean {
  return /^sops:\s*$/m.test(text);
}

/** The text of a workspace file, as the engine has it. */
export function textOf(context: RuleContext, file: string): string | undefined {
  return file === context.file ? context.text : context.parsedFile(file)?.text;
}

// ---------------------------------------------------------------------------------------------
// Which names a Kustomization's files mention.

/** `${NAME…}` and `${#NAME…}` as envsubst reads the name. */
const use = /\$\{#?([\p{L}\p{Nd}_]+)/gu;

function namesUsedIn(text: string): Set<string> {
  return new Set([...text.matchAll(use)].map((m) => m[1]));
}

/**
 * The names the files an instance substitutes mention (a superset of what it reads: comments
 * and opted-out resources count too), or undefined when the repository cannot show all of
 * them (a remote or missing resource, an unresolved path). Each file's names are kept with
 * its version; an instance's answer looks through them without merging them, since most
 * questions are about a shared ConfigMap's few keys and stop at the first file that uses one.
 */
export function usageOf(context: RuleContext): (instance: KustomizationInstance) => { has(name: string): boolean } | undefined {
  const memo = context.shared('names each instance uses', () => new Map<KustomizationInstance, { has(name: string): boolean } | undefined>());
  return (instance) => {
    if (memo.has(instance)) return memo.get(instance);
    let usage: { has(name: string): boolean } | undefined;
    const tree = instance.tree;
    if (instance.dir !== undefined && !tree.problems.some((p) => p.kind === 'remote' || p.kind === 'missing' || p.kind === 'outside')) {
      // From the texts, kept with each version: no file is parsed for this.
      const perFile = [...tree.files.keys()].flatMap((file) => context.derived(file, 'names-used', namesUsedIn) ?? []);
      // Flux's own spec.patches are applied before substitution too.
      for (const patch of instance.kustomization.patches) perFile.push(namesUsedIn(patch.text));
      usage = { has: (name) => perFile.some((names) => names.has(name)) };
    }
    memo.set(instance, usage);
    return usage;
  };
}

// ---------------------------------------------------------------------------------------------
// ConfigMaps and Secrets that other resources read as well.

const referencesByFile = new Memo<ParsedFile, Set<string>>();

/** Values of `name:` and `secretName:` keys, outside Flux Kustomizations and each object's own name. */
function namesReferencedIn(parsed: ParsedFile): Set<string> {
  const out = new Set<string>();
  const walk = (node: unknown, own: ReadonlyArray<Node | undefined>) => {
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const key = isScalar(pair.key) ? String(pair.key.value) : '';
        const value = pair.value as Node | null;
        if ((key === 'name' || key === 'secretName') && isScalar(value) && !own.includes(value)) {
          const text = scalarText(value);
          if (text !== undefined) out.add(text);
        } else walk(value, own);
      }
    } else if (isSeq(node)) for (const item of node.items) walk(item, own);
  };
  for (const document of parsed.documents) {
    const root = document.contents;
    const apiVersion = scalarText(mapGet(root, 'apiVersion')) ?? '';
    if (scalarText(mapGet(root, 'kind')) === 'Kustomization' && apiVersion.startsWith(`${fluxKustomizeGroup}/`)) continue;
    // The object's own name, and the name of the Secret it makes (ExternalSecret, SealedSecret).
    const own = [mapGet(root, 'metadata', 'name'), mapGet(root, 'spec', 'target', 'name'), mapGet(root, 'spec', 'template', 'metadata', 'name')];
    walk(root, own);
  }
  return out;
}

/**
 * Is a ConfigMap or Secret of this name read by something besides Flux's substitution in the
 * cluster (an `envFrom`, a volume, a HelmRelease's `valuesFrom`)? Its keys may then be meant
 * for that reader, so the definition rules leave them alone.
 */
export function readElsewhere(context: RuleContext): (cluster: Cluster, name: string) => boolean {
  const memo = context.shared('objects read elsewhere', () => new Map<Cluster, Map<string, boolean>>());
  return (cluster, name) => {
    let byName = memo.get(cluster);
    if (!byName) memo.set(cluster, (byName = new Map()));
    let read = byName.get(name);
    if (read === undefined) {
      read = false;
      const seen = new Set<string>();
      for (const instance of cluster.instances) {
        for (const rendered of instance.tree.files.values()) {
          if (read || rendered.role !== 'resource' || seen.has(rendered.file)) continue;
          seen.add(rendered.file);
          // Only a file that mentions the name can reference it: the others are not parsed.
          if (!mentions(context, rendered.file, name)) continue;
          const parsed = context.parsedFile(rendered.file);
          if (!parsed) continue;
          read = referencesByFile.of(parsed, namesReferencedIn).has(name);
        }
      }
      byName.set(name, read);
    }
    return read;
  };
}

/**
 * Can a scalar of the file decode to `name`: does its text hold the name, or a backslash (a
 * double-quoted escape may spell it)? A cheap test before a parse.
 */
export function mentions(context: RuleContext, file: string, name: string): boolean {
  return context.derived(file, `mentions\0${name}`, (text) => text.includes(name) || text.includes('\\')) ?? false;
}
