/**
 * How kustomize picks the objects a patch applies to (`target:`), shared by the patches
 * that change ConfigMaps and the parent patches that change child Kustomizations.
 */
import { compileGoRegexp, type GoRegexp, isLiteralPattern } from '../go-regexp';
import type { PatchTarget } from './kustomize-file';

/** What a target is matched against: the object as it is at that point of the build. */
export interface Selectable {
  group: string;
  version: string;
  kind: string;
  name: string;
  namespace: string | undefined;
  labels: ReadonlyMap<string, string>;
  annotations: ReadonlyMap<string, string>;
}

/**
 * kustomize anchors target names, kinds and namespaces as Go regular expressions
 * (`^(?:pattern)$`, types.SelectorRegex). They come from the repository, so they run on RE2,
 * in linear time: JavaScript's backtracking RegExp takes seconds on `(a+)+$`.
 */
function matchesPattern(pattern: string | undefined, value: string): boolean {
  if (pattern === undefined || pattern === '' || pattern === value) return true;
  // A plain name matches only itself: no need to load the regexp engine for it.
  if (isLiteralPattern(pattern)) return false;
  return anchored(pattern)?.test(value) ?? false;
}

// Every object is matched against every target of its overlays, on every graph build: compile
// each pattern once. Bounded: patterns come from the repository.
const compiled = new Map<string, GoRegexp | undefined>();

/** The pattern as an anchored expression, or undefined when kustomize could not compile it either. */
function anchored(pattern: string): GoRegexp | undefined {
  if (compiled.has(pattern)) return compiled.get(pattern);
  let expression: GoRegexp | undefined;
  try {
    expression = compileGoRegexp(`^(?:${pattern})$`);
  } catch {
    expression = undefined;
  }
  if (compiled.size >= 1024) compiled.clear();
  compiled.set(pattern, expression);
  return expression;
}

/** Splits `a=b,c in (d,e)` on the commas that separate requirements, not those inside `( )`. */
function requirements(selector: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const c of selector) {
    if (c === '(') depth++;
    if (c === ')') depth = Math.max(0, depth - 1);
    if (c === ',' && depth === 0) {
      out.push(current);
      current = '';
    } else current += c;
  }
  out.push(current);
  return out.map((r) => r.trim()).filter((r) => r !== '');
}

/**
 * A Kubernetes label selector: `k=v`, `k==v`, `k!=v`, `k`, `!k`, `k in (a,b)`, `k notin (a,b)`.
 * A requirement we cannot parse matches nothing, as kustomize would reject the selector.
 */
export function matchesSelector(selector: string | undefined, labels: ReadonlyMap<string, string>): boolean {
  if (selector === undefined || selector.trim() === '') return true;
  return requirements(selector).every((term) => {
    let m = /^([^=!\s(),]+)\s*(==|=|!=)\s*([^=!\s(),]*)$/.exec(term);
    if (m) return m[2] === '!=' ? labels.get(m[1]) !== m[3] : labels.get(m[1]) === m[3];
    m = /^([^=!\s(),]+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(term);
    if (m) {
      const values = m[3].split(',').map((v) => v.trim());
      const value = labels.get(m[1]);
      return m[2] === 'in' ? value !== undefined && values.includes(value) : value === undefined || !values.includes(value);
    }
    m = /^(!?)\s*([^=!\s(),]+)$/.exec(term);
    if (m) return m[1] === '!' ? !labels.has(m[2]) : labels.has(m[2]);
    return false;
  });
}

export function matchesTarget(target: PatchTarget, object: Selectable): boolean {
  return (
    matchesPattern(target.kind, object.kind) &&
    matchesPattern(target.name, object.name) &&
    (target.namespace === undefined || target.namespace === '' || matchesPattern(target.namespace, object.namespace ?? '')) &&
    (target.group === undefined || target.group === object.group) &&
    (target.version === undefined || target.version === '' || target.version === object.version) &&
    matchesSelector(target.labelSelector, object.labels) &&
    matchesSelector(target.annotationSelector, object.annotations)
  );
}
