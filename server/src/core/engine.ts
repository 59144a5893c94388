/**
 * The engine: one per workspace. It owns the file index and the Flux graph, takes file
 * changes, and runs the rules over files. The LSP server, the CLI and the tests all use it.
 */
import { scanTemplate } from './envsubst';
import { FluxGraph } from './flux/graph';
import { kustomizationFileNames } from './flux/paths';
import type { WorkspaceHost } from './host';
import { compareFindings, type Finding, type Severity } from './model';
import { RULES } from './rules';
import type { DocumentView, Rule, RuleContext, SubstitutedScalar } from './rules/rule';
import { substitutionOf } from './substitution';
import { FileIndex } from './workspace/file-index';
import { scalarsOf, type ParsedFile } from './yaml/document';

export interface EngineSettings {
  /** Per-rule severity overrides; 'off' disables the rule. */
  severities?: Readonly<Record<string, Severity | 'off'>>;
  /** Strict substitution for clusters that do not say (Flux ≥ 2.9 substitutes strictly). */
  strictDefault?: boolean;
  /** Where a failing rule is reported; the other rules still run. */
  log?: (message: string) => void;
}

export interface AnalyzeOptions {
  /** Run only these rule ids (fixture tests isolate one rule). */
  only?: readonly string[];
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

export class Engine {
  readonly index: FileIndex;
  private graph: FluxGraph | undefined;

  constructor(
    host: WorkspaceHost,
    private settings: EngineSettings = {},
  ) {
    this.index = new FileIndex(host);
  }

  configure(settings: EngineSettings): void {
    if ((settings.strictDefault ?? true) !== (this.settings.strictDefault ?? true)) this.graph = undefined;
    this.settings = settings;
  }

  fluxGraph(): FluxGraph {
    this.graph ??= FluxGraph.build(this.index, { strict: this.settings.strictDefault ?? true });
    return this.graph;
  }

  /** A file's new text (undefined: deleted). Returns true when the Flux graph must be rebuilt. */
  update(file: string, text: string | undefined): boolean {
    const before = this.index.known(file)?.text;
    if (!this.index.update(file, text)) return false;
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

  /** Every file changed at once (e.g. a branch switch): start over. */
  reset(): void {
    this.index.reset();
    this.graph = undefined;
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

  analyzeFile(file: string, options: AnalyzeOptions = {}): FileAnalysis {
    if (!isYamlFile(file) || this.isHelmTemplate(file)) return { findings: [], fields: 0 };
    const parsed = this.index.parsed(file);
    if (!parsed) return { findings: [], fields: 0 };
    const context = this.createContext(file, parsed);
    const findings: Finding[] = [];
    for (const rule of this.selectRules(options)) {
      const severity = this.settings.severities?.[rule.id] ?? rule.severity;
      if (severity === 'off') continue;
      try {
        for (const report of rule.check(context)) {
          findings.push({
            rule: rule.id,
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
          });
        }
      } catch (error) {
        // A bug in one rule must not hide the others' findings or stop the server.
        this.settings.log?.(`rule ${rule.id} failed on ${file}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      }
    }
    return { findings: findings.sort(compareFindings), fields: context.documents().reduce((n, d) => n + d.scalars.length, 0) };
  }

  analyzeWorkspace(paths: readonly string[] = [''], options: AnalyzeOptions = {}): WorkspaceAnalysis {
    const prefixes = paths.map((p) => (p === '' || p === '.' ? '' : p.replace(/\/$/, '')));
    const inScope = (file: string) => prefixes.some((p) => p === '' || file === p || file.startsWith(`${p}/`));
    const result: WorkspaceAnalysis = { findings: [], fields: 0, files: 0 };
    for (const file of this.index.files()) {
      if (!inScope(file) || !isYamlFile(file) || this.isHelmTemplate(file)) continue;
      const analysis = this.analyzeFile(file, options);
      result.findings.push(...analysis.findings);
      result.fields += analysis.fields;
      result.files++;
    }
    return result;
  }

  private isGeneratorInput(file: string): boolean {
    return this.graph?.contextsOf(file).some((c) => c.rendered.generator !== undefined) ?? false;
  }

  private selectRules(options: AnalyzeOptions): readonly Rule[] {
    return options.only ? RULES.filter((rule) => options.only!.includes(rule.id)) : RULES;
  }

  private createContext(file: string, parsed: ParsedFile): RuleContext {
    let documents: DocumentView[] | undefined;
    const graph = () => this.fluxGraph();
    const index = this.index;
    return {
      file,
      text: parsed.text,
      parsed,
      documents() {
        if (documents) return documents;
        const contexts = graph().contextsOf(file);
        const objects = new Map(index.objects(file).map((o) => [o.index, o]));
        documents = parsed.documents.map((document, index) => {
          const substitution = substitutionOf(contexts, objects.get(index));
          const scalars: SubstitutedScalar[] = [...scalarsOf(document, parsed.text)].map((site) => ({ site, scan: scanTemplate(site.text.value) }));
          return { index, document, object: objects.get(index), substitution, scalars };
        });
        return documents;
      },
      parsedFile: (other) => index.parsed(other),
      substitutedScalars() {
        return this.documents().flatMap((d) => (d.substitution.active.length > 0 ? d.scalars.map((s) => ({ ...s, document: d })) : []));
      },
    };
  }
}
