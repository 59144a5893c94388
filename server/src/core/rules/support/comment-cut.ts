/**
 * A substituted value that holds ` #` (or a tab before `#`), landing in a scalar the controller
 * writes plain: go-yaml v2 serializes `key: ${X}` before substituting, so `X=abc #def` reads
 * back as `abc` and the rest is a comment; so does `alerts to ${X}` with `X=#ops`. Asked only
 * when a variable's value holds a `#`.
 */
import { envsubst, type TemplateScan } from '../../envsubst';
import type { Variable } from '../../flux/variables';
import { Memo } from '../../memo';
import { scalarAfterSubstitution } from '../../render/scalar-after';
import type { ActiveContext } from '../../substitution';
import type { ScalarSite } from '../../yaml/scalar-sites';

export interface CommentCut {
  active: ActiveContext;
  /** What the cluster receives. */
  received: string;
  /** A Secret's value went in: the text is not shown. */
  secret: boolean;
}


/** Per set of variables, whether any value holds a `#`: mostly none does, and then no scalar is looked at. */
const anyHash = new Memo<ReadonlyMap<string, Variable>, boolean>();

function mayCut(context: ActiveContext): boolean {
  const vars = context.context.instance.variables.vars;
  return anyHash.of(vars, () => [...vars.values()].some((variable) => variable.value?.includes('#')));
}

export function commentCuts(active: readonly ActiveContext[], site: ScalarSite, scan: TemplateScan): CommentCut[] {
  if (site.isKey || !active.some(mayCut)) return [];
  const cuts: CommentCut[] = [];
  for (let i = 0; i < active.length; i++) {
    const context = active[i];
    let holdsHash = false;
    let secret = false;
    for (let e = 0; e < scan.expansions.length; e++) {
      for (const name of scan.expansions[e].names) {
        const variable = context.variable(name);
        if (variable?.value?.includes('#')) holdsHash = true;
        if (variable?.layers[0]?.secret) secret = true;
      }
    }
    if (!holdsHash) continue;
    const lookup = (name: string) => context.variable(name)?.value;
    const meant = envsubst(site.value, lookup, { strict: context.strict });
    const after = scalarAfterSubstitution(site.value, false, lookup, context.strict);
    if (meant.kind !== 'output' || after.kind !== 'value' || after.type !== 'string') continue;
    if (after.display.length < meant.text.length && meant.text.startsWith(after.display.trimEnd())) cuts.push({ active: context, received: after.display, secret });
  }
  return cuts;
}
