/**
 * A document as the rules see it (rules/rule.ts DocumentView), with its scalars made when
 * first read. After an edit, the per-document finding cache answers for every document the
 * edit did not touch, so the scalars of those (moved by the edit, thousands in a big
 * manifest) are never looked at: building them eagerly was most of an edit's cost.
 */
import type { DocumentView, SubstitutedScalar } from '../rules/rule';
import type { DocumentSubstitution } from '../substitution';
import type { K8sObject } from './objects';
import type { Document } from 'yaml';

export class LazyDocumentView implements DocumentView {
  private madeScalars: readonly SubstitutedScalar[] | undefined;
  private madeSubstituted: DocumentView['substituted'] | undefined;

  constructor(
    readonly index: number,
    readonly document: Document.Parsed,
    readonly object: K8sObject | undefined,
    readonly substitution: DocumentSubstitution,
    /** The document's own scalars (keys and values), from the engine's cache. */
    private readonly ownScalars: () => readonly SubstitutedScalar[],
    /** How many those are, when known without making them. */
    private readonly knownCount: () => number | undefined,
    /** The comments that sit in the document, as scalars. */
    private readonly comments: readonly SubstitutedScalar[],
  ) {}

  get scalars(): readonly SubstitutedScalar[] {
    this.madeScalars ??= this.comments.length === 0 ? this.ownScalars() : [...this.ownScalars(), ...this.comments];
    return this.madeScalars;
  }

  /** `scalars`, each with this document, when it is substituted in a context; else empty. Made once. */
  get substituted(): DocumentView['substituted'] {
    this.madeSubstituted ??= this.substitution.active.length === 0 ? [] : this.scalars.map(({ site, scan, comment }) => ({ site, scan, comment, document: this }));
    return this.madeSubstituted;
  }

  /** `scalars.length`, without making them when the cache knows it. */
  get scalarCount(): number {
    if (this.madeScalars) return this.madeScalars.length;
    const known = this.knownCount();
    return known === undefined ? this.scalars.length : known + this.comments.length;
  }
}
