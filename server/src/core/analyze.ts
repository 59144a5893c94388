/**
 * The engine's entry point: runs the rules over files and stamps each report into a
 * Finding. The LSP server, the CLI and the tests all call these functions.
 */
import { scanTemplate } from './envsubst';
import type { WorkspaceHost } from './host';
import { compareFindings, type Finding, type Severity } from './model';
import { RULES } from './rules';
import type { Rule, RuleContext, SubstitutedScalar } from './rules/rule';
import { parseYamlFile, scalarsOf, type ParsedFile } from './yaml/document';

export interface AnalyzeOptions {
  /** Run only these rule ids (fixture tests use this to isolate one rule). */
  only?: readonly string[];
  /** Per-rule severity overrides; 'off' disables the rule. */
  severities?: Readonly<Record<string, Severity | 'off'>>;
  /** Where a failing rule is reported; the other rules still run. */
  log?: (message: string) => void;
}

export interface FileAnalysis {
  findings: Finding[];
  /** How many scalars (keys and values) were checked. */
  fields: number;
}

const yamlExtension = /\.ya?ml$/i;

export function isYamlFile(path: string): boolean {
  return yamlExtension.test(path);
}

/**
 * Helm chart templates are Go templates, not YAML: parsing them as YAML only produces noise.
 * A template is a file under `templates/` of a directory that holds `Chart.yaml`.
 */
export function isHelmTemplate(host: WorkspaceHost, path: string): boolean {
  const parts = path.split('/');
  for (let i = parts.length - 2; i >= 0; i--) {
    if (parts[i] !== 'templates') continue;
    const chartDir = parts.slice(0, i).join('/');
    const chart = chartDir === '' ? 'Chart.yaml' : `${chartDir}/Chart.yaml`;
    if (host.readFile(chart) !== undefined) return true;
  }
  return false;
}

export function analyzeText(file: string, text: string, options: AnalyzeOptions = {}): FileAnalysis {
  const parsed = parseYamlFile(text);
  const context = createContext(file, parsed);
  const findings: Finding[] = [];
  for (const rule of selectRules(options)) {
    const severity = options.severities?.[rule.id] ?? rule.severity;
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
      options.log?.(`rule ${rule.id} failed on ${file}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }
  return { findings: findings.sort(compareFindings), fields: context.scalars().length };
}

export function analyzeFile(host: WorkspaceHost, file: string, options: AnalyzeOptions = {}): FileAnalysis {
  if (!isYamlFile(file) || isHelmTemplate(host, file)) return { findings: [], fields: 0 };
  const text = host.readFile(file);
  if (text === undefined) return { findings: [], fields: 0 };
  return analyzeText(file, text, options);
}

export interface WorkspaceAnalysis extends FileAnalysis {
  files: number;
}

export function analyzeWorkspace(host: WorkspaceHost, paths: readonly string[] = [''], options: AnalyzeOptions = {}): WorkspaceAnalysis {
  const files = [...new Set(paths.flatMap((path) => host.listFiles(path)))].filter(isYamlFile).sort();
  const result: WorkspaceAnalysis = { findings: [], fields: 0, files: 0 };
  for (const file of files) {
    if (isHelmTemplate(host, file)) continue;
    const analysis = analyzeFile(host, file, options);
    result.findings.push(...analysis.findings);
    result.fields += analysis.fields;
    result.files++;
  }
  return result;
}

function selectRules(options: AnalyzeOptions): readonly Rule[] {
  return options.only ? RULES.filter((rule) => options.only!.includes(rule.id)) : RULES;
}

function createContext(file: string, parsed: ParsedFile): RuleContext {
  let scalars: SubstitutedScalar[] | undefined;
  return {
    file,
    text: parsed.text,
    parsed,
    scalars() {
      scalars ??= parsed.documents.flatMap((doc) => [...scalarsOf(doc, parsed.text)].map((site) => ({ site, scan: scanTemplate(site.text.value) })));
      return scalars;
    },
  };
}
