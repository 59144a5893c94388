/**
 * Flux's post-build variable substitution (fluxcd/pkg envsubst v1.7.0), exactly: the same
 * output bytes, error texts and panics as kustomize-controller, plus a tolerant scan for the
 * editor. The core is pure: it imports nothing outside this folder.
 */
export { envsubst, evaluateExpansion, type EnvsubstOptions, type EnvsubstResult, type Lookup } from './evaluate';
export { noRuns, scanTemplate, type DollarRuns, type DollarRun, type Expansion, type TemplateScan } from './template';
export { isDefaultOperator, type ArgumentNode, type ExpansionNode, type NameRef, type Operator, type TextNode } from './ast';
export {
  BAD_SUBSTITUTION,
  MISSING_CLOSING_BRACE,
  UNABLE_TO_PARSE_DEFAULT_FUNCTION,
  UNABLE_TO_PARSE_FUNCTION_ARGUMENT,
  UNABLE_TO_PARSE_VARIABLE_NAME,
} from './messages';
