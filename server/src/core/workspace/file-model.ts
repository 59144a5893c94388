/**
 * The compact model of a file that the Flux graph reads: the root node of each document and
 * the Kubernetes objects they hold. It is built by the block-subset reader when it can be,
 * else copied out of a full parse without the syntax tree, so the index can keep it for every
 * file the graph needs without keeping syntax trees of files nobody has open.
 */
import { Alias, Pair, Scalar, YAMLMap, YAMLSeq, isAlias, isMap, isPair, isScalar, isSeq, type Node } from 'yaml';
import { notCheckedReason } from '../limits';
import type { ParsedFile } from '../yaml/document';
import { parseYamlFile } from '../yaml/document';
import { readBlockBoth, readBlockYaml, type BlockFile } from '../yaml/block-yaml';
import { rangeOf } from '../yaml/nodes';
import type { Range } from '../model';
import { scanIdentities } from './identity-scan';
import { objectsOf, type Identity, type K8sObject } from './objects';

export interface FileModel {
  /** The root node of each document (null for a document without one). */
  roots: ReadonlyArray<Node | null>;
  objects: readonly K8sObject[];
  /**
   * The block-subset reader's reading of the text (roots, documents' ranges, comments), when
   * it took the text whole: a check of the file builds its parse from it instead of reading
   * the file again (document.ts, blockParsedFile).
   */
  block?: BlockFile;
}

/**
 * From this size on (UTF-16 units), a file's objects are first read from a scan of its lines,
 * and its nodes only when something asks for them. Below it a reading costs little next to
 * what the graph does with the file, and most small files it reads (kustomization files, Flux
 * objects, patches) it needs whole.
 */
export const scannedFrom = 64 * 1024;

/** The model of `text`; `parse` gives the full parse when the fast reader does not take the text. */
export function modelOf(file: string, text: string, parse: () => ParsedFile): FileModel {
  if (text.length >= scannedFrom && notCheckedReason(text) === undefined) {
    const identities = scanIdentities(text);
    if (identities) return scannedModel(file, identities, () => readModel(file, text, parse));
  }
  return readModel(file, text, parse);
}

function readModel(file: string, text: string, parse: () => ParsedFile): FileModel {
  // One reading: the roots, and the layout the check's parse is built from when it is modelled.
  const read = notCheckedReason(text) !== undefined ? undefined : readBlockBoth(text);
  if (!read) return modelOfRoots(file, parsedRoots(parse));
  const model = modelOfRoots(file, read.documents);
  return read.file ? { ...model, block: read.file } : model;
}

/**
 * A model whose objects carry the scanned identities; their documents, their ranges and the
 * file's roots are read (all at once, by `read`) when first asked for.
 */
function scannedModel(file: string, identities: ReadonlyArray<Identity | undefined>, read: () => FileModel): FileModel {
  let whole: FileModel | undefined;
  const roots = () => (whole ??= read()).roots;
  const objects: K8sObject[] = [];
  identities.forEach((identity, index) => {
    if (!identity) return;
    let range: Range | undefined;
    objects.push({
      file,
      index,
      ...identity,
      document: {
        get contents() {
          return roots()[index] ?? null;
        },
      },
      get range() {
        return (range ??= rangeOf(roots()[index]) ?? { start: 0, end: 0 });
      },
    });
  });
  return {
    objects,
    get roots() {
      return roots();
    },
    // Only once read: a check's parse asks for it (file-index.ts), and a file the block reader
    // does not take is read through that very parse, so asking here would read it again.
    get block() {
      return whole?.block;
    },
  };
}

/** The model of a file whose document roots are known (compact already: no syntax tree). */
export function modelOfRoots(file: string, roots: ReadonlyArray<Node | null>): FileModel {
  return { roots, objects: objectsOf(file, roots.map((contents) => ({ contents }))) };
}

/** The root node of each document of `text`, as the full parse (which `parse` gives) has them. */
export function rootsOf(text: string, parse: () => ParsedFile = () => parseYamlFile(text)): ReadonlyArray<Node | null> {
  // A file past a limit is not read at all: the full parse says so and has no documents.
  const fast = notCheckedReason(text) !== undefined ? undefined : readBlockYaml(text);
  return fast ?? parsedRoots(parse);
}

/** The roots of a full parse, copied without its syntax tree. */
function parsedRoots(parse: () => ParsedFile): Array<Node | null> {
  return parse().documents.map((document) => compactCopy(document.contents));
}

/**
 * The nodes of a full parse without what ties them to its syntax tree (source tokens, comments,
 * the schema). A block scalar keeps its source token: an explicit indentation indicator counts
 * from the token's indent when positions inside the scalar are mapped back to the file.
 */
function compactCopy(node: unknown): Node | null {
  if (isScalar(node)) {
    const copy = new Scalar(node.value);
    copy.range = node.range;
    // Kept so an alias of it (`APP: *app`) can still be read (nodes.ts, resolveAlias).
    if (node.anchor) copy.anchor = node.anchor;
    copy.source = node.source;
    if (node.type) copy.type = node.type;
    if (node.format) copy.format = node.format;
    if (node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED') copy.srcToken = node.srcToken;
    return copy;
  }
  if (isMap(node)) {
    const copy = new YAMLMap();
    copy.range = node.range;
    copy.flow = node.flow;
    for (const pair of node.items) if (isPair(pair)) copy.items.push(new Pair(compactCopy(pair.key), compactCopy(pair.value)));
    return copy;
  }
  if (isSeq(node)) {
    const copy = new YAMLSeq();
    copy.range = node.range;
    copy.flow = node.flow;
    for (const item of node.items) copy.items.push(compactCopy(item));
    return copy;
  }
  if (isAlias(node)) {
    const copy = new Alias(node.source);
    copy.range = node.range;
    return copy;
  }
  return null;
}
