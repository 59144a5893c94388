/**
 * What a rule is: an id, a default severity, its documentation, and a check that reports
 * ranges with messages and fixes. The engine stamps the id, severity and file on each report,
 * so a rule only says what it found and how to mend it.
 */
import type { Range, Severity } from '../model';
import type { DocumentView, SubstitutedScalar } from '../model/documents';
import type { RuleFix } from '../model/rule-edits';
import type { FluxGraph } from '../flux/graph';
import type { ReviewPolicy } from '../review-policy';
import type { Suppression } from '../suppressions';
import type { WorkspaceSchema } from '../kube/schema-types';
import type { ParsedFile } from '../yaml/document';

export interface RuleReport {
  range: Range;
  message: string;
  /** Overrides the rule's default severity for this one report (e.g. lower in comments). */
  severity?: Severity;
  related?: Array<{ file: string; range: Range; message: string }>;
  fixes?: RuleFix[];
}

export interface RuleContext {
  readonly file: string;
  readonly text: string;
  readonly parsed: ParsedFile;
  /** Every document with its scalars and substitution contexts; computed once per file. */
  documents(): readonly DocumentView[];
  /** Another workspace file, parsed (from the engine's cache), for fixes that edit it. */
  parsedFile(file: string): ParsedFile | undefined;
  /**
   * A small fact about a workspace file's current text (which names it mentions), computed
   * once per version of the file and named by `key`: undefined when the file does not exist.
   * Reading a text does not parse it, and most files a rule looks through need no parse.
   */
  derived<T>(file: string, key: string, compute: (text: string) => T): T | undefined;
  /**
   * A value derived from the Flux graph and the workspace's file texts alone, made once and
   * shared by every check until a file or the graph changes (`key` names it): what a rule
   * would otherwise work out again for each of a repository's thousands of files.
   */
  shared<T>(key: string, build: () => T): T;
  /** The workspace's files under a folder ('' for all), for rules that read a whole chart. */
  filesUnder(dir: string): readonly string[];
  /** The workspace's Flux graph, for rules about definitions (variables, sources). */
  fluxGraph(): FluxGraph;
  /** The reviewed exceptions of `.render-lens.yaml`: `allow:` entries, reason length, strict dollars. */
  policy(): ReviewPolicy;
  /** The file's suppression comments; `used` is filled in before `runsLast` rules run. */
  suppressions(): readonly Suppression[];
  knownRule(id: string): boolean;
  /** Field types of the workspace's own CustomResourceDefinitions (kube/workspace-crds.ts). */
  workspaceSchemas(): readonly WorkspaceSchema[];
  /** The scalars of documents substituted in at least one render context. */
  substitutedScalars(): ReadonlyArray<SubstitutedScalar & { document: DocumentView }>;
}

export interface Rule {
  /** SCREAMING-KEBAB, stable: it names the rule in settings, suppressions and docs. */
  readonly id: string;
  readonly severity: Severity;
  /** One line: what the rule catches. */
  readonly summary: string;
  /** Markdown for docs/rules/<id>.md: what it does, why it matters, an example, the fix. */
  readonly docs: string;
  /** Runs after every other rule (it reads what they found); its findings cannot be suppressed. */
  readonly runsLast?: boolean;
  /**
   * What the rule reads: YAML files (the default), or Helm chart templates, which are Go
   * templates and reach the rule unparsed (`documents()` is empty; read `text`).
   */
  readonly target?: 'yaml' | 'helm-template';
  check(context: RuleContext): Iterable<RuleReport>;
}
