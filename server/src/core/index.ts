/**
 * The analysis core as its adapters see it: the LSP server, the CLI and the rule-docs tool
 * import this module and nothing else of `core/` (a tidy test holds them to it). The core
 * reads files only through the host it is given, and decides itself which domain (Flux,
 * Helm, Fleet) answers a request.
 *
 * Data flow, from a file to a squiggle:
 *   host (disk, editor buffers) → Engine's file index → YAML documents with positions
 *   → the Flux graph (which Kustomizations render the file, with which variables)
 *   → rules (one per file in rules/) → findings with fixes as data → adapters (LSP, CLI).
 */
export { Engine, type EngineSettings } from './engine';
export type { WorkspaceHost } from './host';
export type { ChangedSpan, KnownEdit } from './workspace/text-change';

export { atLeast, type Edit, type Finding, type Fix, type Location, type Range, type Severity } from './model';
export { LineIndex } from './positions';
export { RULES } from './rules';
export { ruleDocsUrl } from './docs';
export { relativeLineLink } from './links';
export { countedNothing, describeCounts, type CheckedCounts } from './checked-counts';
export { combinedFix, type FixableFinding } from './fix-all';

export { hoverAt, completionsAt, definitionsAt, referencesAt, type Completion } from './editor-requests';
export type { Hover } from './model';
export { variableAt, renameVariable, validVariableName } from './navigation';

export { fileKind, formatRendered, renderContexts, renderFile } from './render/rendered-file';
export { explainFile, explainVariable, formatExplainedVariable, type ExplainedContext } from './render/explain';
export { displayShown } from './render/values';
export { describeClusters, formatClusters } from './render/clusters';
export { describeInventory, formatInventory } from './render/inventory';
export { exportVariables, formatExport } from './export/variables-export';

export { prepareFieldTypes } from './kube/schema-types';
export { envsubst, type EnvsubstResult } from './envsubst';
export { substituteResource } from './pipeline';
