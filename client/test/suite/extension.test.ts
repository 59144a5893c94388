/**
 * Render Lens inside a real VS Code: the workspace is a temporary copy of test-fixtures/demo
 * (the runner makes it), the extension is the bundled dist/extension.js, and every assertion
 * goes through VS Code's own API: the diagnostics the user sees, the hover and code action
 * providers the editor calls, and the rendered-output document the command opens.
 *
 * The tests run in order and share the workspace: the quick fix is applied only after the
 * workbench check has seen the error it removes.
 */
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { askTheBrowser, browserChannel } from './browser';

const extensionId = 'render-lens.render-lens';
const migrations = 'apps/postgres/migrations.yaml';
const cronjob = 'apps/backup/cronjob.yaml';
const ingress = 'infrastructure/ingress.yaml';

function workspaceRoot(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the test needs a workspace folder (a copy of test-fixtures/demo)');
  return folder.uri;
}

const fileUri = (relative: string) => vscode.Uri.joinPath(workspaceRoot(), ...relative.split('/'));

function codeOf(diagnostic: vscode.Diagnostic): string {
  const code = diagnostic.code;
  return typeof code === 'object' ? String(code.value) : String(code);
}

const severityName = (severity: vscode.DiagnosticSeverity) => vscode.DiagnosticSeverity[severity].toLowerCase();
const rangeText = (r: vscode.Range) => `${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}`;

/** `RULE severity line:col-line:col` (0-based, as VS Code counts), sorted. */
function summary(diagnostics: readonly vscode.Diagnostic[]): string[] {
  return diagnostics.map((d) => `${codeOf(d)} ${severityName(d.severity)} ${rangeText(d.range)}`).sort();
}

const renderLensDiagnostics = (uri: vscode.Uri) => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'render-lens');

/**
 * Resolves with the file's Render Lens diagnostics as soon as `ready` accepts them: checked
 * now, then on every `onDidChangeDiagnostics` for the file. No polling, no sleeps; the
 * deadline only turns a hang into a readable failure.
 */
function diagnosticsWhen(uri: vscode.Uri, ready: (diagnostics: vscode.Diagnostic[]) => boolean, what: string, timeoutMs = 45_000): Promise<vscode.Diagnostic[]> {
  return new Promise((resolve, reject) => {
    let last: vscode.Diagnostic[] = [];
    const finish = (error?: Error) => {
      subscription.dispose();
      clearTimeout(deadline);
      if (error) reject(error);
      else resolve(last);
    };
    const check = () => {
      last = renderLensDiagnostics(uri);
      if (ready(last)) finish();
    };
    const subscription = vscode.languages.onDidChangeDiagnostics((event) => {
      if (event.uris.some((changed) => changed.toString() === uri.toString())) check();
    });
    const deadline = setTimeout(() => finish(new Error(`no diagnostics ${what} for ${uri.fsPath} within ${timeoutMs} ms; last seen: ${JSON.stringify(summary(last))}`)), timeoutMs);
    check();
  });
}

async function open(relative: string): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(fileUri(relative));
  return vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.One, preview: false });
}

function positionOf(document: vscode.TextDocument, needle: string, offsetInNeedle = 2): vscode.Position {
  const at = document.getText().indexOf(needle);
  assert.ok(at >= 0, `${needle} not found in ${document.uri.fsPath}`);
  return document.positionAt(at + offsetInNeedle);
}

function hoverText(hovers: vscode.Hover[] | undefined): string {
  return (hovers ?? [])
    .flatMap((hover) => hover.contents)
    .map((content) => (typeof content === 'string' ? content : content.value))
    .join('\n---\n');
}

async function quickFixes(uri: vscode.Uri, range: vscode.Range): Promise<vscode.CodeAction[]> {
  const result = await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>('vscode.executeCodeActionProvider', uri, range, vscode.CodeActionKind.QuickFix.value);
  return (result ?? []).filter((item): item is vscode.CodeAction => 'title' in item && !('command' in item && typeof item.command === 'string'));
}

/** Applies a workspace edit's changes for one file to a string: an in-memory copy, not the file. */
function applyToText(document: vscode.TextDocument, edit: vscode.WorkspaceEdit): string {
  const edits = edit.get(document.uri).slice().sort((a, b) => document.offsetAt(b.range.start) - document.offsetAt(a.range.start));
  let text = document.getText();
  for (const e of edits) text = text.slice(0, document.offsetAt(e.range.start)) + e.newText + text.slice(document.offsetAt(e.range.end));
  return text;
}

const migrationsExpected = ['DOLLAR-COLLAPSE warning 20:56-20:58', 'DOLLAR-COLLAPSE warning 20:7-20:9', 'ENVSUBST-PARSE error 16:13-16:32'];

/** The node options server/src/runtime/node-options.ts declares, read from its source: this suite is compiled apart from the server's. */
function declaredNodeOptions(): string[] {
  const extension = vscode.extensions.getExtension(extensionId);
  assert.ok(extension, `${extensionId} is not loaded`);
  const source = fs.readFileSync(path.join(extension.extensionPath, 'server', 'src', 'runtime', 'node-options.ts'), 'utf8');
  const list = /serverNodeOptions[^=]*=\s*\[([^\]]*)\]/.exec(source);
  const options = list ? [...list[1].matchAll(/'([^']*)'/g)].map((match) => match[1]) : [];
  assert.ok(options.some((option) => option.startsWith('--min-semi-space-size=')), `no semi-space size in node-options.ts: ${list?.[0]}`);
  return options;
}

suite('Render Lens in VS Code', () => {
  suiteSetup(async function () {
    this.timeout(120_000);
    const extension = vscode.extensions.getExtension(extensionId);
    assert.ok(extension, `${extensionId} is not loaded (extensionDevelopmentPath)`);
    await extension.activate();
    assert.ok(fs.existsSync(path.join(workspaceRoot().fsPath, 'clusters', 'production', 'apps.yaml')), 'the workspace is not a copy of test-fixtures/demo');
  });

  test('diagnostics: each finding at its exact columns, with its rule and severity', async () => {
    await open(migrations);
    const found = await diagnosticsWhen(fileUri(migrations), (d) => d.length >= 3, 'on migrations.yaml');
    assert.deepEqual(summary(found), migrationsExpected);
    const parse = found.find((d) => codeOf(d) === 'ENVSUBST-PARSE')!;
    assert.match(parse.message, /^Flux cannot parse `\$\{REPLICA_HOSTS\[0\]\}`: missing closing brace\. Every resource of production\/apps fails to reconcile\./);
    assert.equal(typeof parse.code === 'object' && parse.code.target.toString().includes('ENVSUBST-PARSE'), true, 'the rule id links to its documentation');

    await open(cronjob);
    assert.deepEqual(summary(await diagnosticsWhen(fileUri(cronjob), (d) => d.length >= 2, 'on cronjob.yaml')), ['DOLLAR-HALF-ESCAPED error 20:22-20:25', 'UNDEFINED-VAR error 20:26-20:30']);

    await open(ingress);
    assert.deepEqual(summary(await diagnosticsWhen(fileUri(ingress), (d) => d.length >= 2, 'on ingress.yaml')), ['NOT-SUBSTITUTED warning 6:35-6:50', 'NOT-SUBSTITUTED warning 9:17-9:37']);
  });

  test('hover: what a variable becomes and where its value comes from', async () => {
    const { document } = await open(migrations);
    const clusterName = hoverText(await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', document.uri, positionOf(document, '${cluster_name}')));
    assert.match(clusterName, /production\/apps \(strict\) \| `production`/);
    assert.match(clusterName, /\[clusters\/production\/apps\.yaml:17\]/);

    const region = hoverText(await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', document.uri, positionOf(document, '${region}')));
    assert.match(region, /`eu-west-1` from ConfigMap cluster-vars — \[clusters\/production\/cluster-vars\.yaml:7\]/);
  });

  test('hover: a file:line reference is a link that opens the file at that line', async () => {
    const { document } = await open(migrations);
    const region = hoverText(await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', document.uri, positionOf(document, '${region}')));
    const link = /\[clusters\/production\/cluster-vars\.yaml:7\]\(([^)]+)\)/.exec(region)?.[1];
    assert.ok(link, `no link in the hover: ${region}`);
    const target = vscode.Uri.parse(link);
    assert.equal(target.with({ fragment: '' }).toString(), fileUri('clusters/production/cluster-vars.yaml').toString());
    assert.equal(target.fragment, 'L7');
    // What a click does: VS Code's opener opens the file and puts the cursor on the line.
    await vscode.commands.executeCommand('vscode.open', target);
    const opened = vscode.window.activeTextEditor;
    assert.equal(opened?.document.uri.toString(), fileUri('clusters/production/cluster-vars.yaml').toString());
    assert.equal(opened.selection.active.line, 6);
    assert.match(opened.document.lineAt(6).text, /region: eu-west-1/);
  });

  test('completion after `${`: the variables of the file\'s contexts, with value and source', async () => {
    const editor = await open(cronjob);
    const line = editor.document.lineAt(positionOf(editor.document, 'parallelism').line);
    assert.ok(await editor.edit((edit) => edit.insert(line.range.end, '\n      activeDeadlineSeconds: ${')));
    try {
      const at = editor.document.lineAt(line.lineNumber + 1).range.end;
      const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', editor.document.uri, at, '{');
      const items = list.items.filter((item) => item.kind === vscode.CompletionItemKind.Variable);
      const label = (item: vscode.CompletionItem) => (typeof item.label === 'string' ? item.label : item.label.label);
      for (const name of ['backup_bucket', 'cluster_name', 'region', 'replicas']) assert.ok(items.some((item) => label(item) === name), `${name} missing from ${JSON.stringify(items.map(label))}`);
      const region = items.find((item) => label(item) === 'region')!;
      const docs = typeof region.documentation === 'string' ? region.documentation : (region.documentation?.value ?? '');
      assert.match(docs, /production\/apps: `eu-west-1` from ConfigMap cluster-vars — \[clusters\/production\/cluster-vars\.yaml:7\]/);
      assert.equal(region.detail, 'eu-west-1');
      // Accepting it writes the name and closes the brace.
      assert.equal(typeof region.insertText === 'string' ? region.insertText : region.insertText?.value, 'region}');
    } finally {
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
  });

  test('code actions: the quick fixes of a finding and the edit of the preferred one', async () => {
    const { document } = await open(migrations);
    const parse = renderLensDiagnostics(document.uri).find((d) => codeOf(d) === 'ENVSUBST-PARSE');
    assert.ok(parse, 'ENVSUBST-PARSE is not reported');
    const actions = await quickFixes(document.uri, parse.range);
    const preferred = actions.filter((a) => a.isPreferred);
    assert.equal(preferred.length, 1, `one preferred fix expected, got ${JSON.stringify(actions.map((a) => a.title))}`);
    assert.equal(preferred[0].title, 'Escape for Flux: `$${REPLICA_HOSTS[0]}` reaches the cluster as `${REPLICA_HOSTS[0]}`');
    assert.deepEqual(preferred[0].kind?.value, 'quickfix');
    assert.ok(preferred[0].edit, 'the fix carries its edit');
    const edits = preferred[0].edit.entries();
    assert.equal(edits.length, 1);
    assert.equal(edits[0][0].toString(), document.uri.toString());
    assert.deepEqual(edits[0][1].map((e) => `${rangeText(e.range)} ${JSON.stringify(e.newText)}`), ['16:13-16:13 "$"']);
    // Applied to an in-memory copy, the line becomes what the shell should see after Flux.
    assert.equal(applyToText(document, preferred[0].edit).split('\n')[16], '    primary="$${REPLICA_HOSTS[0]}"');
    assert.equal(document.isDirty, false, 'listing the fixes must not touch the document');

    const collapse = renderLensDiagnostics(document.uri).find((d) => codeOf(d) === 'DOLLAR-COLLAPSE' && d.range.start.character === 7)!;
    const collapseFixes = await quickFixes(document.uri, collapse.range);
    assert.ok(collapseFixes.some((a) => a.isPreferred && a.title.startsWith('Double the escape')), JSON.stringify(collapseFixes.map((a) => a.title)));
  });

  test('workbench: the squiggle, the Problems row, the hover widget and the quick fix menu are on screen', async function () {
    // The runner (client/test/run-e2e.mjs) drives the browser; this side sets the scene and
    // waits for its verdict. Without it (`npm run test:vscode`) there is no page to look at.
    const channel = browserChannel();
    if (!channel) return this.skip();
    this.timeout(120_000);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const editor = await open(migrations);
    const parse = renderLensDiagnostics(editor.document.uri).find((d) => codeOf(d) === 'ENVSUBST-PARSE');
    assert.ok(parse);
    editor.selection = new vscode.Selection(parse.range.start, parse.range.start);
    editor.revealRange(new vscode.Range(0, 0, 0, 0), vscode.TextEditorRevealType.AtTop);
    await vscode.commands.executeCommand('workbench.actions.view.problems');
    await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');

    const verdict = await askTheBrowser(channel, 'editor-check', {
      kind: 'editor-check',
      file: migrations,
      squiggles: { error: 1, warning: 2 },
      problem: 'Flux cannot parse',
      hover: ['Flux cannot parse', 'ENVSUBST-PARSE'],
      quickFix: 'Escape for Flux',
    });
    assert.deepEqual(verdict.failures, [], `workbench check failed (screenshots in ${verdict.screenshots})`);
  });

  test('applying the preferred quick fix removes the finding', async () => {
    const { document } = await open(migrations);
    const parse = renderLensDiagnostics(document.uri).find((d) => codeOf(d) === 'ENVSUBST-PARSE');
    assert.ok(parse);
    const preferred = (await quickFixes(document.uri, parse.range)).find((a) => a.isPreferred);
    assert.ok(preferred?.edit);
    assert.equal(await vscode.workspace.applyEdit(preferred.edit), true);
    assert.equal(document.lineAt(16).text, '    primary="$${REPLICA_HOSTS[0]}"');
    assert.equal(await document.save(), true);
    assert.equal(fs.readFileSync(document.uri.fsPath, 'utf8').split('\n')[16], '    primary="$${REPLICA_HOSTS[0]}"');
    const after = await diagnosticsWhen(document.uri, (d) => !d.some((x) => codeOf(x) === 'ENVSUBST-PARSE'), 'without ENVSUBST-PARSE');
    assert.deepEqual(summary(after), migrationsExpected.filter((s) => !s.startsWith('ENVSUBST-PARSE')));
  });

  test('Show Rendered Output: a render-lens-rendered: document with the substituted values', async () => {
    await open(migrations);
    await vscode.commands.executeCommand('renderLens.showRendered');
    const rendered = vscode.window.activeTextEditor?.document;
    assert.ok(rendered, 'no editor after renderLens.showRendered');
    assert.equal(rendered.uri.scheme, 'render-lens-rendered');
    assert.equal(rendered.languageId, 'yaml', 'the preview is highlighted as YAML');
    assert.equal(new URLSearchParams(rendered.uri.query).get('source'), fileUri(migrations).toString());
    const text = rendered.getText();
    assert.match(text, /as kustomize-controller applies it in production\/apps \(strict\)/);
    assert.ok(text.includes('CREATE ROLE audit_production;'), text);
    assert.ok(text.includes('echo "connecting to $primary in eu-west-1"'), text);
    assert.ok(text.includes('primary="${REPLICA_HOSTS[0]}"'), text);
    assert.ok(text.includes('DO $ BEGIN DELETE FROM sessions WHERE expired; END $;'), text);
    assert.ok(!text.includes('${cluster_name}'), text);

    // A file that fails in strict mode shows the controller's error instead of resources.
    await open(cronjob);
    await vscode.commands.executeCommand('renderLens.showRendered');
    const failed = vscode.window.activeTextEditor?.document;
    assert.equal(failed?.uri.scheme, 'render-lens-rendered');
    assert.match(failed.getText(), /post build failed for 'CronJob\.v1\.batch\/backup': envsubst error: variable substitution failed: variable not set \(strict mode\): "HOME"/);
  });

  test('Show Clusters: a read-only document with the clusters, where each starts and its variable sources', async () => {
    await open(migrations);
    await vscode.commands.executeCommand('renderLens.showClusters');
    const shown = vscode.window.activeTextEditor?.document;
    assert.ok(shown, 'no editor after renderLens.showClusters');
    assert.equal(shown.uri.scheme, 'render-lens-clusters');
    const text = shown.getText();
    assert.match(text, /^production\n {2}starts at \.\/clusters\/production — flux bootstrap, clusters\/production\/flux-system\/gotk-sync\.yaml:\d+$/m);
    assert.match(text, /ConfigMap cluster-vars — clusters\/production\/cluster-vars\.yaml:\d+; read by 1 Kustomization in flux-system/);
  });

  test('Explain Variable: a read-only view that closes without asking to save', async () => {
    const editor = await open(migrations);
    const at = positionOf(editor.document, '${region}');
    editor.selection = new vscode.Selection(at, at);
    await vscode.commands.executeCommand('renderLens.explainVariable');
    const explained = vscode.window.activeTextEditor?.document;
    assert.equal(explained?.uri.scheme, 'render-lens-explain');
    assert.equal(explained.isUntitled, false);
    assert.equal(explained.isDirty, false);
    assert.match(explained.getText(), /eu-west-1/);
    assert.match(explained.getText(), /cluster-vars/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    assert.ok(!vscode.window.visibleTextEditors.some((e) => e.document.uri.scheme === 'render-lens-explain'), 'closed at once, no save prompt');
  });

  // Last: these save their fixes into migrations.yaml, whose findings the tests above count.
  test('fix all of one rule in the file: one quick fix beside each finding\'s own', async () => {
    const { document } = await open(migrations);
    const collapses = (await diagnosticsWhen(document.uri, (d) => d.filter((x) => codeOf(x) === 'DOLLAR-COLLAPSE').length === 2, 'with two DOLLAR-COLLAPSE')).filter((d) => codeOf(d) === 'DOLLAR-COLLAPSE');
    const actions = await quickFixes(document.uri, collapses[0].range);
    const all = actions.find((a) => a.title === 'Fix all DOLLAR-COLLAPSE problems in this file');
    assert.ok(all?.edit, JSON.stringify(actions.map((a) => a.title)));
    assert.equal(all.kind?.value, 'quickfix');
    assert.equal(applyToText(document, all.edit).split('\n')[20], '    DO $$$$ BEGIN DELETE FROM sessions WHERE expired; END $$$$;');
    assert.equal(document.isDirty, false, 'listing the fixes must not touch the document');
  });

  test('source.fixAll.renderLens on save, once the user opts in with editor.codeActionsOnSave', async function () {
    this.timeout(60_000);
    const editor = await open(migrations);
    const listed = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', editor.document.uri, new vscode.Range(0, 0, 0, 0), 'source.fixAll.renderLens');
    assert.deepEqual(listed.map((a) => `${a.kind?.value} ${a.title}`), ['source.fixAll.renderLens Fix all Render Lens problems in this file']);

    const settings = vscode.workspace.getConfiguration('editor');
    // The extension host learns of a setting from the workbench: once it has the change, the
    // workbench's save participant has it too (update() resolves when the file is written).
    const applied = new Promise<void>((resolve) => {
      const subscription = vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('editor.codeActionsOnSave')) (subscription.dispose(), resolve());
      });
    });
    await settings.update('codeActionsOnSave', { 'source.fixAll.renderLens': 'explicit' }, vscode.ConfigurationTarget.Workspace);
    await applied;
    try {
      const fixedLine = '    DO $$$$ BEGIN DELETE FROM sessions WHERE expired; END $$$$;';
      // In code-server 4.99 the save participants are now and then cancelled (about one save
      // in eight here): the save is refused with the buffer dirty, or goes through without the
      // participants' edits. A user saves again; so does this test, up to three times, and
      // each save must be one the fixes apply to whole.
      const failures: string[] = [];
      for (let attempt = 1; attempt <= 3; attempt++) {
        const line = `  00${3 + attempt}-vacuum.sql: DO $$ BEGIN VACUUM; END $$;`;
        const end = editor.document.lineAt(editor.document.lineCount - 1).range.end;
        assert.ok(await editor.edit((edit) => edit.insert(end, `\n${line}\n`)));
        // Saved once the server has checked the edit, as a user saves after seeing its squiggles.
        await diagnosticsWhen(editor.document.uri, (d) => d.some((x) => codeOf(x) === 'DOLLAR-COLLAPSE' && editor.document.lineAt(x.range.start.line).text === line), 'on the new line');
        const accepted = await editor.document.save();
        const saved = fs.readFileSync(editor.document.uri.fsPath, 'utf8').split('\n');
        if (accepted && saved[20] === fixedLine) {
          // Every run of the file fixed at once, the new line's included.
          assert.ok(saved.includes(line.replace(/\$\$/g, '$$$$$$$$')), saved.join('\n'));
          await diagnosticsWhen(editor.document.uri, (d) => !d.some((x) => codeOf(x) === 'DOLLAR-COLLAPSE'), 'without DOLLAR-COLLAPSE after the save');
          return;
        }
        failures.push(accepted ? 'saved without the fixes' : `save refused (${editor.document.isDirty ? 'dirty' : 'clean'})`);
      }
      assert.fail(`fix-all on save never applied: ${failures.join('; ')}`);
    } finally {
      await settings.update('codeActionsOnSave', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  test('Get Started: the walkthrough is contributed, with its three steps and their pages in the extension', () => {
    const extension = vscode.extensions.getExtension(extensionId)!;
    const [walkthrough] = extension.packageJSON.contributes.walkthroughs as Array<{ id: string; steps: Array<{ title: string; media: { markdown: string }; completionEvents: string[] }> }>;
    assert.deepEqual(walkthrough.steps.map((step) => step.title), ['What Render Lens checks', 'Read a hover', 'Your clusters and .render-lens.yaml']);
    for (const step of walkthrough.steps) assert.match(fs.readFileSync(path.join(extension.extensionPath, step.media.markdown), 'utf8'), /^# /);
    // Each step is done by running the command it offers, which this extension (or VS Code) has.
    return vscode.commands.getCommands(true).then((commands) => {
      for (const step of walkthrough.steps) for (const event of step.completionEvents) assert.ok(commands.includes(event.replace(/^onCommand:/, '')), event);
    });
  });

  test('Get Started: opening the walkthrough shows it with its three steps', async function () {
    const channel = browserChannel();
    if (!channel) return this.skip();
    this.timeout(120_000);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', `${extensionId}#getStarted`, false);
    const verdict = await askTheBrowser(channel, 'walkthrough', {
      kind: 'look',
      // The walkthrough's page: its title, then one h3.step-title per step (the media is a webview, not in this text).
      selector: '.gettingStartedSlideDetails',
      pattern: 'Get Started with Render Lens.*What Render Lens checks.*Read a hover.*Your clusters and \\.render-lens\\.yaml',
      screenshot: 'walkthrough',
    });
    assert.deepEqual(verdict.failures, [], `the walkthrough is not on screen (screenshots in ${verdict.screenshots})`);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  // Last: it adds a second cluster to the workspace.
  test('Choose Render Context from the preview and from the diff re-renders them in the chosen context', async function () {
    this.timeout(90_000);
    const root = workspaceRoot().fsPath;
    const staging = path.join(root, 'clusters', 'staging');
    // Each file is written once, in its final form: a copy rewritten afterwards can reach the
    // server's file watcher as one creation, read before the rewrite.
    const changes: Record<string, [RegExp, string]> = {
      'flux-system/gotk-sync.yaml': [/clusters\/production/g, 'clusters/staging'],
      'cluster-vars.yaml': [/eu-west-1/, 'us-east-1'],
      'apps.yaml': [/cluster_name: production/, 'cluster_name: staging'],
    };
    const production = path.join(root, 'clusters', 'production');
    for (const entry of fs.readdirSync(production, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const from = path.join(entry.parentPath ?? entry.path, entry.name);
      const file = path.relative(production, from).split(path.sep).join('/');
      const [pattern, replacement] = changes[file] ?? [/$^/, ''];
      fs.mkdirSync(path.dirname(path.join(staging, file)), { recursive: true });
      fs.writeFileSync(path.join(staging, file), fs.readFileSync(from, 'utf8').replace(pattern, replacement));
    }
    // The folder is set up, not what is tested: a file watcher can miss files made in a folder
    // it has not seen yet, and Check Workspace (what a user runs then) lists the files again.
    await vscode.commands.executeCommand('renderLens.checkWorkspace');
    // migrations.yaml has no findings left by now; cronjob.yaml's name the clusters.
    await open(cronjob);
    await diagnosticsWhen(fileUri(cronjob), (d) => d.some((x) => x.message.includes('staging/apps')), 'naming the new staging cluster');
    await open(migrations);

    // Chosen before (the status bar), the preview opens in that context without asking.
    await vscode.commands.executeCommand('renderLens.pickContext', 0);
    await vscode.commands.executeCommand('renderLens.showRendered');
    const preview = vscode.window.activeTextEditor!.document;
    assert.equal(preview.uri.scheme, 'render-lens-rendered');
    assert.match(preview.getText(), /production\/apps[\s\S]*in eu-west-1/);

    const shownIn = (region: string) =>
      new Promise<vscode.TextDocument>((resolve, reject) => {
        const found = () => vscode.window.visibleTextEditors.map((e) => e.document).find((d) => d.uri.scheme === 'render-lens-rendered' && d.getText().includes(`in ${region}`));
        const done = (document: vscode.TextDocument) => (subscription.dispose(), clearTimeout(deadline), resolve(document));
        const subscription = vscode.window.onDidChangeVisibleTextEditors(() => { const d = found(); if (d) done(d); });
        const deadline = setTimeout(() => (subscription.dispose(), reject(new Error(`no preview in ${region}`))), 30_000);
      });
    // From the preview: it is replaced by the staging rendering.
    const staged = shownIn('us-east-1');
    await vscode.commands.executeCommand('renderLens.pickContext', 1);
    assert.match((await staged).getText(), /staging\/apps/);
    const productionOpen = () => vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === preview.uri.toString()));
    await new Promise<void>((resolve, reject) => {
      const check = () => !productionOpen() && (subscription.dispose(), clearTimeout(deadline), resolve());
      const subscription = vscode.window.tabGroups.onDidChangeTabs(check);
      const deadline = setTimeout(() => (subscription.dispose(), reject(new Error('the production preview stays open'))), 30_000);
      check();
    });

    // From the diff: its rendered side follows the choice.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await open(migrations);
    await vscode.commands.executeCommand('renderLens.compareWithRendered');
    const diffTab = () => vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    assert.ok(diffTab() instanceof vscode.TabInputTextDiff, 'a diff is open');
    const back = shownIn('eu-west-1');
    await vscode.commands.executeCommand('renderLens.pickContext', 0);
    await back;
    const diff = diffTab();
    assert.ok(diff instanceof vscode.TabInputTextDiff, 'still a diff');
    assert.equal(new URLSearchParams(diff.modified.query).get('context'), '0');
    assert.equal(diff.original.toString(), fileUri(migrations).toString());
  });
  // These restart the server, so they come last: right after a restart the fix-on-save test
  // failed on about one run in four (the cause is not pinned down).
  test('Restart Server restarts the server, says so, and the new one answers', async function () {
    this.timeout(60_000);
    // The notification, as the extension shows it: this suite shares the extension's vscode API object.
    const said: string[] = [];
    const window = vscode.window as { showInformationMessage: (...args: unknown[]) => unknown };
    const original = window.showInformationMessage;
    window.showInformationMessage = (...args: unknown[]) => (said.push(String(args[0])), original.apply(vscode.window, args));
    try {
      await vscode.commands.executeCommand('renderLens.restartServer');
    } finally {
      window.showInformationMessage = original;
    }
    assert.deepEqual(said, ['Render Lens: the server restarted.']);
    const { document } = await open(migrations);
    const hover = hoverText(await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', document.uri, positionOf(document, '${region}')));
    assert.match(hover, /eu-west-1/);
  });

  test('a server process that dies is restarted, and diagnostics come back', async function () {
    this.timeout(90_000);
    if (!fs.existsSync('/proc')) return this.skip(); // Finding the server's pid needs Linux's /proc.
    // The client starts the server as `node <node options> dist/server.js --stdio --clientProcessId=<this pid>`.
    const servers = () =>
      fs.readdirSync('/proc').filter((pid) => {
        if (!/^\d+$/.test(pid)) return false;
        try {
          const command = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
          return command.includes(`dist${path.sep}server.js`) && command.includes(`--clientProcessId=${process.pid}`);
        } catch {
          return false;
        }
      });
    const [before] = servers();
    assert.ok(before, 'the language server process was not found');
    // With the heap it is meant to have (server/src/runtime/node-options.ts).
    const options = fs.readFileSync(`/proc/${before}/cmdline`, 'utf8').split('\0');
    for (const option of declaredNodeOptions()) assert.ok(options.includes(option), `the server runs without ${option}: ${options.join(' ')}`);
    process.kill(Number(before), 'SIGKILL');

    const editor = await open(migrations);
    const end = editor.document.lineAt(editor.document.lineCount - 1).range.end;
    assert.ok(await editor.edit((edit) => edit.insert(end, '\n  004-restart.sql: DO $$ SELECT 1; END $$;\n')));
    const added = editor.document.lineCount - 2;
    await diagnosticsWhen(editor.document.uri, (d) => d.some((x) => codeOf(x) === 'DOLLAR-COLLAPSE' && x.range.start.line === added), 'on the added line, from a restarted server');
    const [restarted] = servers();
    assert.ok(restarted && restarted !== before, 'a new server process runs');
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });
});
