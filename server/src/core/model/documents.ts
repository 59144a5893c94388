/**
 * A file's YAML documents as the rules and the domain code read them: each document's
 * Kubernetes identity, how the controller substitutes it, and the scalars substitution can
 * change. The engine builds these once per file version (workspace/document-view.ts).
 */
import type { Document } from 'yaml';
import type { TemplateScan } from '../envsubst';
import type { DocumentSubstitution } from '../substitution';
import type { K8sObject } from '../workspace/objects';
import type { ScalarSite } from '../yaml/scalar-sites';

/** A scalar of the file (or a comment's text) with the envsubst view of its decoded value. */
export interface SubstitutedScalar {
  site: ScalarSite;
  /** Where the envsubst view of the decoded value has its `$` runs and expansions. */
  scan: TemplateScan;
  /** A comment: the controller drops it; the engine lowers findings in it to information. */
  comment?: boolean;
}

/** One YAML document of the file: its Kubernetes identity and how the controller treats it. */
export interface DocumentView {
  index: number;
  document: Document.Parsed;
  object: K8sObject | undefined;
  substitution: DocumentSubstitution;
  /** The scalars (keys and values) and comments whose text holds a `$`: all that substitution can change. */
  scalars: readonly SubstitutedScalar[];
  /** Every scalar of the document, keys and values, in source order (for rules that read more than `$`). */
  allSites(): ScalarSite[];
  /** `scalars` each with this document, when it is substituted in a context; else empty. */
  substituted: ReadonlyArray<SubstitutedScalar & { document: DocumentView }>;
}
