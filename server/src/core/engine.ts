/**
 * The engine: one per workspace. It owns the file index and the Flux graph, takes file
 * changes, and runs the rules over files. The LSP server, the CLI and the tests all use it.
 */
import type { WorkspaceView } from './model/workspace-view';
import { LineCounter, Scalar, type Document, type Node } from 'yaml';
import { addCounts, countsOfDocuments, countsOfTemplate, nothingCounted, type CheckedCounts } from './checked-counts';
import { configFile, readRepoConfig, type RepoConfig } from './config';
import { noRuns, scanTemplate, type TemplateScan } from './envsubst';
import { FluxGraph, mayHoldVariableSources } from './flux/graph';
import { kustomizationFileNames } from './flux/paths';
import { substitutesIn } from './flux/strategy-support';
import type { WorkspaceHost } from './host';
import { boundedMessage, maxFindingsPerFile } from './limits';
import { compareFindings, severityRank, type Finding, type Severity } from './model';
import { matchesGlob } from './path-glob';
import { RULES, ruleById } from './rules';
import type { Rule, RuleContext, RuleReport } from './rules/rule';
import type { DocumentView, SubstitutedScalar } from './model/documents';
import { optOutOf, sameSubstitution, substitutionOf, type DocumentSubstitution } from './substitution';
import { allowedSpans, isAllowed, readReviewPolicy, type ReviewPolicy } from './review-policy';
import { applySuppressions, suppressionsOf, type Suppression } from './suppressions';
import { FileIndex } from './workspace/file-index';
import { FindingCache, ScalarCache, type DocumentScalars } from './workspace/document-cache';
import { envFileScalars, generatorInputParse, generatorInputScalar } from './workspace/generator-input';
import { LazyDocumentView } from './workspace/document-view';
import { editKeepsGraph, fluxInput, otherGraphInput, otherGraphInputAfterEdit } from './workspace/graph-edits';
import { spanOf, type KnownEdit } from './workspace/text-change';
import { holdsRuleMarkers, scalarsOfCleanText, scalarsOfUnrenderedText } from './workspace/nothing-to-check';
import { isFleetYaml } from './fleet/options';
import { holdsDefinitions } from './rules/support/variable-definitions';
import { writesPostBuild } from './rules/support/per-graph';
import type { K8sObject } from './workspace/objects';
import type { WorkspaceSchema } from './kube/schema-types';
import { crdSchemasOf, mayHoldCrd, workspaceCrdSchemas } from './kube/workspace-crds';
import { type ParsedFile, type YamlComment } from './yaml/document';
import { isGoTemplateFile } from './yaml/go-template-file';
import { countScalars, scalarsWithDollars, type ScalarSite } from './yaml/scalar-sites';
import { sourceRange } from './yaml/scalar-text';

/** The index's fact: the field-type tables of the CRDs a file holds. */
const crdSchemasFact = 'crd-schemas';

/** The index's fact: does the text hold a graph input other than ConfigMaps and Secrets (graph-edits.ts)? */
const otherGraphInputFact = 'other-graph-input';

export interface EngineSettings {
  /** Per-rule severity overrides from the editor; they win over `.render-lens.yaml`. */
  severities?: Readonly<Record<string, Severity | 'off'>>;
  /** Strict substitution for clusters that do not say (Flux ≥ 2.9 substitutes strictly). */
  strictDefault?: boolean;
  /** Files to skip (globs), on top of the repository's `exclude`. */
  exclude?: readonly string[];
  /** Extra Helm values files, as globs relative to each chart's directory (`ci/*.yaml`). */
  helmValuesFiles?: readonly string[];
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
  /**
   * Keep per-document results for the file's next version (an open editor buffer): an edit
   * then re-checks only the documents it touched. Off for workspace runs, which see each
   * version once and should not hold what they computed. The findings of a kept file are
   * not a snapshot: their ranges read the offsets of the file's newest version, as its
   * documents' nodes do (document-cache.ts), so convert them before the next update.
   */
  keep?: boolean;
}

export interface FileAnalysis {
  findings: Finding[];
  /** How many scalars (keys and values) were checked. */
  fields: number;
  /** The fields rules read, by kind: zero of every kind means nothing was checked. */
  checked: CheckedCounts;
}

export interface WorkspaceAnalysis extends FileAnalysis {
  files: number;
}

export function isYamlFile(path: string): boolean {
  return /\.ya?ml$/i.test(path);
}

/** The scan of a value without `$`, shared (rules only read scans). */
const noDollars: TemplateScan = Object.freeze({ runs: noRuns, expansions: Object.freeze([]) as unknown as TemplateScan['expansions'] });

const commentNote = ' (In a comment: the controller drops comments, but `flux envsubst` over a `kustomize build` stream substitutes them.)';

export class Engine implements WorkspaceView {
  readonly index: FileIndex;
  private graph: FluxGraph | undefined;
  private repoConfig: RepoConfig | undefined;
  private reviewPolicy: ReviewPolicy | undefined;
  /** `rule\0file` of each failure already logged: a rule that throws on every keystroke logs once. */
  private readonly failures = new Set<string>();
  /** Per document of a multi-document file, kept across versions: an edit re-checks what it touched. */
  private readonly scalarCache = new ScalarCache();
  private readonly findingCache = new FindingCache();
  /** Values rules share across checks while the graph and every text stay (RuleContext.shared). */
  private sharedValues: { graph: FluxGraph; texts: number; values: Map<string, unknown> } | undefined;
  /** The workspace's CRD schemas, kept while no file appears or disappears and no CRD's text changes. */
  private crdSchemas: { layout: number; epoch: number; schemas: readonly WorkspaceSchema[] } | undefined;
  private crdEpoch = 0;

  /**
   * @param role 'batch' (the CLI, the workspace check) checks every file, so a file the graph
   *   parsed keeps its parse for the check; 'editor' checks the open files only, and keeps
   *   from other files no more than the graph's compact model of them.
   */
  constructor(
    private readonly host: WorkspaceHost,
    private settings: EngineSettings = {},
    role: 'batch' | 'editor' = 'batch',
  ) {
    this.index = new FileIndex(host, role === 'batch');
  }

  configure(settings: EngineSettings): void {
    if (settings.strictDefault !== this.settings.strictDefault || String(settings.exclude ?? []) !== String(this.settings.exclude ?? [])) this.graph = undefined;
    this.settings = settings;
  }

  /** The repository's `.render-lens.yaml`, read once per version. */
  config(): RepoConfig {
    this.repoConfig ??= readRepoConfig(this.index.text(configFile));
    return this.repoConfig;
  }

  /** The reviewed exceptions of `.render-lens.yaml` (`allow:`, reason length, strict dollars). */
  policy(): ReviewPolicy {
    this.reviewPolicy ??= readReviewPolicy(this.index.text(configFile));
    return this.reviewPolicy;
  }

  fluxGraph(): FluxGraph {
    this.graph ??= FluxGraph.build(this.index, {
      strict: this.settings.strictDefault ?? this.config().strict ?? true,
      assumed: (this.settings.strictDefault ?? this.config().strict) === undefined,
      excluded: (file) => this.isExcluded(file),
      repositoryUrls: this.host.repositoryUrls?.() ?? [],
      declared: this.config().declared,
    });
    return this.graph;
  }

  /**
   * A file's new text (undefined: deleted). Returns true when every file must be re-checked.
   * `edit`, from an editor, says where the text it had last changed (else texts are compared).
   */
  update(file: string, text: string | undefined, edit?: KnownEdit): boolean {
    // A file the index has not read yet is read now: opening an unchanged file changes nothing.
    const before = this.index.text(file);
    // Facts of the version being replaced: usually computed at the keystroke before, when it was new.
    const relevantBefore = before !== undefined && this.graphRelevant(file);
    // Its objects as the graph would see them: a cluster places a file's objects only when a
    // lookup could name one (flux/cluster-objects.ts), so the graph may not have read them.
    const objectsBefore = this.graph ? (this.index.knownObjects(file) ?? (relevantBefore ? this.index.model(file)?.objects : undefined)) : undefined;
    const otherBefore = relevantBefore && this.otherGraphInput(file);
    const markersBefore = before !== undefined ? this.index.knownFact<boolean>(file, otherGraphInputFact) : undefined;
    const layout = this.index.layoutVersion();
    if (!this.index.update(file, text, edit)) return false;
    // A keystroke in a big manifest: only the text around the edit can add a marker.
    if (markersBefore === false && before !== undefined && text !== undefined) this.index.setFact(file, otherGraphInputFact, otherGraphInputAfterEdit(before, text, spanOf(edit, before, text)));
    // A chart's values, Chart.yaml and helpers change what every template of the chart renders.
    if (/(^|\/)(values\.ya?ml|Chart\.ya?ml|_[^/]*\.tpl)$/.test(file) || this.isChartCiValues(file)) return true;
    // A CustomResourceDefinition types the fields of its custom resources wherever they are.
    if (mayHoldCrd(before) || mayHoldCrd(text)) {
      this.crdEpoch++;
      return true;
    }
    if (file === configFile) {
      this.repoConfig = undefined;
      this.reviewPolicy = undefined;
      this.graph = undefined;
      return true;
    }
    const relevant =
      // A file appeared or disappeared (also one written to disk after the listing).
      this.index.layoutVersion() !== layout ||
      before === undefined ||
      text === undefined ||
      kustomizationFileNames.includes(file.slice(file.lastIndexOf('/') + 1)) ||
      ((relevantBefore || this.graphRelevant(file)) && !this.keepsGraph(file, otherBefore, objectsBefore)) ||
      this.isGeneratorInput(file);
    if (relevant) this.graph = undefined;
    return relevant;
  }

  /**
   * The scalar count of a file no rule can report on (workspace/nothing-to-check.ts), else
   * undefined: not a Flux or Fleet file, no variable a cluster reads is defined in it and no
   * postBuild is written in it (a ConfigMap nothing names, a patch of a Deployment, most
   * kustomization files).
   */
  private nothingToCheck(file: string): number | undefined {
    const text = this.index.text(file);
    // Cheapest first: a keystroke in a manifest with `$` stops at the first test.
    if (text === undefined || file === configFile || isFleetYaml(file) || (this.otherGraphInput(file) && fluxInput.test(text))) return undefined;
    const markers = holdsRuleMarkers(text);
    const graph = this.fluxGraph();
    if (markers && (graph.contextsOf(file).length > 0 || this.patchBodiesOnly(file))) return undefined;
    if (holdsDefinitions(graph, file, (other) => this.index.text(other)) || writesPostBuild(graph, file) || graph.problemsIn(file).length > 0) return undefined;
    return markers ? scalarsOfUnrenderedText(text) : scalarsOfCleanText(text);
  }

  /**
   * Whether an edit of the file's current text may change the graph: a Flux input, or a
   * possible variable source. Both facts are kept once per version (a regex over 2 MB is not free).
   */
  private graphRelevant(file: string): boolean {
    return this.otherGraphInput(file) || mayHoldVariableSources(this.index, file);
  }

  private otherGraphInput(file: string): boolean {
    return this.index.derived(file, otherGraphInputFact, (text) => otherGraphInput.test(text)) ?? false;
  }

  /**
   * A keystroke among ConfigMaps that no substituteFrom names leaves the graph as it is
   * (graph-edits.ts). An open file's objects come from its incremental re-parse, which its
   * check needs anyway; other files' from the compact model.
   */
  private keepsGraph(file: string, otherBefore: boolean, objectsBefore: readonly K8sObject[] | undefined): boolean {
    if (this.graph === undefined || objectsBefore === undefined || otherBefore || this.otherGraphInput(file)) return false;
    const objectsAfter = () => (this.index.hasParse(file) ? this.index.objects(file) : (this.index.model(file)?.objects ?? []));
    return editKeepsGraph(this.graph, file, objectsBefore, objectsAfter);
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
    this.reviewPolicy = undefined;
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

  /** A values file in a chart's `ci/` folder: HELM-UNQUOTED-STRING renders the chart with each. */
  private isChartCiValues(file: string): boolean {
    const found = /^(?:(.*)\/)?ci\/[^/]+\.ya?ml$/i.exec(file);
    return found !== null && this.index.exists(found[1] === undefined ? 'Chart.yaml' : `${found[1]}/Chart.yaml`);
  }

  /** The extra values files of the chart in `chartDir` that the settings point at, sorted. */
  helmValuesFiles(chartDir: string): string[] {
    const globs = this.settings.helmValuesFiles ?? [];
    if (globs.length === 0) return [];
    const prefix = chartDir === '' ? '' : `${chartDir}/`;
    return this.index
      .files()
      .filter((file) => file.startsWith(prefix) && /\.ya?ml$/i.test(file) && !file.slice(prefix.length).startsWith('templates/'))
      .filter((file) => globs.some((glob) => matchesGlob(file.slice(prefix.length), glob)));
  }

  isExcluded(path: string): boolean {
    return [...this.config().exclude, ...(this.settings.exclude ?? [])].some((glob) => matchesGlob(path, glob));
  }

  /** Files the engine checks: YAML, and chart templates (which may be `.tpl`). */
  isChecked(file: string): boolean {
    return this.notCheckedBecause(file) === undefined;
  }

  /** Why a file is not checked, in words for the log; undefined when it is. */
  notCheckedBecause(file: string): string | undefined {
    if (!isYamlFile(file) && !(/\.tpl$/i.test(file) && this.isHelmTemplate(file)) && this.generatorInputKey(file) === undefined) {
      return 'only .yaml and .yml files, .tpl files of a Helm chart, and files a Flux-rendered configMapGenerator reads are checked';
    }
    const fromRepo = this.config().exclude.find((glob) => matchesGlob(file, glob));
    if (fromRepo !== undefined) return `excluded by \`${fromRepo}\` in .render-lens.yaml`;
    const fromSettings = (this.settings.exclude ?? []).find((glob) => matchesGlob(file, glob));
    return fromSettings === undefined ? undefined : `excluded by \`${fromSettings}\` in the renderLens.exclude setting`;
  }

  analyzeFile(file: string, options: AnalyzeOptions = {}): FileAnalysis {
    if (!this.isChecked(file)) return { findings: [], fields: 0, checked: nothingCounted };
    try {
      return this.analyzeChecked(file, options);
    } catch (error) {
      // A bug outside the rules (parsing, the graph) costs this file's findings, not the server.
      this.logFailure('analysis', file, error);
      return { findings: [], fields: 0, checked: nothingCounted };
    }
  }

  private analyzeChecked(file: string, options: AnalyzeOptions): FileAnalysis {
    const template = this.isHelmTemplate(file);
    // A generator's input that is not YAML (a .sql, a script) is one value of the generated object.
    const rawInput = !template && !isYamlFile(file);
    // A Go template outside a chart (a test asset, a `*.tmpl.yaml`) is rendered before YAML reads it.
    if (!template && !rawInput && isGoTemplateFile(file, this.index.text(file) ?? '')) return { findings: [], fields: 0, checked: nothingCounted };
    // A rule subset (fixture tests) always runs in full, which is also how the shortcut is tested.
    const skipped = template || rawInput || options.only !== undefined ? undefined : this.nothingToCheck(file);
    if (skipped !== undefined) return { findings: [], fields: skipped, checked: this.substitutes(file) ? { ...nothingCounted, substitutedValues: skipped } : nothingCounted };
    // A chart template is a Go template: it is never parsed as YAML here.
    const text = this.index.text(file);
    const parsed = template ? templateFile(text) : rawInput ? text === undefined ? undefined : generatorInputParse(text) : this.index.parsed(file);
    if (!parsed) return { findings: [], fields: 0, checked: nothingCounted };
    const keep = options.keep === true && options.only === undefined;
    const context = this.createContext(file, parsed, keep);
    const rules = this.selectRules(options).filter((rule) => (rule.target ?? 'yaml') === (template ? 'helm-template' : 'yaml'));
    const run = (rule: Rule, c: RuleContext) => this.runRule(rule, c);
    const keyOf = () => [this.graph, this.settings, this.repoConfig, this.policy()];
    const window = (i: number) => context.documents()[i].substituted;
    const first = rules.filter((rule) => !rule.runsLast).flatMap((rule) => (keep ? this.findingCache.run(rule, context, window, keyOf, run) : run(rule, context)));
    const kept = this.withoutAllowed(file, parsed.text, applySuppressions(this.lowerInComments(first, parsed.comments), context.suppressions()));
    const last = rules.filter((rule) => rule.runsLast).flatMap((rule) => this.runRule(rule, context));
    // A template's fields are its actions: a green run over a chart says how many it judged.
    const fields = template ? (parsed.text.match(/\{\{(?!\s*-?\s*\/\*)/g) ?? []).length : context.views().reduce((n, d) => n + d.scalarCount, 0);
    const checked = this.countsOf(file, template, parsed.text, context);
    return { findings: capFindings([...kept, ...last]), fields, checked };
  }

  /** What the file's check looked at, per kind; a failure to count costs the counts, not the findings. */
  private countsOf(file: string, template: boolean, text: string, context: EngineContext): CheckedCounts {
    try {
      return template ? countsOfTemplate(file, text) : countsOfDocuments(file, context.views());
    } catch (error) {
      this.logFailure('counting checked fields', file, error);
      return nothingCounted;
    }
  }

  /** Whether some render context in scope substitutes the file (for the counts of a file no rule reads). */
  private substitutes(file: string): boolean {
    const cluster = this.settings.cluster;
    return this.fluxGraph()
      .contextsOf(file)
      .some((c) => substitutesIn(c.instance) && (cluster === undefined || c.cluster.name === cluster));
  }

  /** Drops the dollar-run findings that an `allow:` entry of `.render-lens.yaml` excuses. */
  private withoutAllowed(file: string, text: string, findings: Finding[]): Finding[] {
    if (this.policy().allow.length === 0) return findings;
    const spans = allowedSpans(this.policy(), file, text);
    return spans.length === 0 ? findings : findings.filter((finding) => !isAllowed(finding.rule, finding.range, spans));
  }

  analyzeWorkspace(paths: readonly string[] = [''], options: AnalyzeOptions = {}): WorkspaceAnalysis {
    const result: WorkspaceAnalysis = { findings: [], fields: 0, files: 0, checked: { ...nothingCounted } };
    for (const { analysis, done, total } of this.analyzeEach(paths, options)) {
      for (const finding of analysis.findings) result.findings.push(finding);
      result.fields += analysis.fields;
      addCounts(result.checked, analysis.checked);
      result.files++;
      options.progress?.(done, total);
    }
    return result;
  }

  /**
   * The checked files under `paths`, analyzed one at a time, so a caller can report progress,
   * yield and stop between files (the index bounds how many parses stay cached meanwhile).
   */
  *analyzeEach(paths: readonly string[] = [''], options: AnalyzeOptions = {}): Generator<{ file: string; analysis: FileAnalysis; done: number; total: number }> {
    const prefixes = paths.map((p) => (p === '' || p === '.' ? '' : p.replace(/\/$/, '')));
    const inScope = (file: string) => prefixes.some((p) => p === '' || file === p || file.startsWith(`${p}/`));
    const files = this.index.files().filter((file) => inScope(file) && this.isChecked(file));
    try {
      this.fluxGraph();
    } catch (error) {
      // Every rule that needs the graph fails on its own, and is logged; the rest still run.
      this.logFailure('flux graph', '(workspace)', error);
    }
    for (let i = 0; i < files.length; i++) {
      const file = files[i];
      const parsedBefore = this.index.hasParse(file);
      const analysis = this.analyzeFile(file, options);
      // A parse made for this check alone, of a file without findings, is rarely needed again
      // (reports read the objects of files with findings: the text report masks secrets; a
      // rule that reads another file, or a fix that edits one, parses it again if it must).
      // Dropped now, it dies young: kept, every collection until the end of a workspace
      // check copied it, about half the GC time of `render-lens check`'s analysis.
      if (!parsedBefore && options.keep !== true && analysis.findings.length === 0) this.index.releaseParse(file);
      yield { file, analysis, done: i + 1, total: files.length };
    }
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
      this.logFailure(`rule ${rule.id}`, context.file, error);
    }
    return findings;
  }

  /** Logs a failure once per what failed and file (reported once, not on every check). */
  private logFailure(what: string, file: string, error: unknown): void {
    const key = `${what}\0${file}`;
    if (this.failures.has(key)) return;
    this.failures.add(key);
    this.settings.log?.(`${what} failed on ${file} (logged once): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  }

  private toFinding(rule: Rule, severity: Severity, file: string, report: RuleReport): Finding {
    return {
      rule: rule.id,
      // A report may say how serious this instance is, unless the user chose a severity.
      severity: report.severity && severity === rule.severity ? report.severity : severity,
      file,
      range: report.range,
      message: boundedMessage(flat(report.message)),
      related: report.related ?? [],
      fixes: (report.fixes ?? []).map((fix) => ({
        title: flat(fix.title),
        preferred: fix.preferred ?? false,
        edits: fix.edits.map((edit) => ({ file: edit.file ?? file, range: edit.range, newText: flat(edit.newText) })),
      })),
    };
  }

  /** Tokens in comments matter only on some paths: report them as information. */
  private lowerInComments(findings: Finding[], comments: readonly YamlComment[]): Finding[] {
    if (comments.length === 0) return findings;
    return findings.map((finding) => {
      // Comments are sorted and disjoint: only the last one starting at or before the finding can hold it.
      const before = comments[firstAtOrAfter(comments, finding.range.start + 1, commentStart) - 1];
      const inComment = before !== undefined && finding.range.start < before.end;
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

  /**
   * The documents of a file with their scalars, comments and substitution contexts; with
   * `at`, only the document holding that offset (a hover in a 50,000-line file needs one).
   */
  documentsOf(file: string, at?: number): DocumentView[] {
    try {
      const parsed = isYamlFile(file) && !this.isHelmTemplate(file) ? this.index.parsed(file) : undefined;
      return parsed ? this.buildDocuments(file, parsed, false, at) : [];
    } catch (error) {
      this.logFailure('analysis', file, error);
      return [];
    }
  }

  private buildDocuments(file: string, parsed: ParsedFile, keep = false, at?: number): LazyDocumentView[] {
    const cluster = this.settings.cluster;
    // A kustomization file's patch bodies and generator literals go into what its Kustomizations render: only they are substituted.
    const patchBodiesOnly = this.patchBodiesOnly(file);
    const graph = this.fluxGraph();
    const contexts = (patchBodiesOnly ? graph.patchContextsOf(file) : graph.contextsOf(file)).filter((c) => cluster === undefined || c.cluster.name === cluster);
    const documents = parsed.documents;
    // A hover asks for the document under the cursor: found by its range, and only its own
    // object and comments are looked at (a 50,000-line file has a thousand documents).
    const first = at === undefined ? 0 : firstAtOrAfter(documents, at, (d) => d.range[2]);
    const wanted = (i: number) => at === undefined || documents[i].range[0] <= at;
    const allObjects = this.index.objects(file);
    // By document index, in an array: a Map of a thousand [index, object] pairs was built per keystroke.
    const objects = at === undefined ? objectsByIndex(allObjects, documents.length) : undefined;
    const objectOf = (i: number) => (objects ? objects[i] : allObjects.find((o) => o.index === i));
    // Documents substituted alike share one substitution (most of a file's are): rules key
    // per-context answers by it, and each active context is built once. It is worked out once
    // per kind of opt-out among the file's objects, not once per document.
    const distinct: DocumentSubstitution[] = [];
    const clusterStrict = this.config().clusterStrict;
    const byOptOut = new Map<string, DocumentSubstitution>();
    const substitutionFor = (object: K8sObject | undefined) => {
      const optOut = optOutOf(object);
      let substitution = byOptOut.get(optOut);
      if (substitution) return substitution;
      const fresh = substitutionOf(contexts, object);
      substitution = distinct.find((s) => sameSubstitution(s, fresh));
      if (!substitution) {
        fresh.active = fresh.active.map((a) => {
          const declared = this.settings.forceStrict ? true : clusterStrict[a.context.cluster.name];
          return declared === undefined ? a : { ...a, strict: declared, strictAssumed: false };
        });
        distinct.push((substitution = fresh));
      }
      byOptOut.set(optOut, substitution);
      return substitution;
    };
    const views: LazyDocumentView[] = [];
    const scan = (text: string) => this.scan(file, text);
    // A file without `$` (nor a `\` that could spell one in a double-quoted scalar) has no
    // scalar substitution can change: its scalars are only counted. A workspace check meets
    // many (Flux Kustomizations, kustomization files with patches).
    const dollarFree = !parsed.text.includes('$') && !parsed.text.includes('\\');
    // One builder for every document, not a closure per document: this loop runs over every
    // document of the file on each keystroke.
    const buildScalars = (document: Document.Parsed) => {
      if (dollarFree) return { scalars: noScalars, total: countScalars(document.contents as Node | null) };
      const { sites, total } = scalarsWithDollars(document, parsed.text);
      const kept = patchBodiesOnly ? sites.filter((site) => isRenderedInline(site.path)) : sites;
      return { scalars: kept.map((site) => ({ site, scan: scan(site.value) })), total };
    };
    const inputKey = isYamlFile(file) ? undefined : this.generatorInputKey(file);
    for (let i = first; i < documents.length && wanted(i); i++) {
      const document = documents[i];
      const object = objectOf(i);
      const own =
        inputKey === undefined ? this.scalarCache.of(document, keep, buildScalars) : rawScalars(inputKey === envFileKey ? envFileScalars(parsed.text, scan) : [generatorInputScalar(parsed.text, inputKey, scan)]);
      // A comment belongs to the document it sits in (or before, for the first one).
      const range = document.range;
      const inDocument = parsed.comments.length === 0 || patchBodiesOnly ? noScalars : commentScalars(parsed.comments, i === 0 ? 0 : firstAtOrAfter(parsed.comments, range[0], commentStart), firstAtOrAfter(parsed.comments, range[2], commentStart), scan);
      views.push(new LazyDocumentView(i, document, object, substitutionFor(object), parsed.text, own, inDocument));
    }
    return views;
  }

  /** A kustomization file some Kustomization's tree reads (and that no tree renders as a resource). */
  private patchBodiesOnly(file: string): boolean {
    if (!kustomizationFileNames.includes(file.slice(file.lastIndexOf('/') + 1))) return false;
    const graph = this.fluxGraph();
    return graph.contextsOf(file).length === 0 && graph.patchContextsOf(file).length > 0;
  }

  /**
   * The key under which a `configMapGenerator` (`files:`) of a Kustomization that renders it
   * puts a non-YAML file, or undefined when none does.
   */
  private generatorInputKey(file: string): string | undefined {
    if (isYamlFile(file) || this.index.text(file) === undefined) return undefined;
    const name = file.slice(file.lastIndexOf('/') + 1);
    for (const context of this.fluxGraph().contextsOf(file)) {
      const { role, generator } = context.rendered;
      // A secretGenerator's file is a Secret's value: not read as text here, never shown.
      if (!generator || generator.kind !== 'ConfigMap') continue;
      if (role === 'generator-env') return envFileKey;
      if (role === 'generator-file') return generator.files.find((f) => f.path === name || f.path.endsWith(`/${name}`))?.key ?? name;
    }
    return undefined;
  }

  /** The workspace's CustomResourceDefinitions as field-type tables (kube/workspace-crds.ts). */
  workspaceSchemas(): readonly WorkspaceSchema[] {
    const layout = this.index.layoutVersion();
    if (this.crdSchemas?.layout !== layout || this.crdSchemas.epoch !== this.crdEpoch) {
      const schemas = workspaceCrdSchemas(this.index.files(), (file) => this.index.derived(file, crdSchemasFact, (text) => crdSchemasOf(file, text)));
      this.crdSchemas = { layout, epoch: this.crdEpoch, schemas };
    }
    return this.crdSchemas.schemas;
  }

  private shared<T>(key: string, build: () => T): T {
    const graph = this.fluxGraph();
    const texts = this.index.textsVersion();
    if (this.sharedValues?.graph !== graph || this.sharedValues.texts !== texts) this.sharedValues = { graph, texts, values: new Map() };
    const values = this.sharedValues.values;
    if (!values.has(key)) values.set(key, build());
    return values.get(key) as T;
  }

  /** The envsubst scan of a value; one that fails (a bug) is logged and read as plain text. */
  private scan(file: string, value: string): TemplateScan {
    // Without a `$` there is nothing to scan: most values of most files.
    if (!value.includes('$')) return noDollars;
    try {
      return scanTemplate(value);
    } catch (error) {
      this.logFailure('envsubst scan', file, error);
      return { runs: noRuns, expansions: [] };
    }
  }

  private createContext(file: string, parsed: ParsedFile, keep: boolean): EngineContext {
    let documents: LazyDocumentView[] | undefined;
    let suppressions: Suppression[] | undefined;
    let substituted: ReturnType<RuleContext['substitutedScalars']> | undefined;
    const engine = this;
    const index = this.index;
    const views = () => (documents ??= engine.buildDocuments(file, parsed, keep));
    return {
      file,
      text: parsed.text,
      parsed,
      documents: views,
      views,
      parsedFile: (other) => index.parsed(other),
      derived: (other, key, compute) => index.derived(other, key, compute),
      shared: (key, build) => engine.shared(key, build),
      filesUnder: (dir) => (dir === '' ? index.files() : index.files().filter((f) => f.startsWith(`${dir}/`))),
      fluxGraph: () => engine.fluxGraph(),
      suppressions: () => (suppressions ??= suppressionsOf(parsed.text, parsed.comments, engine.policy().reasonMinLength)),
      policy: () => engine.policy(),
      knownRule: (id) => ruleById(id) !== undefined,
      workspaceSchemas: () => engine.workspaceSchemas(),
      substitutedScalars() {
        // Once per check, not once per rule that asks.
        substituted ??= views().flatMap((document) => document.substituted);
        return substituted;
      },
    };
  }
}

const startOfText = /^/;

/**
 * The string, flat. A message built from template pieces is a tree of a dozen or more string
 * parts, which V8 joins only when something reads the whole text; a finding keeps its texts
 * for as long as its file is open, and the tree of each (about 7,500 parts, 0.24 MB in the
 * 10k-line bench manifest's open) was copied by every young-generation collection until its
 * diagnostics were serialized. A regular expression joins its subject in place (V8 flattens
 * what it matches against); the value is unchanged.
 */
function flat(text: string): string {
  startOfText.test(text);
  return text;
}

/** A rule context whose documents also say how many scalars they hold (the count a run reports). */
type EngineContext = RuleContext & { views(): readonly LazyDocumentView[] };

/**
 * At most maxFindingsPerFile findings, the most serious first, in source order; one more, of
 * the first left-out finding's rule, says how many are not shown.
 */
function capFindings(findings: Finding[]): Finding[] {
  findings.sort(compareFindings);
  if (findings.length <= maxFindingsPerFile) return findings;
  // Kept: every finding of the most serious severities that fit, and the first ones in source
  // order of the severity that fills the cap. One pass over the sorted findings instead of a
  // sort by severity: on a 50,000-line manifest this ran on every keystroke.
  const quota = [0, 0, 0, 0];
  for (const f of findings) quota[severityRank[f.severity]]++;
  let room = maxFindingsPerFile;
  for (let rank = 0; rank < quota.length; rank++) room -= quota[rank] = Math.min(quota[rank], room);
  const kept: Finding[] = [];
  // The first finding left out, the most serious first: the notice takes its place and rule.
  let first: Finding | undefined;
  for (const f of findings) {
    const rank = severityRank[f.severity];
    if (quota[rank] > 0) {
      quota[rank]--;
      kept.push(f);
    } else if (first === undefined || rank < severityRank[first.severity]) {
      first = f;
    }
  }
  const more = findings.length - maxFindingsPerFile;
  const note: Finding = {
    ...first!,
    severity: 'information',
    message: `${more} more finding${more === 1 ? '' : 's'} in this file ${more === 1 ? 'is' : 'are'} not shown: Render Lens reports at most ${maxFindingsPerFile} per file. Fix these, or suppress the rule, to see the rest.`,
    related: [],
    fixes: [],
  };
  kept.push(note);
  // Sorted but for the notice: the sort only has to place it.
  return kept.sort(compareFindings);
}

/** Each document's object (or undefined), by document index. */
function objectsByIndex(objects: readonly K8sObject[], documents: number): Array<K8sObject | undefined> {
  const byIndex = new Array<K8sObject | undefined>(documents).fill(undefined);
  for (let i = 0; i < objects.length; i++) byIndex[objects[i].index] = objects[i];
  return byIndex;
}

/** A comment's start: the key firstAtOrAfter searches comments by (one function, not one per call). */
function commentStart(comment: YamlComment): number {
  return comment.start;
}

/** A chart template as the rules see it: its text, no YAML documents. */
function templateFile(text: string | undefined): ParsedFile | undefined {
  return text === undefined ? undefined : { text, documents: [], lineCounter: new LineCounter(), problems: [], comments: templateComments(text) };
}

/** Whole-line `#` comments of a template: enough for suppressions (`# render-lens-disable …`). */
function templateComments(text: string): YamlComment[] {
  const comments: YamlComment[] = [];
  for (const match of text.matchAll(/^[ \t]*(#[^\n]*)/gm)) {
    const start = match.index + match[0].length - match[1].length;
    comments.push({ start, end: start + match[1].length, text: match[1].slice(1) });
  }
  return comments;
}

/**
 * No scalars, shared: the comment scalars of most documents, and every document's scalars in a
 * file without `$` (one array, not one per document and check; rules only read it).
 */
const noScalars: readonly SubstitutedScalar[] = Object.freeze([]);

/** The comments in comments[from, to) that hold a `$`, as scalars whose text is everything after `#`, mapped one to one. */
function commentScalars(comments: readonly YamlComment[], from: number, to: number, scan: (text: string) => TemplateScan): readonly SubstitutedScalar[] {
  let out: SubstitutedScalar[] | undefined;
  for (let i = from; i < to; i++) {
    const c = comments[i];
    if (!c.text.includes('$')) continue;
    // One offset per UTF-16 unit: `Int32Array.from(text)` would iterate code points, leaving an
    // emoji's second unit (and every unit after it) without an offset.
    const starts = Int32Array.from({ length: c.text.length }, (_, k) => c.start + 1 + k);
    const text = { value: c.text, starts, ends: starts.map((s) => s + 1) };
    const site: ScalarSite = { node: new Scalar(c.text), isKey: false, path: [], style: 'PLAIN', range: { start: c.start, end: c.end }, text, value: c.text, rangeOf: (a, b) => sourceRange(text, a, b) };
    (out ??= []).push({ site, scan: scan(c.text), comment: true });
  }
  return out ?? noScalars;
}

/**
 * What a kustomization file writes into the objects it renders: an inline patch body
 * (`patches[].patch`, `patchesJson6902[].patch`, a `patchesStrategicMerge` string) or a
 * `configMapGenerator` literal (`KEY=value`). A secretGenerator's literals are Secret values.
 */
function isRenderedInline(path: ReadonlyArray<string | number>): boolean {
  if ((path[0] === 'patches' || path[0] === 'patchesJson6902') && path.length === 3 && path[2] === 'patch') return true;
  if (path[0] === 'patchesStrategicMerge' && path.length === 2) return true;
  return path[0] === 'configMapGenerator' && path[2] === 'literals' && path.length === 4;
}

/** A generator input's scalars, as a document's. */
function rawScalars(scalars: readonly SubstitutedScalar[]): DocumentScalars {
  return { scalars: () => scalars, total: () => Math.max(1, scalars.length) };
}

/** generatorInputKey's answer for an env file, whose keys are on its lines. */
const envFileKey = '\0env';

/** The index of the first item whose key is at least `offset`, in items sorted by key (binary search). */
function firstAtOrAfter<T>(items: readonly T[], offset: number, key: (item: T) => number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (key(items[mid]) < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
