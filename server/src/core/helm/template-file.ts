/**
 * One chart template analysed once: the action tree and the YAML layout recovered from it.
 * Both Helm rules and the hover read the same analysis; a small cache keyed by text keeps a
 * file from being scanned once per rule.
 */
import { templateLayout, type TemplateLayout } from './key-paths';
import { helmDialect } from '../gotemplate/dialect';
import { buildTree, dotRebound, type TemplateTree } from '../gotemplate/tree';

export interface TemplateAnalysis {
  tree: TemplateTree;
  layout: TemplateLayout;
  /** Whether `with` / `range` rebinds the dot around the action at `offset`. */
  rebound(offset: number): boolean;
}

/** By file, with the text it was made from: a key holding the text made every lookup hash it whole. */
const cache = new Map<string, { text: string; analysis: TemplateAnalysis }>();
/** Enough for every template of a large chart: a hover loads them all. */
const cacheSize = 128;

export function analyzeTemplate(file: string, text: string): TemplateAnalysis {
  const hit = cache.get(file);
  if (hit && hit.text === text) return hit.analysis;
  const tree = buildTree(file, text, helmDialect);
  let layout: TemplateLayout | undefined;
  const analysis: TemplateAnalysis = {
    tree,
    // Helpers loaded for their defines never need a layout.
    get layout() {
      layout ??= templateLayout(tree);
      return layout;
    },
    rebound: (offset) => reboundAt(tree, offset),
  };
  cache.delete(file);
  cache.set(file, { text, analysis });
  if (cache.size > cacheSize) cache.delete(cache.keys().next().value!);
  return analysis;
}

/**
 * Inside a define the dot is whatever the caller passes; charts nearly always pass the root
 * (`include "x.labels" .`), so only `with` / `range` inside the define count as rebinding.
 */
function reboundAt(tree: TemplateTree, offset: number): boolean {
  const define = tree.defines.find((d) => offset >= d.action.end && offset < d.end);
  return dotRebound(define ? define.body : tree.body, offset);
}
