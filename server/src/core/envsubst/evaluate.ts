/**
 * Evaluation with Flux's semantics (flux.md §3.3, §3.4, §4): one pass, values inserted
 * verbatim, every nested argument evaluated before its operator runs (so strict mode fails on
 * an unset variable even in a default word that is not used), and evaluation left to right
 * with the first error or panic ending it.
 */
import { type ExpansionNode, isDefaultOperator } from './ast';
import { ByteSink, type ByteString, decodeBytes, toUint8Array, utf8Decode, utf8Encode } from './bytes';
import { applyOperator } from './functions';
import { EvaluationFailure, GoPanic, ParseFailure } from './messages';
import { measureExpansion, parseExpansion } from './parser';
import { type Expansion, endOfInput, forEachDollarRun, startsExpansion } from './template';
import { goQuote } from './unicode';

export type EnvsubstResult =
  /** `text` is `bytes` decoded as UTF-8, each invalid byte as U+FFFD (as Go decodes runes). */
  | { kind: 'output'; bytes: Uint8Array; text: string }
  /** The exact envsubst.Eval error text, e.g. 'missing closing brace'. */
  | { kind: 'error'; message: string }
  /** The Go runtime panic text, e.g. 'runtime error: slice bounds out of range [1:0]'. */
  | { kind: 'panic'; message: string };

/** undefined means "not defined": strict mode then fails unless the operator is a default; otherwise it acts as "". */
export type Lookup = (name: string) => string | undefined;

export interface EnvsubstOptions {
  strict: boolean;
  /**
   * Variables whose values stand for secrets (a preview substitutes placeholders for them).
   * An operator that would transform one — length, substring, case, trim, replace — yields
   * `<secret NAME, transformed>` instead of working on the placeholder's text. Flux has no
   * such thing; only previews set it.
   */
  redacted?: (name: string) => boolean;
}

/**
 * envsubst.Eval: parses the whole input (a parse error anywhere wins), then substitutes.
 * It walks the text twice, first measuring every expansion and then parsing and evaluating
 * each, so nothing outlives its own expansion: on manifests many megabytes long this keeps the
 * garbage collector out of the way.
 */
export function envsubst(input: string, lookup: Lookup, options: EnvsubstOptions): EnvsubstResult {
  const limit = endOfInput(input);
  let parseError: string | undefined;
  forEachDollarRun(input, limit, (start, end, next) => {
    if (!startsExpansion(end - start, next)) return end;
    const measured = measureExpansion(input, end - 1);
    if (typeof measured === 'number') return measured;
    parseError = measured.message;
    return limit;
  });
  if (parseError !== undefined) return { kind: 'error', message: parseError };

  const sink = new ByteSink(limit + (limit >> 3));
  let from = 0;
  const failure = guard(() => {
    forEachDollarRun(input, limit, (start, end, next) => {
      sink.writeText(input.slice(from, start));
      const count = end - start;
      const live = startsExpansion(count, next);
      // Each `$$` becomes `$`; an odd last `$` stays literal unless it starts an expansion.
      sink.writeBytes('$'.repeat(live ? (count - 1) / 2 : (count + 1) >> 1));
      from = end;
      if (!live) return end;
      const node = parseExpansion(input, end - 1);
      if (node instanceof ParseFailure) throw new Error('envsubst: an expansion measured but failed to parse');
      sink.writeBytes(evaluateNode(node, lookup, options));
      from = node.end;
      return node.end;
    });
    sink.writeText(input.slice(from, limit));
  });
  if (failure !== undefined) return failure;
  const bytes = sink.bytes();
  return { kind: 'output', bytes, text: decodeBytes(bytes) };
}

/** Evaluates one expansion alone, as envsubst would evaluate an input made of just that expression. */
export function evaluateExpansion(expansion: Expansion, lookup: Lookup, options: EnvsubstOptions): EnvsubstResult {
  const node = expansion.node;
  if (expansion.error !== undefined || node === undefined) return { kind: 'error', message: expansion.error ?? 'bad substitution' };
  return evaluateToResult(() => evaluateNode(node, lookup, options));
}

/** An expansion whose arguments are being evaluated: `values` holds those done so far. */
interface PendingExpansion {
  readonly node: ExpansionNode;
  readonly values: ByteString[];
}

/**
 * The value of one expansion as bytes; throws EvaluationFailure or GoPanic. Nested arguments
 * are evaluated depth first, left to right, as Go's recursion does, but on a stack of our own:
 * nesting as deep as the parser accepts must not overflow the call stack.
 */
export function evaluateNode(root: ExpansionNode, lookup: Lookup, options: EnvsubstOptions): ByteString {
  // Most expansions hold no other, and need no stack.
  const texts: ByteString[] = [];
  for (const arg of root.args) {
    if (arg.kind === 'expansion') return evaluateNested(root, lookup, options);
    texts.push(utf8Encode(arg.value));
  }
  return applyToValue(root, texts, lookup, options);
}

function evaluateNested(root: ExpansionNode, lookup: Lookup, options: EnvsubstOptions): ByteString {
  const pending: PendingExpansion[] = [{ node: root, values: [] }];
  for (;;) {
    const top = pending[pending.length - 1];
    if (top === undefined) throw new Error('envsubst: nothing left to evaluate');
    const { node, values } = top;
    const arg = node.args[values.length];
    if (arg?.kind === 'expansion') {
      pending.push({ node: arg, values: [] });
      continue;
    }
    if (arg !== undefined) {
      values.push(utf8Encode(arg.value));
      continue;
    }
    const value = applyToValue(node, values, lookup, options);
    pending.pop();
    const parent = pending[pending.length - 1];
    if (parent === undefined) return value;
    parent.values.push(value);
  }
}

/** Looks the variable up and applies the operator to it, once every argument is evaluated. */
function applyToValue(node: ExpansionNode, args: readonly ByteString[], lookup: Lookup, options: EnvsubstOptions): ByteString {
  const value = lookup(node.name);
  if (value === undefined && options.strict && !isDefaultOperator(node.operator)) {
    throw new EvaluationFailure(`variable not set (strict mode): ${goQuote(node.name)}`);
  }
  if (value !== undefined && options.redacted?.(node.name) && transforms(node.operator)) return utf8Encode(`<secret ${node.name}, transformed>`);
  return applyOperator(node.operator, utf8Encode(value ?? ''), args);
}

/** Whether the operator returns something computed from the value, rather than the value itself or a default word. */
function transforms(operator: ExpansionNode['operator']): boolean {
  return operator !== 'value' && operator !== '^,' && operator !== ',^' && !isDefaultOperator(operator);
}

/** Runs an evaluation that yields bytes and wraps its outcome as a result. */
function evaluateToResult(run: () => ByteString): EnvsubstResult {
  let bytes = '';
  const failure = guard(() => {
    bytes = run();
  });
  return failure ?? { kind: 'output', bytes: toUint8Array(bytes), text: utf8Decode(bytes) };
}

/** Runs an evaluation; an evaluation error or a Go panic becomes the result. */
function guard(run: () => void): EnvsubstResult | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (error instanceof EvaluationFailure) return { kind: 'error', message: error.message };
    if (error instanceof GoPanic) return { kind: 'panic', message: error.message };
    throw error;
  }
}
