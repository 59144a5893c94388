/**
 * Where a chart's templates call its named templates: every `include "name" data` and
 * `template "name" data`, with what each passes as the dot. The judgements that follow a
 * define's fields to its callers (rules/support/chart-scope.ts, value-sources.ts) read them.
 */
import { commandFunction, type Pipeline, type Term } from '../gotemplate/ast';
import type { TemplateAnalysis } from './template-file';
import type { TreeNode } from '../gotemplate/tree';

/** What the judgements read of the workspace around a chart template (a rule context has it all). */
export interface ChartReader {
  readonly file: string;
  readonly text: string;
  derived<T>(file: string, key: string, compute: (text: string) => T): T | undefined;
  filesUnder(dir: string): readonly string[];
  shared<T>(key: string, build: () => T): T;
}

export interface IncludeSite {
  file: string;
  offset: number;
  /** What the caller passes as the dot. */
  data: Term | undefined;
}

/** The chart's include sites, worked out once and shared by every check. */
export function includeSitesOf(dir: string, context: ChartReader, analysisOf: (file: string) => TemplateAnalysis | undefined): Map<string, IncludeSite[]> {
  return context.shared(`helm-include-sites:${dir}`, () => includeSites(dir, context, analysisOf));
}

/** Every `include "name" data` and `template "name" data` in the chart's templates, by name. */
function includeSites(dir: string, context: ChartReader, analysisOf: (file: string) => TemplateAnalysis | undefined): Map<string, IncludeSite[]> {
  const sites = new Map<string, IncludeSite[]>();
  const templates = dir === '' ? 'templates/' : `${dir}/templates/`;
  const add = (name: string, site: IncludeSite) => {
    const list = sites.get(name);
    if (list) list.push(site);
    else sites.set(name, [site]);
  };
  for (const file of context.filesUnder(dir)) {
    if (!file.startsWith(templates) || !/\.(ya?ml|tpl|txt)$/i.test(file)) continue;
    const tree = analysisOf(file)?.tree;
    if (!tree) continue;
    const pipelines = (pipeline: Pipeline, offset: number) => {
      for (const command of pipeline.commands) {
        const name = command.args[1];
        if (commandFunction(command) === 'include' && name?.kind === 'string') add(name.value, { file, offset, data: command.args[2] });
        for (const arg of command.args) if (arg.kind === 'pipeline') pipelines(arg.pipeline, offset);
      }
    };
    const stack: TreeNode[] = [...tree.body, ...tree.defines.flatMap((d) => d.body)];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (node.type === 'output') pipelines(node.pipeline, node.action.start);
      else if (node.type === 'template') {
        const only = node.pipeline?.commands.length === 1 && node.pipeline.commands[0].args.length === 1;
        add(node.name, { file, offset: node.action.start, data: only ? node.pipeline!.commands[0].args[0] : undefined });
      } else if (node.type === 'cond') {
        for (const branch of node.branches) {
          pipelines(branch.pipeline, branch.action.start);
          stack.push(...branch.body);
        }
        if (node.elseBody) stack.push(...node.elseBody);
      } else if (node.type === 'range') {
        pipelines(node.pipeline, node.action.start);
        stack.push(...node.body, ...(node.elseBody ?? []));
      }
    }
  }
  return sites;
}
