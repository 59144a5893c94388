/**
 * Render Lens on the shape of a real public repository: the workspace is a temporary copy of
 * test-fixtures/real-repo/kochhaus-home (haraldkoch/kochhaus-home cut down to two clusters and
 * the app they share). Like the repositories measured, it has no error to show: what a user
 * sees is per-cluster values in hovers, the clusters Render Lens found, and a warning on a
 * default nobody overrides. The runner keeps a screenshot of each (the README's images).
 */
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as vscode from 'vscode';
import { askTheBrowser, browserChannel, type Look } from './browser';

const extensionId = 'render-lens.render-lens';
const runners = 'kubernetes/apps/base/actions-runner-system/actions-runner-controller/runners/home-ops/helmrelease.yaml';

function fileUri(relative: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the test needs a workspace folder (a copy of test-fixtures/real-repo/kochhaus-home)');
  return vscode.Uri.joinPath(folder.uri, ...relative.split('/'));
}

async function open(relative: string): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(fileUri(relative));
  return vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.One, preview: false });
}

/** The diagnostics of a file once there are `count` from Render Lens (on every change event; no polling). */
function diagnostics(uri: vscode.Uri, count: number, timeoutMs = 45_000): Promise<vscode.Diagnostic[]> {
  const ours = () => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'render-lens');
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => (subscription.dispose(), clearTimeout(deadline), error ? reject(error) : resolve(ours()));
    const subscription = vscode.languages.onDidChangeDiagnostics(() => ours().length >= count && done());
    const deadline = setTimeout(() => done(new Error(`fewer than ${count} diagnostics on ${uri.fsPath}: ${JSON.stringify(ours().map((d) => d.message))}`)), timeoutMs);
    if (ours().length >= count) done();
  });
}

/** Puts the cursor inside `needle` and returns the hover VS Code's providers give there. */
async function hoverAt(editor: vscode.TextEditor, needle: string, offsetInNeedle: number): Promise<string> {
  const at = editor.document.getText().indexOf(needle);
  assert.ok(at >= 0, `${needle} not found in ${editor.document.uri.fsPath}`);
  const position = editor.document.positionAt(at + offsetInNeedle);
  editor.selection = new vscode.Selection(position, position);
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', editor.document.uri, position);
  return hovers
    .flatMap((hover) => hover.contents)
    .map((content) => (typeof content === 'string' ? content : content.value))
    .join('\n---\n');
}

/** Asks the browser side to find `look` on screen (and take its screenshot); nothing to do without one. */
async function seeOnScreen(name: string, look: Omit<Look, 'kind'>): Promise<void> {
  const channel = browserChannel();
  if (!channel) return;
  const verdict = await askTheBrowser(channel, name, { kind: 'look', ...look });
  assert.deepEqual(verdict.failures, [], `not on screen (screenshots in ${verdict.screenshots})`);
}

suite('Render Lens on a real repository (kochhaus-home)', () => {
  suiteSetup(async function () {
    this.timeout(120_000);
    const extension = vscode.extensions.getExtension(extensionId);
    assert.ok(extension, `${extensionId} is not loaded (extensionDevelopmentPath)`);
    await extension.activate();
    assert.ok(fs.existsSync(fileUri('kubernetes/main/flux/cluster/ks.yaml').fsPath), 'the workspace is not a copy of test-fixtures/real-repo/kochhaus-home');
    // Room for the screenshots: the editor alone, the width of the window.
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await vscode.commands.executeCommand('workbench.action.closePanel');
  });

  test('the shared HelmRelease: one warning, SILENT-DEFAULT on `${minRunners:=1}`, naming both clusters', async () => {
    const editor = await open(runners);
    const [warning, ...others] = await diagnostics(editor.document.uri, 1);
    assert.deepEqual(others, []);
    assert.equal(typeof warning.code === 'object' ? warning.code.value : warning.code, 'SILENT-DEFAULT');
    assert.equal(warning.severity, vscode.DiagnosticSeverity.Warning);
    assert.equal(editor.document.getText(warning.range), 'minRunners');
    assert.equal(warning.message, '`minRunners` is not defined, so the default applies: uses the default `1` in main/actions-runner-controller-runners, network/actions-runner-controller-runners.');
  });

  test('hover on `${CLUSTER}`: its value in each cluster and the line that sets it', async function () {
    this.timeout(120_000);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const editor = await open(runners);
    const hover = await hoverAt(editor, '${CLUSTER}', 3);
    assert.match(hover, /main\/actions-runner-controller-runners \(strict\) \| `main`/);
    assert.match(hover, /network\/actions-runner-controller-runners \(strict\) \| `network`/);
    assert.match(hover, /\[kubernetes\/main\/flux\/cluster\/ks\.yaml:33\]/);
    assert.match(hover, /\[kubernetes\/network\/flux\/cluster\/ks\.yaml:33\]/);
    editor.revealRange(new vscode.Range(0, 0, 0, 0), vscode.TextEditorRevealType.AtTop);
    await vscode.commands.executeCommand('editor.action.showHover');
    await seeOnScreen('real-hover', { selector: '.monaco-hover', pattern: 'main/actions-runner-controller-runners.*`?main`?.*network/actions-runner-controller-runners.*ks\\.yaml:33', screenshot: 'real-hover' });
  });

  test('the SILENT-DEFAULT warning on screen: the squiggle, and its hover with the default each cluster gets', async function () {
    this.timeout(120_000);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const editor = await open(runners);
    const hover = await hoverAt(editor, '${minRunners:=1}', 4);
    assert.match(hover, /main\/actions-runner-controller-runners: not defined — define it in ConfigMap cluster-settings \(kubernetes\/main\/components\/common\/vars\/cluster-settings\.yaml\)/);
    await seeOnScreen('real-squiggle', { selector: '.editor-group-container.active .squiggly-warning', pattern: '' });
    // The line near the top, so the hover opens below it with room for all of it.
    const line = editor.selection.active.line;
    editor.revealRange(new vscode.Range(line - 3, 0, line - 3, 0), vscode.TextEditorRevealType.AtTop);
    await vscode.commands.executeCommand('editor.action.showHover');
    await seeOnScreen('real-silent-default', { selector: '.monaco-hover', pattern: 'is not defined, so the default applies.*SILENT-DEFAULT', screenshot: 'real-silent-default' });
  });

  test('Show Clusters: both clusters, where each starts, and the ConfigMap each reads its variables from', async function () {
    this.timeout(120_000);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await open(runners);
    await vscode.commands.executeCommand('renderLens.showClusters');
    await vscode.commands.executeCommand('editor.action.toggleWordWrap');
    const text = vscode.window.activeTextEditor?.document.getText() ?? '';
    assert.match(text, /^main\n {2}starts at kubernetes\/main\/flux\/cluster — flux-instance HelmRelease, kubernetes\/main\/apps\/flux-system\/flux-instance\/app\/helmrelease\.yaml:19$/m);
    assert.match(text, /^network\n {2}starts at kubernetes\/network\/flux\/cluster — flux-instance HelmRelease/m);
    assert.match(text, /ConfigMap cluster-settings — kubernetes\/network\/components\/common\/vars\/cluster-settings\.yaml:2; read by 2 Kustomizations in 2 namespaces/);
    await seeOnScreen('real-clusters', {
      selector: '.editor-group-container.active .monaco-editor',
      pattern: 'main {2}starts at kubernetes/main/flux/cluster.*network {2}starts at kubernetes/network/flux/cluster',
      screenshot: 'real-clusters',
    });
  });

  test('Restart Server: the output channel says when, and what the new server found', async function () {
    this.timeout(120_000);
    await vscode.commands.executeCommand('renderLens.restartServer');
    await vscode.commands.executeCommand('renderLens.showOutput');
    await seeOnScreen('restart-output', {
      selector: '.part.panel',
      pattern: 'Restarted the server at \\d\\d:\\d\\d:\\d\\d: found 2 cluster\\(s\\) \\(main, network\\) and 22 file\\(s\\) in \\d+ ms\\.',
      screenshot: 'restart-output',
    });
  });
});
