/**
 * What an expansion that reads an undefined variable does in each render context: fail the
 * Kustomization (strict), fall back to its default word, or render (usually empty). The
 * undefined-variable rules share this, so their verdicts never disagree with each other or
 * with the hover.
 */
import { Memo } from '../../memo';
import { evaluateExpansion, isDefaultOperator, type Expansion } from '../../envsubst';
import { mayComeFrom } from '../../flux/variables';
import type { ActiveContext } from '../../substitution';

/** `unknown`: the name is in no visible layer of an open set; a source Render Lens cannot read may define it. */
export type OutcomeKind = 'fails' | 'default' | 'renders' | 'unknown';

export interface ContextOutcome {
  active: ActiveContext;
  kind: OutcomeKind;
  /** The undefined names the expansion reads in this context. */
  missing: string[];
  /** The text it renders to, or the controller's error. */
  detail: string;
  /** The expansion reads a Secret's value: `detail` never quotes it. */
  secret?: boolean;
  /**
   * It fails only because strict substitution is assumed (Flux ≥ 2.9's default; the
   * repository does not show the cluster's version): what it renders to if it is not.
   */
  ifNotStrict?: string;
}

/** A stand-in for values the repository cannot show (encrypted or external secrets). */
const unknownValue = '\u2026';

/** The last answer per expansion: UNDEFINED-VAR and SILENT-DEFAULT ask the same question in turn. */
const lastAnswer = new Memo<Expansion, readonly ContextOutcome[]>();

/** The answer for most expansions, one array for all: a new empty one per expansion and rule showed in a big file's allocations. */
const none: readonly ContextOutcome[] = Object.freeze([]);

export function outcomesOf(expansion: Expansion, active: readonly ActiveContext[]): readonly ContextOutcome[] {
  // The common case, answered without the memo: every name defined wherever it is read.
  if (expansion.error !== undefined || allDefinedEverywhere(active, expansion.names)) return none;
  return lastAnswer.ofAlong(expansion, active, () => computeOutcomes(expansion, active));
}

/**
 * Per set of contexts (documents substituted alike share one) and name: is it defined in every
 * context that can be known? Asked for every expansion of a file, by two rules.
 */
const everywhere = new Memo<readonly ActiveContext[], Map<string, boolean>>();

function allDefinedEverywhere(active: readonly ActiveContext[], names: readonly string[]): boolean {
  return names.every((name) => definedEverywhere(active, name));
}

function definedEverywhere(active: readonly ActiveContext[], name: string): boolean {
  const byName = everywhere.of(active, () => new Map());
  let defined = byName.get(name);
  if (defined === undefined) byName.set(name, (defined = active.every((context) => context.variable(name) !== undefined)));
  return defined;
}

function computeOutcomes(expansion: Expansion, active: readonly ActiveContext[]): readonly ContextOutcome[] {
  const node = expansion.node;
  if (!node) return none;
  const outcomes: ContextOutcome[] = [];
  for (const context of active) {
    const missing = expansion.names.filter((name) => context.variable(name) === undefined);
    if (missing.length === 0) continue;
    if (context.opaque) {
      // A source Render Lens cannot read may define it: unknown, never "fails".
      outcomes.push({ active: context, kind: 'unknown', missing, detail: mayComeFrom(context.openBecause) });
      continue;
    }
    const lookup = (masked: boolean) => (name: string) => {
      const variable = context.variable(name);
      if (!variable) return undefined;
      return masked && variable.layers[0]?.secret ? unknownValue : (variable.value ?? unknownValue);
    };
    const result = evaluateExpansion(expansion, lookup(false), { strict: context.strict });
    // The verdict comes from the real values; the text shown is evaluated with each Secret's
    // value masked, so no message quotes one (a default word, a replacement, an error).
    const secret = expansion.names.some((name) => context.variable(name)?.layers[0]?.secret === true);
    const shown = secret ? evaluateExpansion(expansion, lookup(true), { strict: context.strict }) : result;
    const text = (r: typeof result) => (r.kind === 'output' ? r.text : r.kind === 'panic' ? `panic: ${r.message} [recovered]` : r.message);
    const detail = (shown.kind === 'output') === (result.kind === 'output') ? text(shown) : 'a secret value (not shown)';
    const kind: OutcomeKind = result.kind !== 'output' ? 'fails' : isDefaultOperator(node.operator) && missing.includes(node.name) ? 'default' : 'renders';
    const lenient = kind === 'fails' && context.strictAssumed ? evaluateExpansion(expansion, lookup(true), { strict: false }) : undefined;
    const ifNotStrict = lenient?.kind === 'output' ? { ifNotStrict: secret ? 'a secret value (not shown)' : lenient.text } : {};
    outcomes.push({ active: context, kind, missing, detail, ...(secret ? { secret } : {}), ...ifNotStrict });
  }
  return outcomes;
}

/** "renders empty in staging/apps; fails … in production/apps (strict)": one clause per distinct outcome. */
export function describeOutcomes(outcomes: readonly ContextOutcome[]): string {
  const clauses = new Map<string, string[]>();
  for (const outcome of outcomes) {
    const clause =
      outcome.kind === 'unknown'
        ? `is in no source Render Lens can read (${outcome.detail})`
        : outcome.kind === 'fails' && outcome.ifNotStrict !== undefined
        ? `fails the Kustomization if its Flux substitutes strictly, as Flux ≥ 2.9 does by default (${outcome.detail}), else ${outcome.ifNotStrict === '' ? 'renders empty' : `renders as ${quote(outcome.ifNotStrict)}`}`
        : outcome.kind === 'fails'
        ? `fails the Kustomization (strict: ${outcome.detail})`
        : outcome.secret && outcome.kind === 'default'
          ? 'uses the default, which holds a secret value (not shown)'
          : outcome.secret
            ? 'renders a value that holds a secret (not shown)'
            : outcome.kind === 'default'
              ? `uses the default ${quote(outcome.detail)}`
              : outcome.detail === ''
                ? 'renders empty'
                : `renders as ${quote(outcome.detail)}`;
    clauses.set(clause, [...(clauses.get(clause) ?? []), outcome.active.label]);
  }
  return [...clauses].map(([clause, labels]) => `${clause} in ${[...new Set(labels)].join(', ')}`).join('; ');
}

function quote(text: string): string {
  const short = text.length > 40 ? `${text.slice(0, 39)}…` : text;
  return `\`${short.replace(/`/g, "'").replace(/\n/g, '⏎')}\``;
}
