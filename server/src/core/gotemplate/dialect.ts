/**
 * A product that runs Go's text/template: its delimiters and its function table. The lexer,
 * the parser and the tree take one, so that Helm's `{{ }}` and Fleet's `${ }` go through the
 * same front end.
 */
import { fleetRemovedFunctions, goBuiltins, helmFunctions, helmRemovedFunctions, sprigFunctions } from './functions';

export interface Dialect {
  /** How messages name the product. */
  readonly product: string;
  readonly leftDelim: string;
  readonly rightDelim: string;
  hasFunction(name: string): boolean;
}

function dialect(product: string, leftDelim: string, rightDelim: string, functions: readonly string[], removed: readonly string[]): Dialect {
  const table = new Set(functions.filter((name) => !removed.includes(name)));
  return { product, leftDelim, rightDelim, hasFunction: (name) => table.has(name) };
}

/** Helm 3: `{{ }}`, sprig minus env/expandenv, plus include, tpl, required, toYaml, lookup, … */
export const helmDialect = dialect('Helm', '{{', '}}', [...goBuiltins, ...sprigFunctions, ...helmFunctions], helmRemovedFunctions);

/** Fleet's values templating: `${ }` (Delims("${", "}")), sprig minus what Fleet removes. */
export const fleetDialect = dialect('Fleet', '${', '}', [...goBuiltins, ...sprigFunctions], fleetRemovedFunctions);
