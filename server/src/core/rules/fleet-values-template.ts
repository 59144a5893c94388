import { fleetDocuments } from '../fleet/options';
import { closest } from '../fleet/suggest';
import { contextFields, readTemplate, valuesTemplates, type ContextRead, type ShellVariable, type TemplateReading } from '../fleet/values-template';
import type { PathSegment } from '../gotemplate/ast';
import { fleetDialect, helmDialect } from '../gotemplate/dialect';
import { fleetRemovedFunctions } from '../gotemplate/functions';
import type { Range } from '../model';
import type { Rule } from './rule';

/**
 * FLEET-VALUES-TEMPLATE: Fleet's `${ }` templating of `helm.values` would fail.
 *
 * Fleet renders the values of every cluster as one Go template with `missingkey=error`, so a
 * template that does not parse, a context field that does not exist or a function Fleet
 * removed fails the bundle for every cluster, long after the commit.
 */
export const fleetValuesTemplate: Rule = {
  id: 'FLEET-VALUES-TEMPLATE',
  severity: 'error',
  summary: 'Fleet `${ }` values templating that does not parse, reads a missing context field or calls a removed function.',
  docs: `# FLEET-VALUES-TEMPLATE

## What it does
Parses \`helm.values\` of fleet.yaml (top level, \`targets[i]\`, \`targetCustomizations[i]\`) and
of HelmOp resources the way Fleet does — as one Go text/template with \`\${\` \`}\` delimiters —
and each \`helm.templateValues\` entry on its own. It reports:
- a template that does not parse, with Go's message (\`unexpected EOF\`, \`unclosed action\`, …);
- a field that is not in Fleet's context: only \`.ClusterName\`, \`.ClusterNamespace\`,
  \`.ClusterLabels\`, \`.ClusterAnnotations\` and \`.ClusterValues\` exist (no \`.Values\`, \`.Release\`);
- a field read from a string (\`.ClusterName.x\`, \`.ClusterLabels.env.x\`);
- \`env\`, \`expandenv\`, \`include\`, \`tpl\` and \`getHostByName\`, which Fleet removes from the
  sprig functions, and any other function that does not exist.
- a shell or Flux variable such as \`\${HOME}\`, \`\${NAME:-default}\` or a Grafana \`\${instance}\`,
  which Fleet reads as a call of an undefined function.

Values are not checked where \`helm.disablePreProcess: true\` turns templating off. Hover over a
\`\${ … }\` to see what each lookup reads.

## Why is this bad?
Fleet templates values per cluster, in the controller, with \`missingkey=error\`: a parse error,
an unknown field or a removed function fails every BundleDeployment of the bundle with
\`failed to parse helm values template\` or \`failed to render helm values template\`, and
nothing in \`fleet apply\` or a Helm lint warns before that. Note that Fleet skips templating
for a cluster without exportable labels, so a broken template can even seem to work at first.

## Example
\`\`\`yaml
helm:
  values:
    region: \${ .ClusterLabels.region }
    host: \${ env "HOSTNAME" }
    replicas: \${ if eq .ClusterName "prod" }3\${ else }1
\`\`\`

## Fix
Use the five context fields (a cluster's own values live in \`.ClusterValues\`, from the
Cluster's \`spec.templateValues\`), close every \`if\`/\`range\`/\`with\` with \`\${ end }\`, and drop
the removed functions. To pass a literal \`\${HOME}\` through, write \`\`\${ \`\${\` }HOME}\`\` (the
quick fix does), or turn templating off with \`helm.disablePreProcess: true\`. A label some
clusters lack fails the render for those clusters: write
\`\${ get .ClusterLabels "region" }\` or \`\${ index .ClusterLabels "region" }\` to get "" instead.
`,
  *check(context) {
    for (const doc of fleetDocuments(context.file, context.documents())) {
      for (const source of valuesTemplates(doc)) {
        for (const problem of valuesTemplateProblems(readTemplate(source))) {
          const fixes = problem.fix ? [{ title: problem.fix.title, edits: [{ range: problem.fix.range, newText: problem.fix.newText }], preferred: true }] : [];
          yield { range: problem.range, message: problem.message, fixes, ...(problem.severity ? { severity: problem.severity } : {}) };
        }
      }
    }
  },
};

export interface TemplateProblem {
  range: Range;
  message: string;
  /** Lower than the rule's error: `information` for what Render Lens did not check. */
  severity?: 'information';
  fix?: { title: string; range: Range; newText: string };
}

/** What fails in a values template, in the order Fleet meets it; the hover shows the same. */
export function valuesTemplateProblems(reading: TemplateReading): TemplateProblem[] {
  const { source, tree, toSource } = reading;
  const problems = reading.shellVariables.map((variable) => variableProblem(reading, variable));
  for (const call of tree.unknownFunctions) {
    const range = toSource(call.pos, call.end);
    if ((fleetRemovedFunctions as readonly string[]).includes(call.name)) {
      const removed = fleetRemovedFunctions;
      problems.push({
        range,
        message: `\`${call.name}\` is not available in Fleet's values templates: Fleet removes ${removed.slice(0, -1).join(', ')} and ${removed[removed.length - 1]} from the functions, so ${source.where} fails to parse (function "${call.name}" not defined).`,
      });
    } else if (helmDialect.hasFunction(call.name)) {
      problems.push({ range, message: `\`${call.name}\` is a Helm function: Fleet's values templates have Go's and sprig's functions only, so ${source.where} fails to parse (function "${call.name}" not defined).` });
    } else {
      problems.push({ range, message: `Fleet cannot parse ${source.where} as a template: function "${call.name}" not defined.` });
    }
  }
  if (tree.stop?.limit) {
    problems.push({ range: toSource(tree.stop.pos, tree.stop.end), message: `Not checked: ${tree.stop.message}.`, severity: 'information' });
  } else if (tree.stop) {
    const { message, pos, end, unclosed } = tree.stop;
    const hint = unclosed ? ` (this \`${unclosed}\` has no \`\${ end }\`)` : '';
    problems.push({ range: toSource(pos, end), message: `Fleet cannot parse ${source.where} as a template (${fleetDialect.leftDelim} ${fleetDialect.rightDelim} delimiters): ${message}${hint}.` });
  }
  for (const read of reading.reads) {
    const problem = readProblem(read, toSource);
    if (problem) problems.push(problem);
  }
  return problems;
}

/** A field the context lacks, or a field read from a string: every render fails with missingkey=error. */
function readProblem({ segments, dot }: ContextRead, toSource: TemplateReading['toSource']): TemplateProblem | undefined {
  let stringFrom: number;
  if (dot === 'root') {
    const [first] = segments;
    if (!(contextFields as readonly string[]).includes(first.name)) return unknownField(first, toSource(first.start, first.end));
    stringFrom = first.name === 'ClusterValues' ? Infinity : first.name === 'ClusterName' || first.name === 'ClusterNamespace' ? 1 : 2;
  } else stringFrom = dot === 'string' ? 0 : 1;
  const bad = segments[stringFrom];
  if (!bad) return undefined;
  return {
    range: toSource(bad.start - 1, bad.end),
    message: `${stringFrom === 0 ? 'The dot' : `\`.${segments.slice(0, stringFrom).map((s) => s.name).join('.')}\``} is a string: \`.${bad.name}\` fails to render with "can't evaluate field ${bad.name} in type string".`,
  };
}

/**
 * `${HOME}` or `${name:-x}`: a shell or Flux variable, which Fleet reads as a call of the
 * function `HOME`. `${ `${` }` writes a literal `${` (a raw string needs no escaping in any
 * YAML style); `${ClusterName}` only lacks its dot.
 */
function variableProblem({ source, toSource }: TemplateReading, { name, written, span }: ShellVariable): TemplateProblem {
  const field = contextFields.find((f) => f.toLowerCase() === name.toLowerCase());
  const nameRange = toSource(span[0] + 2, span[0] + 2 + name.length);
  if (field && written === `\${${name}}`) {
    return {
      range: toSource(span[0], span[1]),
      message: `Fleet fails to parse ${source.where}: \`${written}\` calls a function "${name}", which is not defined. Template fields start with a dot: \`\${ .${field} }\`.`,
      fix: { title: `Change to \`.${field}\``, range: nameRange, newText: `.${field}` },
    };
  }
  const delim = toSource(span[0], span[0] + 2);
  const fix = delim.end - delim.start === 2 ? { title: `Keep \`${written}\` as text`, range: delim, newText: '${ `${` }' } : undefined;
  return {
    range: toSource(span[0], span[1]),
    message: `\`${written}\` looks like a shell or Flux variable, but Fleet templates ${source.where} with \`\${ }\` delimiters and fails to parse it (function "${name}" not defined). Write "\${ \`\${\` }${written.slice(2)}" to keep it as text, or set helm.disablePreProcess: true.`,
    ...(fix ? { fix } : {}),
  };
}

function unknownField(segment: PathSegment, range: Range): TemplateProblem {
  const helm = segment.name === 'Values' || segment.name === 'Release' || segment.name === 'Chart' || segment.name === 'Capabilities';
  const suggestion = segment.name === 'Values' ? undefined : closest(segment.name, contextFields);
  const fields = contextFields.map((f) => `.${f}`).join(', ');
  let message = `\`.${segment.name}\` is not in Fleet's template context (${fields}): with missingkey=error every render fails (map has no entry for key "${segment.name}").`;
  if (helm) message += ` This is Fleet's values template, not a Helm template${segment.name === 'Values' ? '; a cluster\'s own values are `.ClusterValues`' : ''}.`;
  else if (suggestion) message += ` Did you mean \`.${suggestion}\`?`;
  const exact = range.end - range.start === segment.name.length;
  const fix = suggestion && exact ? { title: `Change to \`.${suggestion}\``, range, newText: suggestion } : undefined;
  return { range, message, ...(fix ? { fix } : {}) };
}
