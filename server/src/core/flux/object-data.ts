/**
 * The data of ConfigMaps and Secrets as a cluster receives them: the base object, generated
 * objects, and what kustomize does to them on the way out (overlay patches — strategic merge
 * and JSON 6902 ops on `/data/KEY` —, namespaces, name prefixes, Flux's own spec.patches).
 * Each key keeps a stack of layers, base first, the value in force last.
 */
import { Memo } from '../memo';
import { isMap, isSeq, type Node } from 'yaml';
import type { Range } from '../model';
import type { FileIndex } from '../workspace/file-index';
import type { K8sObject } from '../workspace/objects';
import { rootsOf } from '../workspace/file-model';
import { mapEntries, mapGet, rangeOf, scalarText, seqItems, stringMap } from '../yaml/nodes';
import { decodeScalar, sourceRange, type ScalarStyle } from '../yaml/scalar-text';
import type { GeneratorSpec, InlinePatch, KustomizeFile, PatchTarget } from './kustomize-file';
import { dirname, resolveInside } from './paths';
import { matchesTarget, type Selectable } from './selectors';

export interface DataLayer {
  file: string;
  /** The key (or patch op) that sets the value. */
  range: Range;
  /** undefined when the value cannot be known (SOPS-encrypted, produced elsewhere). */
  value: string | undefined;
  encrypted: boolean;
  via: 'data' | 'stringData' | 'patch' | 'generator' | 'external';
}

export interface ObjectData {
  kind: 'ConfigMap' | 'Secret';
  /** The name as far as it is known: a generated object's content hash is not computed. */
  name: string;
  namespace: string | undefined;
  file: string;
  range: Range;
  data: Map<string, DataLayer[]>;
  /** Keys cannot be known from the repository (e.g. an ExternalSecret's dataFrom). */
  opaque: boolean;
  labels: Map<string, string>;
  annotations: Map<string, string>;
  /** Generated without `disableNameSuffixHash`: the cluster holds `<name>-<hash>`, never `<name>`. */
  hashed: boolean;
  /** Made in every namespace a selector picks (a ClusterExternalSecret): found in whichever is asked. */
  anyNamespace?: boolean;
}

const sopsValue = /^ENC\[/;

function base64Text(value: string): string | undefined {
  try {
    const bytes = Uint8Array.from(atob(value.replace(/\s+/g, '')), (c) => c.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  } catch {
    return undefined;
  }
}

function blank(kind: ObjectData['kind'], name: string, namespace: string | undefined, file: string, range: Range): ObjectData {
  return { kind, name, namespace, file, range, data: new Map(), opaque: false, labels: new Map(), annotations: new Map(), hashed: false };
}

function push(object: ObjectData, key: string, layer: DataLayer): void {
  object.data.set(key, [...(object.data.get(key) ?? []), layer]);
}

// Objects of the index's file models live as long as the file's version: read each once.
const dataOf = new Memo<K8sObject, ObjectData | undefined>();

/** The data of a ConfigMap or Secret object as written (never to be changed), or undefined for other kinds. */
export function objectData(object: K8sObject): ObjectData | undefined {
  return dataOf.of(object, objectDataUncached);
}

function isConfigMapOrSecret(object: K8sObject): object is K8sObject & { kind: 'ConfigMap' | 'Secret' } {
  return object.apiVersion === 'v1' && (object.kind === 'ConfigMap' || object.kind === 'Secret');
}

function objectDataUncached(object: K8sObject): ObjectData | undefined {
  if (isConfigMapOrSecret(object)) {
    const root = object.document.contents;
    const sops = mapGet(root, 'sops') !== undefined;
    const result = blank(object.kind, object.name, object.namespace, object.file, object.range);
    result.labels = new Map(object.labels);
    result.annotations = new Map(object.annotations);
    // The API server merges stringData over data, so stringData is the later layer.
    for (const section of object.kind === 'Secret' ? (['data', 'stringData'] as const) : (['data'] as const)) {
      for (const { key, keyNode, value } of mapEntries(mapGet(root, section))) {
        const text = scalarText(value) ?? '';
        const encrypted = sops || sopsValue.test(text);
        const decoded = encrypted ? undefined : object.kind === 'Secret' && section === 'data' ? base64Text(text) : text;
        push(result, key, { file: object.file, range: rangeOf(keyNode) ?? object.range, value: decoded, encrypted, via: section });
      }
    }
    return result;
  }
  if (object.kind === 'ExternalSecret' && object.apiVersion.startsWith('external-secrets.io/')) return externalSecret(object, mapGet(object.document.contents, 'spec'), object.name);
  if (object.kind === 'ClusterExternalSecret' && object.apiVersion.startsWith('external-secrets.io/')) {
    // One ExternalSecret per namespace its selectors pick; which namespaces those are takes the
    // cluster's namespace labels, so the Secret is taken to be wherever it is looked for.
    const spec = mapGet(object.document.contents, 'spec');
    const made = externalSecret(object, mapGet(spec, 'externalSecretSpec'), scalarText(mapGet(spec, 'externalSecretName')) ?? object.name);
    return { ...made, namespace: undefined, anyNamespace: true };
  }
  return undefined;
}

/** A Secret made by the External Secrets operator (`spec` of an ExternalSecret): keys are known, values are not. */
function externalSecret(object: K8sObject, spec: Node | undefined, defaultName: string): ObjectData {
  const result = blank('Secret', scalarText(mapGet(spec, 'target', 'name')) ?? defaultName, object.namespace, object.file, object.range);
  const template = mapGet(spec, 'target', 'template');
  const templateData = mapGet(template, 'data');
  const key = (node: Node | null | undefined, name: string) => push(result, name, { file: object.file, range: rangeOf(node) ?? object.range, value: undefined, encrypted: false, via: 'external' });
  // A template's data replaces what was fetched, unless its mergePolicy is Merge.
  const replaced = isMap(templateData) && scalarText(mapGet(template, 'mergePolicy')) !== 'Merge';
  if (replaced) {
    for (const entry of mapEntries(templateData)) key(entry.keyNode, entry.key);
    result.opaque = mapGet(template, 'templateFrom') !== undefined;
    return result;
  }
  for (const item of seqItems(mapGet(spec, 'data'))) {
    const name = scalarText(mapGet(item, 'secretKey'));
    if (name) key(mapGet(item, 'secretKey'), name);
  }
  for (const entry of mapEntries(templateData)) key(entry.keyNode, entry.key);
  result.opaque = mapGet(spec, 'dataFrom') !== undefined || mapGet(template, 'templateFrom') !== undefined;
  return result;
}

/** kustomize strips one pair of matching quotes around a literal's value. */
function unquote(value: string): string {
  return value.length >= 2 && value[0] === value[value.length - 1] && (value[0] === '"' || value[0] === "'") ? value.slice(1, -1) : value;
}

/** The object a configMapGenerator or secretGenerator produces. */
export function generatedData(generator: GeneratorSpec, kustomization: KustomizeFile, index: FileIndex): ObjectData {
  const result = blank(generator.kind, generator.name, generator.namespace, kustomization.file, generator.range);
  result.labels = new Map(generator.labels);
  result.annotations = new Map(generator.annotations);
  result.hashed = generator.hashSuffix;
  const dir = dirname(kustomization.file);
  for (const literal of generator.literals) push(result, literal.key, { file: kustomization.file, range: literal.range, value: unquote(literal.literal), encrypted: false, via: 'generator' });
  for (const file of generator.files) {
    const path = resolveInside(dir, file.path);
    const text = path === undefined ? undefined : index.text(path);
    // The whole file is the value: provenance points at all of it.
    const at = path !== undefined && text !== undefined ? { file: path, range: { start: 0, end: text.length } } : { file: kustomization.file, range: file.range };
    push(result, file.key, { ...at, value: text, encrypted: false, via: 'generator' });
  }
  for (const env of generator.envs) {
    const path = resolveInside(dir, env.value);
    const text = path === undefined ? undefined : index.text(path);
    if (path === undefined || text === undefined) continue;
    // A SOPS-encrypted env file: Flux decrypts it before the build; its sops_* keys go away.
    const lines = envLines(text);
    const sops = lines.some((l) => sopsValue.test(l.value));
    for (const line of lines) {
      if (sops && line.key.startsWith('sops_')) continue;
      const encrypted = sopsValue.test(line.value);
      push(result, line.key, { file: path, range: line.range, value: encrypted ? undefined : line.value, encrypted, via: 'generator' });
    }
  }
  return result;
}

/** An env file as kustomize reads it: `KEY=value` lines; blank lines and `#` comments skipped. */
export function envLines(text: string): Array<{ key: string; value: string; range: Range }> {
  const out: Array<{ key: string; value: string; range: Range }> = [];
  let offset = 0;
  for (const raw of text.split('\n')) {
    let line = raw.replace(/\r$/, '');
    let start = offset;
    if (offset === 0 && line.startsWith('\uFEFF')) {
      line = line.slice(1);
      start += 1;
    }
    const lead = line.length - line.trimStart().length;
    const body = line.slice(lead);
    const eq = body.indexOf('=');
    // A line without `=` takes its value from kustomize's environment: unknowable here.
    if (body !== '' && !body.startsWith('#') && eq > 0) out.push({ key: body.slice(0, eq), value: body.slice(eq + 1), range: { start: start + lead, end: start + line.length } });
    offset += raw.length + 1;
  }
  return out;
}

/** One patch document, with a way back from positions in its text to the file. */
export interface PatchDoc {
  file: string;
  root: Node | null;
  toFile(range: Range): Range;
  /** Where a node of the patch is written in `file`, without the trailing line break of a block. */
  at(node: Node | null | undefined): Range;
}

function patchDoc(file: string, root: Node | null, source: string, toFile: (r: Range) => Range): PatchDoc {
  const at = (node: Node | null | undefined): Range => {
    const range = rangeOf(node) ?? { start: 0, end: 0 };
    let end = range.end;
    while (end > range.start && /\s/.test(source[end - 1])) end--;
    return toFile({ start: range.start, end });
  };
  return { file, root, toFile, at };
}

/**
 * A patch file or inline patch. Its target is known before the patch is read: a patch whose
 * target does not select an object is never read for it (most overlay patches target a
 * Deployment, and a repository has hundreds).
 */
export interface PatchSource {
  target: PatchTarget | undefined;
  /** The patch's documents, read when asked. */
  docs(): PatchDoc[];
}

/** The patches a kustomization file applies: patch files first, then inline patches. */
export function patchSourcesOf(kustomization: KustomizeFile, index: FileIndex): PatchSource[] {
  const sources: PatchSource[] = [];
  const dir = dirname(kustomization.file);
  for (const ref of kustomization.patchFiles) {
    const path = resolveInside(dir, ref.value);
    if (path === undefined) continue;
    const docs = () => {
      const model = index.model(path);
      const text = index.text(path);
      return model && text !== undefined ? model.roots.map((root) => patchDoc(path, root, text, (r) => r)) : [];
    };
    sources.push({ target: ref.target, docs });
  }
  for (const patch of kustomization.inlinePatches) sources.push(inlinePatchSource(kustomization.file, patch, index));
  return sources;
}

export function inlinePatchSource(file: string, patch: InlinePatch, index: FileIndex): PatchSource {
  return { target: patch.target, docs: () => inlinePatchDocs(file, patch, index) };
}

// A parent's patches are read once per child: parse each inline patch once.
const parsedPatches = new Memo<InlinePatch, PatchDoc[]>();

/** Parses an inline patch (a string inside a YAML file) and maps its positions to the file. */
export function inlinePatchDocs(file: string, patch: InlinePatch, index: FileIndex): PatchDoc[] {
  return parsedPatches.ofAlong(patch, file, () => parseInlinePatch(file, patch, index));
}

function parseInlinePatch(file: string, patch: InlinePatch, index: FileIndex): PatchDoc[] {
  const text = index.text(file);
  const node = patch.node;
  const mapped =
    text !== undefined && node?.range ? decodeScalar(text.slice(node.range[0], node.range[1]), (node.type ?? 'PLAIN') as ScalarStyle, node.range[0], (node.srcToken as { indent?: number } | undefined)?.indent ?? 0) : undefined;
  const usable = mapped !== undefined && mapped.value === patch.text;
  const toFile = (r: Range): Range => (usable ? sourceRange(mapped, r.start, r.end) : patch.range);
  return rootsOf(patch.text).map((root) => patchDoc(file, root, patch.text, toFile));
}

/** A ConfigMap or Secret as a patch target sees it. */
function selectable(object: ObjectData): Selectable {
  return { group: '', version: 'v1', kind: object.kind, name: object.name, namespace: object.namespace, labels: object.labels, annotations: object.annotations };
}

/** Does a patch document without a target apply to `object`? Its kind and name say. */
function namesObject(doc: PatchDoc, object: ObjectData): boolean {
  if (isSeq(doc.root)) return false; // a JSON 6902 patch always needs a target
  const namespace = scalarText(mapGet(doc.root, 'metadata', 'namespace'));
  return scalarText(mapGet(doc.root, 'kind')) === object.kind && scalarText(mapGet(doc.root, 'metadata', 'name')) === object.name && (namespace === undefined || namespace === object.namespace);
}

const unescapePointer = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');

/** Applies one patch document (that `applies`) to the data of `object`, in place. */
function applyPatch(doc: PatchDoc, object: ObjectData): void {
  const layer = (node: Node | null | undefined, value: string | undefined, section: string): DataLayer => {
    const secretData = object.kind === 'Secret' && section === 'data';
    const encrypted = value !== undefined && sopsValue.test(value);
    return { file: doc.file, range: doc.at(node), value: value === undefined || encrypted ? undefined : secretData ? base64Text(value) : value, encrypted, via: 'patch' };
  };
  if (isSeq(doc.root)) {
    for (const op of seqItems(doc.root)) {
      const kind = scalarText(mapGet(op, 'op'));
      const path = scalarText(mapGet(op, 'path')) ?? '';
      const value = mapGet(op, 'value');
      const whole = /^\/(data|stringData)$/.exec(path);
      if (whole && (kind === 'add' || kind === 'replace')) {
        // The whole map is replaced: earlier keys are gone.
        object.data.clear();
        for (const entry of mapEntries(value)) push(object, entry.key, layer(op, scalarText(entry.value) ?? '', whole[1]));
        continue;
      }
      const match = /^\/(data|stringData)\/(.+)$/.exec(path);
      if (!match) continue;
      const key = unescapePointer(match[2]);
      if (kind === 'remove') object.data.delete(key);
      else if (kind === 'add' || kind === 'replace') push(object, key, layer(op, scalarText(value) ?? '', match[1]));
    }
    return;
  }
  for (const section of ['data', 'stringData'] as const) {
    for (const { key, keyNode, value } of mapEntries(mapGet(doc.root, section))) {
      const text = scalarText(value);
      if (text === undefined) object.data.delete(key); // `key: null` deletes in a strategic merge patch.
      else push(object, key, layer(keyNode, text, section));
    }
  }
  for (const [k, v] of stringMap(mapGet(doc.root, 'metadata', 'labels'))) object.labels.set(k, v);
  for (const [k, v] of stringMap(mapGet(doc.root, 'metadata', 'annotations'))) object.annotations.set(k, v);
}

/** What Flux adds on top of the kustomize build: spec.patches and spec.targetNamespace. */
export interface FluxOverlay {
  file: string;
  patches: readonly InlinePatch[];
  /** Components Flux adds to a path that has no kustomization file. */
  components: readonly KustomizeFile[];
  targetNamespace: string | undefined;
}

// A level's patch sources read the patch files when asked, so they stay right for the level's
// kustomization file (which render trees keep while it is unchanged): make them once.
const levelSources = new Memo<KustomizeFile, PatchSource[]>();

/** The patches that run at one level of the build: its components' first, then its own. */
export function levelPatchSources(level: KustomizeFile, index: FileIndex): PatchSource[] {
  return levelSources.ofAlong(level, index, () => [...level.componentFiles.flatMap((c) => levelPatchSources(c, index)), ...patchSourcesOf(level, index)]);
}

/**
 * A copy of `object` as the cluster receives it. kustomize builds inner kustomizations first;
 * at each level the included components' patches run, then the level's own patches, then its
 * namespace, name prefix/suffix and common labels. Flux's patches and targetNamespace come last.
 */
export function placedData(object: ObjectData, chain: readonly KustomizeFile[], flux: FluxOverlay, index: FileIndex): ObjectData {
  // The copy shares the object's maps until something changes them: most objects pass through
  // no patch and no common labels. (Layer arrays are never changed in place, only replaced.)
  const copy: ObjectData = { ...object };
  let owned = false;
  const own = () => {
    if (owned) return;
    owned = true;
    copy.data = new Map(copy.data);
    copy.labels = new Map(copy.labels);
    copy.annotations = new Map(copy.annotations);
  };
  const patch = (sources: readonly PatchSource[]) => {
    for (const source of sources) {
      // Labels and annotations change as patches run: each target is matched when its turn
      // comes, once for the patch (as kustomize selects before it applies).
      if (source.target && !matchesTarget(source.target, selectable(copy))) continue;
      for (const doc of source.docs()) {
        if (!source.target && !namesObject(doc, copy)) continue;
        own();
        applyPatch(doc, copy);
      }
    }
  };
  for (let i = chain.length - 1; i >= 0; i--) {
    const level = chain[i];
    if (level.isComponent) continue; // its patches run at the kustomization that includes it
    patch(levelPatchSources(level, index));
    copy.namespace = namespaceAt(level, copy.namespace);
    copy.name = nameAt(level, copy.name);
    if (level.commonLabels.size > 0 || level.commonAnnotations.size > 0) own();
    for (const [k, v] of level.commonLabels) copy.labels.set(k, v);
    for (const [k, v] of level.commonAnnotations) copy.annotations.set(k, v);
  }
  for (const component of flux.components) patch(levelPatchSources(component, index));
  patch(flux.patches.map((inline) => inlinePatchSource(flux.file, inline, index)));
  copy.namespace = flux.targetNamespace ?? copy.namespace;
  return copy;
}

/** A kustomization level sets the namespace of what it builds, when it says one. */
function namespaceAt(level: KustomizeFile, namespace: string | undefined): string | undefined {
  return level.namespace ?? namespace;
}

/** What the kustomization levels of `chain` add around an object's name, all together (components add nothing). */
export function nameAffixes(chain: readonly KustomizeFile[]): { prefix: string; suffix: string } {
  let prefix = '';
  let suffix = '';
  for (let i = chain.length - 1; i >= 0; i--) {
    if (chain[i].isComponent) continue;
    prefix = chain[i].namePrefix + prefix;
    suffix += chain[i].nameSuffix;
  }
  return { prefix, suffix };
}

/** A kustomization level wraps the name in its prefix and suffix. */
function nameAt(level: KustomizeFile, name: string): string {
  return `${level.namePrefix}${name}${level.nameSuffix}`;
}

/**
 * A file's ConfigMap or Secret as a cluster receives it (placedData), its data worked out
 * when first read. A cluster holds every such object its Kustomizations apply, but reads the
 * data only of those a substituteFrom names: a manifest of hundreds of ConfigMaps (scripts,
 * dashboards) cost each graph built after it appeared their data and a copy per cluster
 * (about 12 of the 20 ms of building the bench's graph after its 10k-line manifest, cold).
 * Who it is (kind, name, namespace) does not depend on its data, nor on patches: it is known
 * at once. Undefined for other kinds, and for an ExternalSecret, whose name is in its spec.
 * The graph reads the data it needs while it is built (resolveVariables); a graph kept
 * through edits of such ConfigMaps (workspace/graph-edits.ts) never needed theirs, so what
 * it would say later does not matter to it.
 */
export function placedFileObject(object: K8sObject, chain: readonly KustomizeFile[], flux: FluxOverlay, index: FileIndex): ObjectData | undefined {
  if (!isConfigMapOrSecret(object)) return undefined;
  let name = object.name;
  let namespace = object.namespace;
  for (let i = chain.length - 1; i >= 0; i--) {
    if (chain[i].isComponent) continue;
    namespace = namespaceAt(chain[i], namespace);
    name = nameAt(chain[i], name);
  }
  return new PlacedObject(object.kind, name, flux.targetNamespace ?? namespace, object, () => placedData(objectData(object)!, chain, flux, index));
}

class PlacedObject implements ObjectData {
  readonly hashed = false;
  private placed: ObjectData | undefined;

  constructor(
    readonly kind: ObjectData['kind'],
    readonly name: string,
    readonly namespace: string | undefined,
    private readonly object: K8sObject,
    private readonly place: () => ObjectData,
  ) {}

  get file(): string {
    return this.object.file;
  }

  /** Read when asked: a big file's objects know their ranges only once its nodes are read (workspace/file-model.ts). */
  get range(): Range {
    return this.object.range;
  }

  private get full(): ObjectData {
    this.placed ??= this.place();
    return this.placed;
  }

  get data(): Map<string, DataLayer[]> {
    return this.full.data;
  }

  get opaque(): boolean {
    return this.full.opaque;
  }

  get labels(): Map<string, string> {
    return this.full.labels;
  }

  get annotations(): Map<string, string> {
    return this.full.annotations;
  }
}

/** A generator with `behavior: merge` (or `replace`) changes an object a base generated. */
export function mergeGenerated(base: ObjectData, overlay: ObjectData, behavior: 'merge' | 'replace'): ObjectData {
  const data = behavior === 'replace' ? new Map<string, DataLayer[]>() : new Map([...base.data].map(([k, v]) => [k, [...v]]));
  for (const [key, layers] of overlay.data) data.set(key, [...(data.get(key) ?? []), ...layers]);
  return { ...base, data, labels: new Map([...base.labels, ...overlay.labels]), annotations: new Map([...base.annotations, ...overlay.annotations]) };
}
