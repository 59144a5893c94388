/**
 * A document as the rules see it (rules/rule.ts DocumentView), with its scalars made when
 * first read, and only those that hold a `$`. After an edit, the per-document finding cache answers for every document the
 * edit did not touch, so the scalars of those (moved by the edit, thousands in a big
 * manifest) are never looked at: building them eagerly was most of an edit's cost.
 */
import type { DocumentView, SubstitutedScalar } from '../model/documents';
import type { DocumentSubstitution } from '../substitution';
import type { DocumentScalars } from './document-cache';
import type { K8sObject } from './objects';
import type { Document } from 'yaml';
import { scalarsOf, type ScalarSite } from '../yaml/scalar-sites';

export class LazyDocumentView implements DocumentView {
  private madeScalars: readonly SubstitutedScalar[] | undefined;
  private madeSubstituted: DocumentView['substituted'] | undefined;

  constructor(
    readonly index: number,
    readonly document: Document.Parsed,
    readonly object: K8sObject | undefined,
    readonly substitution: DocumentSubstitution,
    private readonly source: string,
    /** The document's own scalars, from the engine's cache. */
    private readonly own: DocumentScalars,
    /** The comments that sit in the document and hold a `$`, as scalars. */
    private readonly comments: readonly SubstitutedScalar[],
  ) {}

  get scalars(): readonly SubstitutedScalar[] {
    this.madeScalars ??= this.comments.length === 0 ? this.own.scalars() : [...this.own.scalars(), ...this.comments];
    return this.madeScalars;
  }

  /** `scalars`, each with this document, when it is substituted in a context; else empty. Made once. */
  get substituted(): DocumentView['substituted'] {
    this.madeSubstituted ??= this.substitution.active.length === 0 ? [] : this.scalars.map(({ site, scan, comment }) => ({ site, scan, comment, document: this }));
    return this.madeSubstituted;
  }

  allSites(): ScalarSite[] {
    return scalarsOf(this.document, this.source);
  }

  /** How many scalars (and comments with a `$`) the document has, for the count a run reports. */
  get scalarCount(): number {
    return this.own.total() + this.comments.length;
  }
}
