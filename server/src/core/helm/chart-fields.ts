/**
 * `.Chart.<field>` of the chart a template belongs to, as output classes: Chart.yaml decides
 * what `{{ .Chart.AppVersion }}` prints, so `appVersion: "v0.11.0"` renders a string and
 * `appVersion: 1.10` renders `1.1`, which YAML reads back as a number.
 */
import type { RuleContext } from '../rules/rule';
import { chartDirOf, chartMetadataOf } from './chart';
import type { OutputClass } from './output-class';
import type { GoStruct } from './values';

export function chartFieldClasses(context: Pick<RuleContext, 'file' | 'derived'>): (field: string) => OutputClass | undefined {
  let metadata: GoStruct | undefined | null = null;
  return (field) => {
    if (metadata === null) metadata = chartOf(context);
    const printed = metadata?.fields.get(field);
    return typeof printed === 'string' ? { kind: 'literal', text: printed } : undefined;
  };
}

function chartOf(context: Pick<RuleContext, 'file' | 'derived'>): GoStruct | undefined {
  const metadata = (path: string) => context.derived(path, 'helm-chart-metadata', chartMetadataOf);
  const dir = chartDirOf(context.file, { text: (path) => (metadata(path) ? '' : undefined) });
  return dir === undefined ? undefined : metadata(dir === '' ? 'Chart.yaml' : `${dir}/Chart.yaml`);
}
