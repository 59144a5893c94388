/**
 * The two servers the bench drives: Render Lens's, with the node options the VS Code extension
 * gives it (run by this node, not VS Code's Electron), and yaml-language-server with validation
 * on, no schema store and no schemas.
 */
import { renderLensServer, yamlLanguageServer } from '../dev/project-paths';
import { serverNodeOptions } from '../runtime/node-options';
import type { ServerSpec } from './lsp-client';

export const renderLensSpec: ServerSpec = { name: 'render-lens', script: renderLensServer, args: ['--stdio'], nodeOptions: serverNodeOptions, settings: {}, languageId: 'yaml', versioned: true };

export const yamlLanguageServerSpec: ServerSpec = {
  name: 'yaml-language-server',
  script: yamlLanguageServer,
  args: ['--stdio'],
  settings: {
    yaml: { validate: true, hover: true, completion: true, format: { enable: false }, schemas: {}, schemaStore: { enable: false }, kubernetesCRDStore: { enable: false } },
    http: {},
    '[yaml]': {},
    editor: {},
  },
  languageId: 'yaml',
};
