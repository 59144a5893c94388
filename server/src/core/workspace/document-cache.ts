/**
 * What the engine keeps of a multi-document file from one version to the next, so that an
 * edit costs the documents it touched and not the whole file. The incremental re-parse
 * (reparse.ts) keeps the Document objects of untouched documents, so a document's identity
 * says its text is unchanged; these caches are keyed by it (weakly: a dropped parse frees
 * them). The engine keeps entries only for files analyzed with `keep` (open editor buffers):
 * a workspace run holds nothing of what it computed.
 *
 * - Scalars: each document's scalars, decoded and scanned. A document the edit moved is
 *   reused with its offsets moved, not decoded and scanned again.
 * - Findings of per-scalar rules: a rule that reads nothing of the file but the substituted
 *   scalars (and the text around them, for its fixes) reports on each scalar by itself, so
 *   its findings on an unchanged document stay right while the graph, the settings and the
 *   repository config stay. Their ranges in the file are kept from the document's start
 *   (DocumentRange), so they move with the document at no cost. Which rules do is observed,
 *   not declared: each run goes through a context that notes whether the rule reached for
 *   the whole file (its documents, the parse, the graph, suppressions, its own parse or text
 *   through parsedFile or derived); one that did runs on the whole file from then on. A rule
 *   that scanned the whole `text` for something would break this; none does, and
 *   incremental-analysis.test.ts and incremental-staleness.test.ts compare the findings
 *   with a fresh engine's.
 *
 * A one-character edit in a 10,000-line manifest then re-checks one document (the 50 ms
 * budget of `npm run bench`).
 */
import type { Document } from 'yaml';
import type { Finding, Range } from '../model';
import type { Rule, RuleContext } from '../rules/rule';
import type { SubstitutedScalar } from '../model/documents';
import { movedSite } from '../yaml/scalar-sites';

type ContextScalars = ReturnType<RuleContext['substitutedScalars']>;

/** A document's scalars as a check reads them (see ScalarCache.of). */
export interface DocumentScalars {
  /** The scalars that hold a `$`, at the document's current offsets. */
  scalars(): readonly SubstitutedScalar[];
  /** How many scalars the document has in all, `$` or not (the count a run reports). */
  total(): number;
}

interface CachedScalars {
  /** The document's start when its scalars were built, and now. */
  built: number;
  start: number;
  scalars: readonly SubstitutedScalar[];
  current: readonly SubstitutedScalar[];
  total: number;
}

/** Each document's scalars (with a `$`), decoded and scanned, reused while the document is. */
export class ScalarCache {
  private readonly byDocument = new WeakMap<Document.Parsed, CachedScalars>();

  /**
   * The document's scalars, built when first asked for (or taken from the cache); `keep`
   * stores what had to be built. Counting them needs no move: a document an edit moved has its
   * scalars moved only when they are read.
   */
  of(document: Document.Parsed, keep: boolean, build: (document: Document.Parsed) => { scalars: readonly SubstitutedScalar[]; total: number }): DocumentScalars {
    // One small object per document and check (a 50,000-line file has a thousand documents).
    return new CachedDocumentScalars(this.byDocument, document, keep, build);
  }
}

class CachedDocumentScalars implements DocumentScalars {
  private entry: CachedScalars | undefined;

  constructor(
    private readonly byDocument: WeakMap<Document.Parsed, CachedScalars>,
    private readonly document: Document.Parsed,
    private readonly keep: boolean,
    /** Given the document: one builder for all of a check's documents, not a closure per document. */
    private readonly build: (document: Document.Parsed) => { scalars: readonly SubstitutedScalar[]; total: number },
  ) {}

  total(): number {
    return this.known().total;
  }

  scalars(): readonly SubstitutedScalar[] {
    const cached = this.known();
    const start = this.document.range[0];
    if (cached.start !== start) {
      // Moved by an edit before it: the scalars as built, moved by the distance from there.
      const delta = start - cached.built;
      cached.current = delta === 0 ? cached.scalars : cached.scalars.map((s) => shiftScalar(s, delta));
      cached.start = start;
    }
    return cached.current;
  }

  private known(): CachedScalars {
    if (this.entry) return this.entry;
    let entry = this.byDocument.get(this.document);
    if (!entry) {
      const { scalars, total } = this.build(this.document);
      const start = this.document.range[0];
      entry = { built: start, start, scalars, current: scalars, total };
      if (this.keep) this.byDocument.set(this.document, entry);
    }
    this.entry = entry;
    return entry;
  }
}

/** A scalar moved by `delta`, its offsets moved lazily (movedSite). */
function shiftScalar(scalar: SubstitutedScalar, delta: number): SubstitutedScalar {
  return { ...scalar, site: movedSite(scalar.site, delta) };
}

interface CachedFindings {
  /** What the findings were computed with: graph, settings, repository config, file. */
  key: readonly unknown[];
  /** Each rule's findings, their ranges in the file anchored to the document (anchored()). */
  byRule: Map<string, readonly Finding[]>;
}

/** Findings of per-scalar rules, per document. */
export class FindingCache {
  /** `rule\0file` → does the rule read only the substituted scalars of that file? */
  private readonly scopes = new Map<string, 'document' | 'file'>();
  private readonly byDocument = new WeakMap<Document.Parsed, CachedFindings>();
  /** Per check (its context): each document's entry, looked up once for all rules. */
  private readonly checks = new WeakMap<RuleContext, { key: readonly unknown[]; list: Array<CachedFindings | undefined> }>();

  /**
   * The rule's findings on the file: reused per unchanged document, computed per changed one.
   * `window(i)` is what substitutedScalars() gives for document i alone; `keyOf` lists what
   * else findings depend on (compared item by item; asked for once the file's documents are
   * known); `run` is the engine's way to run a rule (severity, errors).
   */
  run(rule: Rule, context: RuleContext, window: (index: number) => ContextScalars, keyOf: () => readonly unknown[], run: (rule: Rule, context: RuleContext) => Finding[]): Finding[] {
    const documents = context.parsed.documents;
    const scopeKey = `${rule.id}\0${context.file}`;
    const scope = this.scopes.get(scopeKey);
    if (scope === 'file' || documents.length < 2) return run(rule, context);
    if (scope === undefined) {
      // First run on this file: the whole file at once, watching what the rule reads.
      const watched = watch(context, undefined);
      const findings = run(rule, watched.context);
      const grouped = watched.wide() ? undefined : this.group(findings, documents, context.file);
      this.scopes.set(scopeKey, grouped ? 'document' : 'file');
      const key = keyOf();
      if (grouped) for (let i = 0; i < documents.length; i++) this.store(documents[i], key, rule.id, grouped[i] ?? noFindings, context.file);
      return findings;
    }
    const entries = this.entriesOf(context, keyOf);
    const findings: Finding[] = [];
    for (let i = 0; i < documents.length; i++) {
      const cached = entries.list[i]?.byRule.get(rule.id);
      // Twenty rules times a thousand documents per keystroke in a 50,000-line manifest: no
      // closure per document here, most of them would be for nothing.
      const own = cached ?? this.runDocument(rule, context, window(i), run, documents, i, entries.key);
      if (own === undefined) {
        // The rule reached past the document after all: from now on it runs on the whole file.
        this.scopes.set(scopeKey, 'file');
        return run(rule, context);
      }
      for (let j = 0; j < own.length; j++) findings.push(own[j]);
    }
    return findings;
  }

  /** The rule's findings on document i, kept when they all lie in it; undefined when the rule read past it. */
  private runDocument(rule: Rule, context: RuleContext, scalars: ContextScalars, run: (rule: Rule, context: RuleContext) => Finding[], documents: readonly Document.Parsed[], i: number, key: readonly unknown[]): readonly Finding[] | undefined {
    const watched = watch(context, scalars);
    const own = run(rule, watched.context);
    if (watched.wide()) return undefined;
    if (own.every((f) => inDocument(f, documents, i, context.file))) this.store(documents[i], key, rule.id, own, context.file);
    return own;
  }

  /**
   * Each document's cached findings that still hold, moved to where the document is now:
   * looked up once per check (a context), not once per rule, for the twenty rules of a
   * 1,000-document file. A document stored during the check is not seen here; its rules had
   * no findings cached for it anyway.
   */
  private entriesOf(context: RuleContext, keyOf: () => readonly unknown[]): { key: readonly unknown[]; list: Array<CachedFindings | undefined> } {
    let entries = this.checks.get(context);
    if (entries) return entries;
    // The documents first: they need the graph, which is part of the key.
    context.documents();
    const key = keyOf();
    entries = { key, list: context.parsed.documents.map((document) => this.lookup(document, key)) };
    this.checks.set(context, entries);
    return entries;
  }

  /**
   * Findings by the document that holds every range they have in the file (undefined for a
   * document without any: most, for most rules); undefined if one spans documents.
   */
  private group(findings: readonly Finding[], documents: readonly Document.Parsed[], file: string): Array<Finding[] | undefined> | undefined {
    const groups = new Array<Finding[] | undefined>(documents.length).fill(undefined);
    for (let f = 0; f < findings.length; f++) {
      const finding = findings[f];
      const i = documentAt(documents, finding.range.start);
      if (i < 0 || !inDocument(finding, documents, i, file)) return undefined;
      (groups[i] ??= []).push(finding);
    }
    return groups;
  }

  private lookup(document: Document.Parsed, key: readonly unknown[]): CachedFindings | undefined {
    const cached = this.byDocument.get(document);
    return cached && sameKey(cached.key, key) ? cached : undefined;
  }

  private store(document: Document.Parsed, key: readonly unknown[], rule: string, findings: readonly Finding[], file: string): void {
    let cached = this.byDocument.get(document);
    if (!cached || !sameKey(cached.key, key)) {
      cached = { key, byRule: new Map() };
      this.byDocument.set(document, cached);
    }
    cached.byRule.set(rule, findings.length === 0 ? noFindings : findings.map((f) => anchored(f, file, document)));
  }
}

/** What most rules find in most documents, shared. */
const noFindings: readonly Finding[] = Object.freeze([]);

/**
 * The context a rule sees, noting whether it reads past the substituted scalars; with
 * `scalars`, those of one document stand for the file's.
 */
function watch(context: RuleContext, scalars: ContextScalars | undefined): { context: RuleContext; wide: () => boolean } {
  let wide = false;
  const watched: RuleContext = {
    file: context.file,
    text: context.text,
    get parsed() {
      wide = true;
      return context.parsed;
    },
    documents() {
      wide = true;
      return context.documents();
    },
    parsedFile(other) {
      if (other === context.file) wide = true;
      return context.parsedFile(other);
    },
    derived(other, key, compute) {
      if (other === context.file) wide = true;
      return context.derived(other, key, compute);
    },
    shared(key, build) {
      wide = true;
      return context.shared(key, build);
    },
    filesUnder(dir) {
      wide = true;
      return context.filesUnder(dir);
    },
    fluxGraph() {
      wide = true;
      return context.fluxGraph();
    },
    suppressions() {
      wide = true;
      return context.suppressions();
    },
    workspaceSchemas() {
      // Findings depend on the workspace's CRDs only when it has some (most have none).
      const schemas = context.workspaceSchemas();
      if (schemas.length > 0) wide = true;
      return schemas;
    },
    knownRule: (id) => context.knownRule(id),
    // Part of the cache key (the engine's keyOf): a policy change re-runs every rule.
    policy: () => context.policy(),
    substitutedScalars: () => scalars ?? context.substitutedScalars(),
  };
  return { context: watched, wide: () => wide };
}

/** The index of the document whose span holds `offset` (the first one also holds what precedes it). */
function documentAt(documents: readonly Document.Parsed[], offset: number): number {
  let found = -1;
  let low = 0;
  let high = documents.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (mid === 0 || documents[mid].range[0] <= offset) {
      found = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return found;
}

/**
 * Does every range the finding has in `file` lie in document i (which moves them with it)?
 * Asked for every finding of a file's first check: loops, no list of ranges per finding.
 */
function inDocument(finding: Finding, documents: readonly Document.Parsed[], i: number, file: string): boolean {
  // The first document also holds what precedes it (comments before the first `---`).
  const low = i === 0 ? 0 : documents[i].range[0];
  const high = documents[i].range[2];
  if (!within(finding.range, low, high)) return false;
  for (let r = 0; r < finding.related.length; r++) {
    const related = finding.related[r];
    if (related.file === file && !within(related.range, low, high)) return false;
  }
  for (let f = 0; f < finding.fixes.length; f++) {
    const edits = finding.fixes[f].edits;
    for (let e = 0; e < edits.length; e++) if (edits[e].file === file && !within(edits[e].range, low, high)) return false;
  }
  return true;
}

function within(range: Range, low: number, high: number): boolean {
  return range.start >= low && range.end <= high;
}

/**
 * The finding as the cache keeps it: each of its ranges in `file` (all inside the document)
 * read from the document's start, so that it moves with the document. What points elsewhere
 * (most related locations, some fixes) is shared, not copied.
 */
function anchored(finding: Finding, file: string, document: Document.Parsed): Finding {
  const at = (range: Range) => new DocumentRange(document, range.start - document.range[0], range.end - document.range[0]);
  return {
    ...finding,
    range: at(finding.range),
    related: finding.related.some((r) => r.file === file) ? finding.related.map((r) => (r.file === file ? { ...r, range: at(r.range) } : r)) : finding.related,
    fixes: finding.fixes.map((fix) => (fix.edits.some((e) => e.file === file) ? { ...fix, edits: fix.edits.map((e) => (e.file === file ? { ...e, range: at(e.range) } : e)) } : fix)),
  };
}

/**
 * A range in a kept document, as offsets from the document's start. The incremental re-parse
 * moves an untouched document in place (its range and nodes), and the ranges of its findings
 * follow by reading its start: an edit used to copy every finding below it, a thousand of
 * them per keystroke in a big manifest, most of an edit's garbage. Like the document's own
 * nodes, it tells the offsets of the file's newest version.
 */
class DocumentRange implements Range {
  constructor(
    private readonly document: Document.Parsed,
    private readonly from: number,
    private readonly to: number,
  ) {}

  get start(): number {
    return this.document.range[0] + this.from;
  }

  get end(): number {
    return this.document.range[0] + this.to;
  }

  /** As a plain range (the getters live on the prototype, which JSON does not read). */
  toJSON(): Range {
    return { start: this.start, end: this.end };
  }
}

function sameKey(a: readonly unknown[], b: readonly unknown[]): boolean {
  // A loop, not `every` with a closure over `b`: asked for each of a thousand documents per keystroke.
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
