/**
 * The engine: one per workspace. It owns the file index and the Flux graph, takes file
 * changes, and runs the rules over files. The LSP server, the CLI and the tests all use it.
 */
import { LineCounter, Scalar } from 'yaml';
import { configFile, matchesGlob, readRepoConfig, type RepoConfig } from './config';
import { scanTemplate } from './envsubst';
import { FluxGraph } from './flux/graph';
import { kustomizationFileNames } from './flux/paths';
import type { WorkspaceHost } from './host';
import { compareFindings, type Finding, type Severity } from './model';
import { RULES, ruleById } from './rules';
import type { DocumentView, Rule, RuleContext, RuleReport, SubstitutedScalar } from './rules/rule';
import { substitutionOf } from './substitution';
import { applySuppressions, suppressionsOf, type Suppression } from './suppressions';
import { FileIndex } from './workspace/file-index';
import { scalarsOf, type ParsedFile, type ScalarSite, type YamlComment } from './yaml/document';

export interface EngineSettings {
  /** Per-rule severity overrides from the editor; they win over `.render-lens.yaml`. */
  severities?: Readonly<Record<string, Severity | 'off'>>;
  /** Strict substitution for clusters that do not say (Flux ≥ 2.9 substitutes strictly). */
  strictDefault?: boolean;
  /** Files to skip (globs), on top of the repository's `exclude`. */
  exclude?: readonly string[];
  /** Only this cluster's render contexts count (`render-lens check --cluster`). */
  cluster?: string;
  /** Assume strict substitution everywhere: a readiness report for the Flux 2.9 upgrade. */
  forceStrict?: boolean;
  /** Where a failing rule is reported; the other rules still run. */
  log?: (message: string) => void;
}

export interface AnalyzeOptions {
  /** Run only these rule ids (fixture tests isolate one rule). */
  only?: readonly string[];
  /** Called after each file of a workspace run, for progress reporting. */
  progress?: (done: number, total: number) => void;
}

export interface FileAnalysis {
  findings: Finding[];
  /** How many scalars (keys and values) were checked. */
  fields: number;
}

export interface WorkspaceAnalysis extends FileAnalysis {
  files: number;
}

export function isYamlFile(path: string): boolean {
  return /\.ya?ml$/i.test(path);
}

/** Edits to these can change the graph; edits to anything else only change the file itself. */
const graphRelevant = /kustomize\.toolkit\.fluxcd\.io|kind:\s*(ConfigMap|Secret|ExternalSecret|Kustomization|Component)\b|StrictPostBuildSubstitutions|Flux Version:/;

const commentNote = ' (In a comment: the controller drops comments, but `flux envsubst` over a `kustomize build` stream substitutes them.)';

export class Engine {
  readonly index: FileIndex;
  private graph: FluxGraph | undefined;
  private repoConfig: RepoConfig | undefined;

  constructor(
    host: WorkspaceHost,
    private settings: EngineSettings = {},
  ) {
    this.index = new FileIndex(host);
  }

  configure(settings: EngineSettings): void {
    if (settings.strictDefault !== this.settings.strictDefault) this.graph = undefined;
    this.settings = settings;
  }

  /** The repository's `.render-lens.yaml`, read once per version. */
  config(): RepoConfig {
    this.repoConfig ??= readRepoConfig(this.index.text(configFile));
    return this.repoConfig;
  }

  fluxGraph(): FluxGraph {
    this.graph ??= FluxGraph.build(this.index, { strict: this.settings.strictDefault ?? this.config().strict ?? true });
    return this.graph;
  }

  /** A file's new text (undefined: deleted). Returns true when every file must be re-checked. */
  update(file: string, text: string | undefined): boolean {
    const before = this.index.known(file)?.text;
    if (!this.index.update(file, text)) return false;
    if (file === configFile) {
      this.repoConfig = undefined;
      this.graph = undefined;
      return true;
    }
    const relevant =
      before === undefined ||
      text === undefined ||
      kustomizationFileNames.includes(file.split('/').pop() ?? '') ||
      graphRelevant.test(before) ||
      graphRelevant.test(text) ||
      this.isGeneratorInput(file);
    if (relevant) this.graph = undefined;
    return relevant;
  }

  /** Looks for new and removed files (a full check on request); known texts are kept. */
  rescan(): void {
    this.index.relist();
    this.graph = undefined;
  }

  /** Every file changed at once (e.g. a branch switch): start over. */
  reset(): void {
    this.index.reset();
    this.graph = undefined;
    this.repoConfig = undefined;
  }

  /**
   * Helm chart templates are Go templates, not YAML: parsing them as YAML only produces noise.
   * A template is a file under `templates/` of a directory that holds `Chart.yaml`.
   */
  isHelmTemplate(path: string): boolean {
    const parts = path.split('/');
    for (let i = parts.length - 2; i >= 0; i--) {
      if (parts[i] !== 'templates') continue;
      const chartDir = parts.slice(0, i).join('/');
      if (this.index.exists(chartDir === '' ? 'Chart.yaml' : `${chartDir}/Chart.yaml`)) return true;
    }
    return false;
  }

  isExcluded(path: string): boolean {
    return [...this.config().exclude, ...(this.settings.exclude ?? [])].some((glob) => matchesGlob(path, glob));
  }

  /** Files the engine checks: YAML, and chart templates (which may be `.tpl`). */
  isChecked(file: string): boolean {
    return (isYamlFile(file) || (/\.tpl$/i.test(file) && this.isHelmTemplate(file))) && !this.isExcluded(file);
  }

  analyzeFile(file: string, options: AnalyzeOptions = {}): FileAnalysis {
    if (!this.isChecked(file)) return { findings: [], fields: 0 };
    const template = this.isHelmTemplate(file);
    // A chart template is a Go template: it is never parsed as YAML here.
    const parsed = template ? templateFile(this.index.text(file)) : this.index.parsed(file);
    if (!parsed) return { findings: [], fields: 0 };
    const context = this.createContext(file, parsed);
    const rules = this.selectRules(options).filter((rule) => (rule.target ?? 'yaml') === (template ? 'helm-template' : 'yaml'));
    const first = rules.filter((rule) => !rule.runsLast).flatMap((rule) => this.runRule(rule, context));
    const kept = applySuppressions(this.lowerInComments(first, parsed.comments), context.suppressions());
    const last = rules.filter((rule) => rule.runsLast).flatMap((rule) => this.runRule(rule, context));
    return { findings: [...kept, ...last].sort(compareFindings), fields: context.documents().reduce((n, d) => n + d.scalars.length, 0) };
  }

  analyzeWorkspace(paths: readonly string[] = [''], options: AnalyzeOptions = {}): WorkspaceAnalysis {
    const prefixes = paths.map((p) => (p === '' || p === '.' ? '' : p.replace(/\/$/, '')));
    const inScope = (file: string) => prefixes.some((p) => p === '' || file === p || file.startsWith(`${p}/`));
    const result: WorkspaceAnalysis = { findings: [], fields: 0, files: 0 };
    const files = this.index.files().filter((file) => inScope(file) && this.isChecked(file));
    for (const file of files) {
      const analysis = this.analyzeFile(file, options);
      result.findings.push(...analysis.findings);
      result.fields += analysis.fields;
      result.files++;
      options.progress?.(result.files, files.length);
    }
    return result;
  }

  private severityOf(rule: Rule): Severity | 'off' {
    return this.settings.severities?.[rule.id] ?? this.config().severities[rule.id] ?? rule.severity;
  }

  private runRule(rule: Rule, context: RuleContext): Finding[] {
    const severity = this.severityOf(rule);
    if (severity === 'off') return [];
    const findings: Finding[] = [];
    try {
      for (const report of rule.check(context)) findings.push(this.toFinding(rule, severity, context.file, report));
    } catch (error) {
      // A bug in one rule must not hide the others' findings or stop the server.
      this.settings.log?.(`rule ${rule.id} failed on ${context.file}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
    return findings;
  }

  private toFinding(rule: Rule, severity: Severity, file: string, report: RuleReport): Finding {
    return {
      rule: rule.id,
      // A report may say how serious this instance is, unless the user chose a severity.
      severity: report.severity && severity === rule.severity ? report.severity : severity,
      file,
      range: report.range,
      message: report.message,
      related: report.related ?? [],
      fixes: (report.fixes ?? []).map((fix) => ({
        title: fix.title,
        preferred: fix.preferred ?? false,
        edits: fix.edits.map((edit) => ({ file: edit.file ?? file, range: edit.range, newText: edit.newText })),
      })),
    };
  }

  /** Tokens in comments matter only on some paths: report them as information. */
  private lowerInComments(findings: Finding[], comments: readonly YamlComment[]): Finding[] {
    return findings.map((finding) => {
      const inComment = comments.some((c) => finding.range.start >= c.start && finding.range.start < c.end);
      if (!inComment || finding.severity === 'hint') return finding;
      return { ...finding, severity: 'information', message: finding.message + commentNote };
    });
  }

  private isGeneratorInput(file: string): boolean {
    return this.graph?.contextsOf(file).some((c) => c.rendered.generator !== undefined) ?? false;
  }

  private selectRules(options: AnalyzeOptions): readonly Rule[] {
    return options.only ? RULES.filter((rule) => options.only!.includes(rule.id)) : RULES;
  }

  /** The documents of a file with their scalars, comments and substitution contexts. */
  documentsOf(file: string): DocumentView[] {
    const parsed = isYamlFile(file) && !this.isHelmTemplate(file) ? this.index.parsed(file) : undefined;
    return parsed ? this.buildDocuments(file, parsed) : [];
  }

  private buildDocuments(file: string, parsed: ParsedFile): DocumentView[] {
    const cluster = this.settings.cluster;
    const contexts = this.fluxGraph().contextsOf(file).filter((c) => cluster === undefined || c.cluster.name === cluster);
    const objects = new Map(this.index.objects(file).map((o) => [o.index, o]));
    const comments = commentScalars(parsed.comments);
    return parsed.documents.map((document, i) => {
      const substitution = substitutionOf(contexts, objects.get(i));
      const clusterStrict = this.config().clusterStrict;
      substitution.active = substitution.active.map((a) => ({ ...a, strict: this.settings.forceStrict || (clusterStrict[a.context.cluster.name] ?? a.strict) }));
      const scalars: SubstitutedScalar[] = [...scalarsOf(document, parsed.text)].map((site) => ({ site, scan: scanTemplate(site.text.value) }));
      // A comment belongs to the document it sits in (or before, for the first one).
      const [start, , end] = document.range;
      const own = comments.filter((c) => c.site.range.start < end && (i === 0 || c.site.range.start >= start));
      return { index: i, document, object: objects.get(i), substitution, scalars: [...scalars, ...own] };
    });
  }

  private createContext(file: string, parsed: ParsedFile): RuleContext {
    let documents: DocumentView[] | undefined;
    let suppressions: Suppression[] | undefined;
    const engine = this;
    const index = this.index;
    return {
      file,
      text: parsed.text,
      parsed,
      documents() {
        documents ??= engine.buildDocuments(file, parsed);
        return documents;
      },
      parsedFile: (other) => index.parsed(other),
      fluxGraph: () => engine.fluxGraph(),
      suppressions: () => (suppressions ??= suppressionsOf(parsed.text, parsed.comments)),
      knownRule: (id) => ruleById(id) !== undefined,
      substitutedScalars() {
        return this.documents().flatMap((d) => (d.substitution.active.length > 0 ? d.scalars.map((s) => ({ ...s, document: d })) : []));
      },
    };
  }
}

/** A chart template as the rules see it: its text, no YAML documents. */
function templateFile(text: string | undefined): ParsedFile | undefined {
  return text === undefined ? undefined : { text, documents: [], lineCounter: new LineCounter(), problems: [], comments: [] };
}

/** Comments as scalars whose text is everything after `#`, mapped one to one. */
function commentScalars(comments: readonly YamlComment[]): SubstitutedScalar[] {
  return comments
    .filter((c) => c.text.includes('$'))
    .map((c) => {
      const starts = Int32Array.from(c.text, (_, i) => c.start + 1 + i);
      const text = { value: c.text, starts, ends: starts.map((s) => s + 1) };
      const site: ScalarSite = { node: new Scalar(c.text), isKey: false, path: [], style: 'PLAIN', range: { start: c.start, end: c.end }, text };
      return { site, scan: scanTemplate(c.text), comment: true };
    });
}
