/** Render Lens requests for the preview, the status bar and Explain Variable. */
import type { Connection, TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { explainVariable, fileKind, formatExplainedVariable, formatRendered, renderContexts, renderFile, variableAt } from '../../core';
import {
  clustersRequest,
  contextsRequest,
  explainVariableRequest,
  renderRequest,
  type ClustersResult,
  type ContextsParams,
  type ContextsResult,
  type ExplainVariableParams,
  type ExplainVariableResult,
  type RenderParams,
  type RenderResult,
} from '../../protocol';
import { clustersResult } from '../model-log';
import type { Workspaces } from '../workspace';

export function registerRenderRequests(connection: Connection, documents: TextDocuments<TextDocument>, workspaces: Workspaces): void {
  connection.onRequest(contextsRequest, ({ uri }: ContextsParams): ContextsResult => {
    const located = workspaces.locate(uri);
    if (!located) return { contexts: [], kind: 'yaml' };
    return {
      kind: fileKind(located.engine, located.file),
      contexts: renderContexts(located.engine, located.file).map(({ label, context }, id) => ({
        id,
        label,
        substitutes: context.instance.substitutes,
        strict: context.instance.strict,
      })),
    };
  });

  connection.onRequest(renderRequest, ({ uri, context }: RenderParams): RenderResult | null => {
    const located = workspaces.locate(uri);
    if (!located) return null;
    const contexts = renderContexts(located.engine, located.file);
    const chosen = contexts[context ?? 0];
    if (!chosen) return { label: 'not rendered', text: `# ${located.file}: no Flux Kustomization renders this file, so the cluster receives it as written.\n` };
    return { label: chosen.label, text: formatRendered(located.file, renderFile(located.engine, located.file, chosen.context)) };
  });

  connection.onRequest(explainVariableRequest, ({ uri, position, name }: ExplainVariableParams): ExplainVariableResult | null => {
    const located = workspaces.locate(uri);
    const document = documents.get(uri);
    if (!located) return null;
    const variable = name ?? (position && document ? variableAt(located.engine, located.file, document.offsetAt(position))?.name : undefined);
    if (!variable) return null;
    return { name: variable, text: formatExplainedVariable(explainVariable(located.engine, variable)) };
  });

  connection.onRequest(clustersRequest, (): ClustersResult => clustersResult(workspaces.all()));
}
