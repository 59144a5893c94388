/**
 * Hover: what a `${…}` or a run of dollars becomes in each render context, and where each
 * variable's value comes from. It uses the same evaluation as the rules, so a hover and a
 * diagnostic can never disagree. Secret values are never shown.
 */
import { evaluateExpansion, type DollarRun, type Expansion } from './envsubst';
import type { WorkspaceView } from './model/workspace-view';
import type { Hover } from './model';
import { mayComeFrom, variableHome } from './flux/variables';
import { scalarAfterSubstitution } from './render/scalar-after';
import { displayLayerValue, isSecretData, layerLocation, layerSource } from './render/values';
import { codeSpan } from './markdown';
import type { SubstitutedScalar } from './model/documents';
import { fieldName } from './kube/field-types';
import { fitOf, type ArrivingValue } from './kube/field-verdict';
import { fieldAt, withArticle, type FieldInfo, type ObjectType } from './kube/schema-types';
import { contextLabel, type ActiveContext, type DocumentSubstitution } from './substitution';
import { variableKeyHover } from './variable-key-hover';

export function fluxHoverAt(workspace: WorkspaceView, file: string, offset: number): Hover | undefined {
  for (const document of workspace.documentsOf(file, offset)) {
    for (const scalar of document.scalars) {
      const { site } = scalar;
      if (offset < site.range.start || offset > site.range.end) continue;
      const unit = unitAt(scalar, offset);
      if (unit === undefined) {
        // On a quote or block header: the field as a whole.
        if (scalar.scan.expansions.length > 0 && !scalar.comment) return scalarHover(workspace, scalar, document.substitution, document.object);
        continue;
      }
      const expansion = scalar.scan.expansions.find((e) => unit >= e.start && unit < e.end);
      if (expansion) return expansionHover(workspace, scalar, expansion, document.substitution, document.object);
      const run = scalar.scan.runs.covering(unit);
      if (run) return runHover(scalar, run, document.substitution);
      if (scalar.scan.expansions.length > 0 && !scalar.comment) return scalarHover(workspace, scalar, document.substitution, document.object);
    }
  }
  // A key Flux reads as a variable: where it wins and where it loses.
  return variableKeyHover(workspace, file, offset);
}

/** The value unit whose source covers `offset`. */
function unitAt(scalar: SubstitutedScalar, offset: number): number | undefined {
  const { starts, ends } = scalar.site.text;
  for (let i = 0; i < starts.length; i++) if (offset >= starts[i] && offset < Math.max(ends[i], starts[i] + 1)) return i;
  return undefined;
}

function notSubstituted(substitution: DocumentSubstitution): string {
  if (substitution.skipped.length === 0) return 'No Flux Kustomization renders this file, so nothing substitutes it: the text reaches the cluster as written.';
  const reasons = substitution.skipped.map(({ context, reason, at }) => {
    const why =
      reason === 'no-postbuild'
        ? 'has no `postBuild`'
        : reason === 'no-variables'
          ? 'defines no variables and its strategy is not `Always`, so substitution is skipped'
          : `is opted out by the ${reason} \`kustomize.toolkit.fluxcd.io/substitute: disabled\`${at ? ` (${at.file})` : ''}`;
    return `- ${contextLabel(context)} ${why}`;
  });
  return `Not substituted; the text reaches the cluster as written:\n${reasons.join('\n')}`;
}

function expansionHover(workspace: WorkspaceView, scalar: SubstitutedScalar, expansion: Expansion, substitution: DocumentSubstitution, object: ObjectType | undefined): Hover {
  const source = scalar.site.value.slice(expansion.start, expansion.end);
  const range = scalar.site.rangeOf(expansion.start, expansion.end);
  const lines = [`**${codeSpan(source)}** — Flux post-build substitution`, ''];
  const field = fieldOf(workspace, scalar, object);
  if (field) lines.push(fieldLine(scalar, field), '');
  if (expansion.error !== undefined) {
    lines.push(`Flux cannot parse this: \`${expansion.error}\`. Every resource of the Kustomization fails to reconcile.`);
    return { range, markdown: lines.join('\n') };
  }
  if (substitution.active.length === 0) {
    lines.push(notSubstituted(substitution));
    return { range, markdown: lines.join('\n') };
  }
  lines.push('| context | becomes |', '|---|---|');
  for (const active of substitution.active) lines.push(`| ${active.label}${active.strict ? (active.strictAssumed ? ' (strict, assumed)' : ' (strict)') : ''} | ${outcome(expansion, active)} |`);
  const textOf = (file: string) => workspace.index.text(file);
  const salt = workspace.config().redactionSalt;
  for (const name of expansion.names) {
    lines.push('', `**${name}**`);
    for (const active of substitution.active) {
      const variable = active.variable(name);
      if (!variable) {
        lines.push(active.opaque ? `- ${active.label}: in no source Render Lens can read — ${mayComeFrom(active.openBecause)}` : `- ${active.label}: not defined${whereToDefine(active)}`);
        continue;
      }
      const [winner, ...overridden] = variable.layers;
      lines.push(`- ${active.label}: ${displayLayerValue(winner, salt)} from ${layerSource(winner)} — ${layerLocation(winner, textOf, true)}`);
      for (const layer of overridden) lines.push(`  - overrides ${displayLayerValue(layer, salt)} from ${layerSource(layer)} — ${layerLocation(layer, textOf, true)}`);
    }
  }
  return { range, markdown: lines.join('\n') };
}

function outcome(expansion: Expansion, active: ActiveContext): string {
  if (active.opaque && expansion.names.some((name) => active.variable(name) === undefined)) return 'unknown: a source Render Lens cannot read may define it';
  const result = evaluateExpansion(
    expansion,
    (name) => {
      const variable = active.variable(name);
      if (!variable) return undefined;
      return variable.layers[0]?.secret || variable.value === undefined ? '\u2026' : variable.value;
    },
    { strict: active.strict },
  );
  if (result.kind === 'error') return `fails: \`${result.message}\``;
  if (result.kind === 'panic') return `fails: \`panic: ${result.message} [recovered]\``;
  const secret = expansion.names.some((name) => active.variable(name)?.layers[0]?.secret);
  if (secret) return 'a secret value (not shown)';
  return result.text === '' ? '*empty*' : codeSpan(result.text.replace(/\|/g, '\\|'));
}

function whereToDefine(active: ActiveContext): string {
  const source = variableHome(active.context.instance.variables.sources);
  if (source) return ` — define it in ConfigMap ${source.name} (${source.file}), where ${active.context.cluster.name}'s other variables live`;
  const postBuild = active.context.instance.postBuild;
  return postBuild ? ` — define it in postBuild.substitute (${postBuild.file})` : '';
}

/** A scalar holding substitutions: what the whole field becomes per context, its YAML 1.1 type, and whether the field's schema type takes it. */
function scalarHover(workspace: WorkspaceView, scalar: SubstitutedScalar, substitution: DocumentSubstitution, object: ObjectType | undefined): Hover {
  const { site } = scalar;
  const lines = [`**${site.path.map((p) => (typeof p === 'number' ? '[]' : p)).join('.') || 'value'}** after post-build substitution`, ''];
  const field = fieldOf(workspace, scalar, object);
  if (field) lines.push(fieldLine(scalar, field), '');
  if (substitution.active.length === 0) {
    lines.push(notSubstituted(substitution));
    return { range: site.range, markdown: lines.join('\n') };
  }
  lines.push(`| context | value | YAML type |${field ? ' the field |' : ''}`, `|---|---|---|${field ? '---|' : ''}`);
  const none = field ? ' — |' : '';
  for (const active of substitution.active) {
    const names = scalar.scan.expansions.flatMap((e) => e.names);
    // A Secret's own data is secret after substitution whatever the variables hold.
    const secret = isSecretData(object?.kind, site.path) || names.some((name) => active.variable(name)?.layers[0]?.secret);
    const unknown = names.some((name) => { const v = active.variable(name); return v !== undefined && v.value === undefined; });
    if (secret || unknown) {
      lines.push(`| ${active.label} | ${secret ? 'a secret value (not shown)' : 'unknown here'} | — |${none}`);
      continue;
    }
    const after = scalarAfterSubstitution(site.value, site.isKey, (name) => active.variable(name)?.value, active.strict);
    const cell =
      after.kind === 'failed'
        ? `the Kustomization fails (see the diagnostics) | — |${none}`
        : after.kind === 'broken'
          ? `the YAML breaks: \`${after.error}\` | — |${field ? ' rejected |' : ''}`
          : `${after.display === '' ? '*empty*' : codeSpan(after.display.replace(/\|/g, '\\|'))} | ${after.type} |${field ? ` ${verdict(field, after)} |` : ''}`;
    lines.push(`| ${active.label} | ${cell}`);
  }
  return { range: site.range, markdown: lines.join('\n') };
}

/** The schema's type of the scalar's field, when a schema knows it. */
function fieldOf(workspace: WorkspaceView, scalar: SubstitutedScalar, object: ObjectType | undefined): FieldInfo | undefined {
  if (scalar.site.isKey || scalar.comment) return undefined;
  return fieldAt(object ?? {}, scalar.site.path, workspace.workspaceSchemas());
}

/** "`spec.replicas` is an integer (optional, default `1`), from the Kubernetes schema." */
function fieldLine(scalar: SubstitutedScalar, field: FieldInfo): string {
  const presence = field.element ? '' : field.required ? ' (required)' : field.default !== undefined ? ` (optional, default ${codeSpan(field.default)})` : ' (optional)';
  return `${codeSpan(fieldName(scalar.site.path), 200)} is ${withArticle(field.type)}${presence}, from the ${field.source}.`;
}

function verdict(field: FieldInfo, after: ArrivingValue): string {
  if (field.type === 'preserve-unknown') return 'takes anything';
  const fit = fitOf(field, after);
  if (fit === 'fits') return 'accepted';
  if (fit === 'left-out') return field.default !== undefined ? `left out: ${codeSpan(field.default)} applies` : 'left out';
  if (fit === 'emptied') return 'read as empty';
  return 'rejected';
}

function runHover(scalar: SubstitutedScalar, run: DollarRun, substitution: DocumentSubstitution): Hover {
  const range = scalar.site.rangeOf(run.start, run.end);
  const written = '$'.repeat(run.count);
  const live = run.next === 'brace' && run.count % 2 === 1;
  const arrives = '$'.repeat(live ? (run.count - 1) / 2 : Math.ceil(run.count / 2));
  const lines = [`**${codeSpan(written)}** — a run of ${run.count} dollar${run.count === 1 ? '' : 's'}`, ''];
  if (substitution.active.length === 0) lines.push(notSubstituted(substitution));
  else if (live) lines.push(`Arrives as ${arrives ? codeSpan(arrives) : 'nothing'} followed by the substituted expression: the last \`$\` is live.`);
  else lines.push(`Arrives as ${codeSpan(arrives)}${run.next === 'brace' ? ' followed by the literal braces' : ''}: Flux turns each \`$$\` into \`$\`.`);
  return { range, markdown: lines.join('\n') };
}
