/**
 * The editor's engine (lsp/workspace.ts) checks only the files the user opens, so of the files
 * its Flux graph reads it keeps the compact model, not a parse: a file the block reader does not
 * take (here a Secret with a flow mapping and a multi-line string) is parsed in full to build
 * that model, and the parse held its syntax tree for the life of the server, most of the graph's
 * memory at 5,000 home-ops files. A batch engine (the CLI, the workspace check) keeps it, since
 * its check of the file comes next. Both give the same graph and the same findings.
 */
import * as assert from 'assert/strict';
import { Engine } from '../core/engine';
import { MemoryHost } from '../core/host';

const files = {
  'clusters/prod/apps.yaml': 'apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: apps\n  namespace: flux-system\nspec:\n  interval: 10m\n  path: ./apps\n  prune: true\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n  postBuild:\n    substituteFrom:\n      - kind: Secret\n        name: app-secrets\n',
  'apps/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - secret.yaml\n  - deployment.yaml\n',
  'apps/secret.yaml': 'apiVersion: v1\nkind: Secret\nmetadata: {name: app-secrets, namespace: flux-system}\nstringData:\n  TOKEN: "a long\n    token"\n',
  'apps/deployment.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app\n  namespace: flux-system\nspec:\n  template:\n    spec:\n      containers:\n        - name: app\n          image: app\n          env:\n            - name: TOKEN\n              value: ${TOKEN}\n            - name: OTHER\n              value: ${OTHER}\n',
};

suite("the editor's engine keeps no parse of the files only its graph read", () => {
  test('the graph reads the Secret; only the batch engine keeps its parse; both find the same', () => {
    const editor = new Engine(new MemoryHost(files), {}, 'editor');
    const batch = new Engine(new MemoryHost(files), {});
    for (const engine of [editor, batch]) engine.fluxGraph();
    assert.equal(editor.index.hasParse('apps/secret.yaml'), false);
    assert.equal(batch.index.hasParse('apps/secret.yaml'), true);
    const findings = (engine: Engine) => engine.analyzeFile('apps/deployment.yaml').findings.map((f) => `${f.rule} ${f.message}`);
    assert.deepEqual(findings(editor), findings(batch));
    assert.ok(findings(editor).some((f) => f.startsWith('UNDEFINED-VAR') && f.includes('OTHER')), findings(editor).join('\n'));
    assert.ok(!findings(editor).some((f) => f.includes('TOKEN')), 'TOKEN comes from the Secret the graph read');
  });
});
