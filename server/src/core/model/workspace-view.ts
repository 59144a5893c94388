/**
 * What hovers, completion, navigation and the renderers read of an analysed workspace: its
 * files, their documents, the Flux graph and the repository's settings. The engine is one;
 * tests and other hosts can give any object of this shape, and these features cannot reach
 * into the engine's caches or scheduling.
 */
import type { RepoConfig } from '../config';
import type { FluxGraph } from '../flux/graph';
import type { WorkspaceSchema } from '../kube/schema-types';
import type { K8sObject } from '../workspace/objects';
import type { ParsedFile } from '../yaml/document';
import type { DocumentView } from './documents';
import type { Finding } from './index';

export interface WorkspaceFiles {
  files(): readonly string[];
  isDirectory(dir: string): boolean;
  text(file: string): string | undefined;
  parsed(file: string): ParsedFile | undefined;
  objects(file: string): readonly K8sObject[];
}

export interface WorkspaceView {
  readonly index: WorkspaceFiles;
  config(): RepoConfig;
  fluxGraph(): FluxGraph;
  /** The documents of a file; with `at`, only the one holding that offset. */
  documentsOf(file: string, at?: number): DocumentView[];
  isHelmTemplate(path: string): boolean;
  helmValuesFiles(chartDir: string): string[];
  isChecked(file: string): boolean;
  workspaceSchemas(): readonly WorkspaceSchema[];
  /** The file's findings, as the check reports them (the renderer names those inside a document). */
  analyzeFile(file: string): { findings: readonly Finding[] };
}
