/**
 * What the client and the server agree on: settings, command names, and the node options the
 * server is started with. The client imports this file only; it holds no logic.
 */
export { serverNodeOptions } from './runtime/node-options';

export type SeverityLevel = 'error' | 'warning' | 'information' | 'hint' | 'off';

/** The `renderLens.*` settings as the server reads them. */
export interface RenderLensSettings {
  enable: boolean;
  /** Rule id → severity, or 'off'. Wins over `.render-lens.yaml`. */
  severity: Record<string, SeverityLevel>;
  /** Strict substitution for clusters whose Flux version the repository does not show. */
  assumeStrict: boolean;
  /** Globs of workspace files not to check. */
  exclude: string[];
  /** Extra Helm values files, globs relative to each chart (`ci/*.yaml`), shown in hovers. */
  helmValuesFiles: string[];
  /** Check every file in the background once the open files are checked (with progress). */
  checkWorkspaceOnStartup: boolean;
}

/** What the client says about the editor at start. */
export interface InitializationOptions {
  /**
   * Red Hat's YAML extension already reports YAML syntax errors in this editor; Render Lens
   * then reports only what it alone can know.
   */
  yamlSyntaxReportedElsewhere?: boolean;
}

export const defaultSettings: RenderLensSettings = { enable: true, severity: {}, assumeStrict: true, exclude: [], helmValuesFiles: [], checkWorkspaceOnStartup: true };

/** Checks every file of every workspace folder and publishes the diagnostics. */
export const checkWorkspaceCommand = 'renderLens.server.checkWorkspace';

export interface CheckWorkspaceResult {
  files: number;
  findings: number;
  errors: number;
}

/** The render contexts of a document, for the status bar and the preview's picker. */
export const contextsRequest = 'renderLens/contexts';
export interface ContextsParams {
  uri: string;
}
export interface ContextsResult {
  contexts: Array<{ id: number; label: string; substitutes: boolean; strict: boolean }>;
  /** What checks the file gets besides Flux's: a Helm chart template, a Fleet file, or plain YAML. */
  kind: FileKind;
}
export type FileKind = 'helm-template' | 'fleet' | 'yaml';

/** A document as kustomize-controller applies it in one context (secrets redacted). */
export const renderRequest = 'renderLens/render';
export interface RenderParams {
  uri: string;
  /** An id from ContextsResult; the first context when omitted. */
  context?: number;
}
export interface RenderResult {
  label: string;
  text: string;
}

/** Where a variable's value comes from, layer by layer, in every Kustomization. */
export const explainVariableRequest = 'renderLens/explainVariable';
export interface ExplainVariableParams {
  uri: string;
  /** The variable under this position (a `${…}` or a definition key), unless `name` is given. */
  position?: { line: number; character: number };
  name?: string;
}
export interface ExplainVariableResult {
  name: string;
  text: string;
}

/** The Flux model of every workspace folder: clusters, where they start, their sources and variable sources. */
export const clustersRequest = 'renderLens/clusters';
export interface ClustersResult {
  /** The same text as `render-lens clusters`, one section per workspace folder. */
  text: string;
  /** Per workspace folder: how many files the server indexed and the clusters it found. */
  folders: Array<{ root: string; files: number; clusters: string[] }>;
}
