/**
 * One chart template analysed once: the action tree and the YAML layout recovered from it.
 * Both Helm rules and the hover read the same analysis; a small cache keyed by text keeps a
 * file from being scanned once per rule.
 */
import { templateLayout, type TemplateLayout } from './key-paths';
import { buildTree, dotRebound, type TemplateTree } from './tree';

export interface TemplateAnalysis {
  tree: TemplateTree;
  layout: TemplateLayout;
  /** Whether `with` / `range` rebinds the dot around the action at `offset`. */
  rebound(offset: number): boolean;
}

const cache = new Map<string, TemplateAnalysis>();
/** Enough for every template of a large chart: a hover loads them all. */
const cacheSize = 128;

export function analyzeTemplate(file: string, text: string): TemplateAnalysis {
  const key = `${file}\u0000${text}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const tree = buildTree(file, text);
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
  cache.set(key, analysis);
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
