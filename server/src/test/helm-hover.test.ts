/** Hover on chart template actions, the static evaluator behind it, and values.yaml navigation. */
import * as assert from 'assert/strict';
import { Engine } from '../core/engine';
import { loadChart } from '../core/helm/chart';
import { executeTemplate } from '../core/helm/execute';
import { helmHoverAt } from '../core/helm/hover';
import { valuesDefinition, valuesReferences } from '../core/helm/values-navigation';
import { MemoryHost } from '../core/host';

const chart = 'charts/backup';
const cronjob = `${chart}/templates/cronjob.yaml`;

const files: Record<string, string> = {
  [`${chart}/Chart.yaml`]: 'apiVersion: v2\nname: backup\nversion: 0.1.0\nappVersion: 1.10\n',
  [`${chart}/values.yaml`]: [
    'cron:',
    '  enabled: false',
    '  schedule: "*/5 * * * *"',
    'ttlSeconds: 2592000',
    'compress: "true"',
    'nameOverride: ""',
    'db:',
    '  host: db.internal',
    'hosts: [a, b]',
    'level: " Debug "',
    '',
  ].join('\n'),
  [`${chart}/templates/_helpers.tpl`]: [
    '{{- define "backup.name" -}}',
    '{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}',
    '{{- end }}',
    '',
  ].join('\n'),
  [cronjob]: `{{- if .Values.cron.enabled }}
apiVersion: batch/v1
kind: CronJob
metadata:
  name: {{ include "backup.name" . }}
  labels:
    app.kubernetes.io/version: {{ .Chart.AppVersion }}
spec:
  schedule: {{ .Values.cron.schedule }}
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers:
            - name: backup
              image: busybox
              env:
                - name: COMPRESS
                  value: {{ .Values.compress }}
                - name: TTL
                  value: {{ .Values.ttlSeconds }}
                - name: TTL_DIGITS
                  value: {{ .Values.ttlSeconds | int | quote }}
                - name: RELEASE
                  value: {{ .Release.Name | quote }}
{{- end }}
`,
  [`${chart}/templates/configmap.yaml`]: `apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ include "backup.name" . }}-config
data:
  {{- with .Values.db }}
  host: {{ .host | upper | quote }}
  {{- end }}
  {{- range .Values.hosts }}
  peer-{{ . }}: {{ printf "%s:5432" . | quote }}
  {{- end }}
  level: {{ .Values.level | trim | lower }}
  missing: {{ .Values.nothing | quote }}
  port: {{ .Values.db.port | default 5432 }}
`,
};

function hoverOn(all: Record<string, string>, file: string, needle: string): string {
  const engine = new Engine(new MemoryHost(all));
  const at = all[file].indexOf(needle);
  assert.ok(at >= 0, `${needle} not found in ${file}`);
  const hover = helmHoverAt(engine, file, at + 3);
  assert.ok(hover, `no hover on ${needle}`);
  assert.ok(all[file].slice(hover.range.start, hover.range.end).startsWith(needle));
  return hover.markdown;
}

/** Renders one template of a small chart with the given values. */
function render(values: string, template: string, helpers = ''): ReturnType<typeof executeTemplate> {
  const chartFiles: Record<string, string> = { 'c/Chart.yaml': 'name: c\nversion: 1.0.0\n', 'c/values.yaml': values, 'c/templates/t.yaml': template, 'c/templates/_helpers.tpl': helpers };
  const loaded = loadChart('c', { text: (p) => chartFiles[p], list: (dir) => Object.keys(chartFiles).filter((f) => f.startsWith(`${dir}/`)) });
  return executeTemplate(loaded, 'c/templates/t.yaml');
}

suite('helm hover', () => {
  test('a schedule behind a disabled `if`: evaluated anyway, with the error Helm prints', () => {
    const markdown = hoverOn(files, cronjob, '{{ .Values.cron.schedule }}');
    assert.match(markdown, /Not rendered with the chart's values: `\{\{- if \.Values\.cron\.enabled \}\}` is false\./);
    assert.match(markdown, /- `\.Values\.cron\.schedule`: the string "\*\/5 \* \* \* \*" \(\[charts\/backup\/values\.yaml:3\]\(charts\/backup\/values\.yaml#L3\)\)/);
    assert.match(markdown, /Renders `\*\/5 \* \* \* \*`\./);
    assert.match(markdown, /```yaml\n {2}schedule: \*\/5 \* \* \* \*\n```/);
    assert.match(markdown, /Helm fails here — `YAML parse error on backup\/templates\/cronjob\.yaml: error converting YAML to JSON: yaml: line 8: did not find expected alphabetic or numeric character`/);
  });

  test('with the renderLens.helm.valuesFiles setting, each extra values file is shown on top of values.yaml', () => {
    const all: Record<string, string> = { ...files, [`${chart}/ci/prod-values.yaml`]: 'compress: "yes please"\ncron:\n  schedule: "0 3 * * *"\n', [`${chart}/ci/notes.txt`]: 'not values' };
    const engine = new Engine(new MemoryHost(all), { helmValuesFiles: ['ci/*.yaml'] });
    const text = all[cronjob];
    const hover = helmHoverAt(engine, cronjob, text.indexOf('{{ .Values.compress }}') + 3);
    assert.ok(hover);
    const [withDefaults, withProd] = hover.markdown.split('\n---\n');
    assert.match(withDefaults, /value: true\n```/);
    assert.match(withProd, /^\n\*\*With `charts\/backup\/ci\/prod-values\.yaml`\*\* \(on top of values\.yaml\):/);
    assert.match(withProd, /value: yes please\n```/);
    // Maps merge: the file overrides cron.schedule and keeps values.yaml's other keys.
    const schedule = helmHoverAt(engine, cronjob, text.indexOf('{{ .Values.cron.schedule }}') + 3);
    assert.match(schedule?.markdown.split('\n---\n')[1] ?? '', /schedule: 0 3 \* \* \*\n```/);
    assert.equal(new Engine(new MemoryHost(all)).helmValuesFiles(chart).length, 0, 'no setting, no extra files');
  });

  test('the string "true" rendered bare is the bool true, in a field that must be a string', () => {
    const markdown = hoverOn(files, cronjob, '{{ .Values.compress }}');
    assert.match(markdown, /`\.Values\.compress`: the string "true"/);
    assert.match(markdown, /value: true\n```/);
    assert.match(markdown, /YAML: the bool `true`\. `spec\.jobTemplate\.spec\.template\.spec\.containers\[\]\.env\[\]\.value` must be a string/);
    assert.match(markdown, /The manifest fails elsewhere: `YAML parse error on backup\/templates\/cronjob\.yaml/);
  });

  test('numbers from values files are float64: 2592000 prints as 2.592e+06; `int` prints digits', () => {
    assert.match(hoverOn(files, cronjob, '{{ .Values.ttlSeconds }}'), /Renders `2\.592e\+06`\.[\s\S]*float64 in Helm/);
    assert.match(hoverOn(files, cronjob, '{{ .Values.ttlSeconds | int'), /Renders `"2592000"`\./);
  });

  test('named templates from _helpers.tpl and Chart.yaml metadata are evaluated', () => {
    assert.match(hoverOn(files, cronjob, '{{ include "backup.name" . }}'), /Renders `backup`\./);
    // sigs.k8s.io/yaml turns `appVersion: 1.10` into the string "1.1", and bare it is a number.
    const version = hoverOn(files, cronjob, '{{ .Chart.AppVersion }}');
    assert.match(version, /Renders `1\.1`\./);
    assert.match(version, /YAML: the number `1\.1`\./);
  });

  test('says what it cannot evaluate instead of guessing', () => {
    assert.match(hoverOn(files, cronjob, '{{ .Release.Name | quote }}'), /Cannot be evaluated statically: the release name is chosen at install\./);
  });

  test('a condition shows its value', () => {
    assert.match(hoverOn(files, cronjob, '{{- if .Values.cron.enabled }}'), /Evaluates to the bool false, which does not hold: this branch is not rendered\./);
  });

  test('`with` and `range` rebind the dot; string functions apply', () => {
    const configmap = `${chart}/templates/configmap.yaml`;
    assert.match(hoverOn(files, configmap, '{{ .host | upper | quote }}'), /Renders `"DB\.INTERNAL"`\./);
    assert.match(hoverOn(files, configmap, '{{ printf "%s:5432" . | quote }}'), /Renders `"a:5432"` \(rendered 2 times; the first is shown\)\./);
    assert.match(hoverOn(files, configmap, '{{ .Values.level | trim | lower }}'), /Renders `debug`\.[\s\S]*YAML: the string `"debug"`\./);
    assert.match(hoverOn(files, configmap, '{{ .Values.nothing | quote }}'), /Renders nothing[\s\S]*YAML: null\./);
    assert.match(hoverOn(files, configmap, '{{ .Values.db.port | default 5432 }}'), /Renders `5432`\./);
  });
});

suite('helm hover: which values entry decides a string field', () => {
  const service = 'shop/templates/service.yaml';
  const shop: Record<string, string> = {
    'shop/Chart.yaml': 'apiVersion: v2\nname: shop\nversion: 0.1.0\n',
    'shop/values.yaml': 'service:\n  portName: 8080\n  name: http\n',
    [service]: [
      'apiVersion: v1',
      'kind: Service',
      'metadata:',
      '  name: shop',
      'spec:',
      '  ports:',
      '    - name: {{ .Values.service.portName }}',
      '    - name: {{ .Values.service.name }}',
      '    - name: {{ .Values.service.adminName }}',
      '',
    ].join('\n'),
  };

  test('a number in values.yaml: the hover names the entry that re-types the field', () => {
    assert.match(hoverOn(shop, service, '{{ .Values.service.portName }}'), /\*\*Values:\*\* `\.Values\.service\.portName` \(\[shop\/values\.yaml:2\]\(shop\/values\.yaml#L2\)\) is `8080`: it renders `8080`, which YAML reads as a number; `spec\.ports\[\]\.name` must be a string \(HELM-UNQUOTED-STRING\)\./);
  });

  test('a string that stays a string: the hover says what an override would do', () => {
    assert.match(hoverOn(shop, service, '{{ .Values.service.name }}'), /\*\*Values:\*\* `\.Values\.service\.name` \(\[shop\/values\.yaml:3\]\(shop\/values\.yaml#L3\)\) keeps `spec\.ports\[\]\.name` a string; rendered bare, an override such as `8080` or `true` would arrive as a number or a bool/);
  });

  test('a ci/ values file is a world of its own: editing it re-checks the templates of the chart', () => {
    const engine = new Engine(new MemoryHost({ ...shop, 'shop/ci/names-values.yaml': 'service:\n  name: web\n' }));
    const errors = () => engine.analyzeFile(service).findings.filter((f) => f.rule === 'HELM-UNQUOTED-STRING').map((f) => f.message.replace(/ must be a string, but (`[^`]+` is `[^`]+` \([^)]+\)).*/, ': $1'));
    assert.deepEqual(errors(), ['spec.ports[].name: `.Values.service.portName` is `8080` (shop/values.yaml:2)']);
    assert.equal(engine.update('shop/ci/names-values.yaml', 'service:\n  name: 443\n'), true, 'every template of the chart is checked again');
    assert.deepEqual(errors(), ['spec.ports[].name: `.Values.service.portName` is `8080` (shop/values.yaml:2)', 'spec.ports[].name: `.Values.service.name` is `443` (shop/ci/names-values.yaml:2)']);
  });

  test('a value no values file sets: the hover says the chart does not show it', () => {
    assert.match(hoverOn(shop, service, '{{ .Values.service.adminName }}'), /\*\*Values:\*\* no values file of the chart shows what `\{\{ \.Values\.service\.adminName \}\}` prints \(not set in the chart's values\)/);
  });
});

suite('helm dependency charts', () => {
  const app = (dependency: string): Record<string, string> => ({
    'bitnami/app/Chart.yaml': `apiVersion: v2\nname: app\nversion: 1.0.0\ndependencies:\n${dependency}`,
    'bitnami/app/values.yaml': 'port: 8080\n',
    'bitnami/app/templates/service.yaml': 'metadata:\n  name: {{ include "common.names.fullname" . }}\n',
  });
  const common = {
    'bitnami/common/Chart.yaml': 'apiVersion: v2\nname: common\ntype: library\nversion: 2.0.0\n',
    'bitnami/common/templates/_names.tpl': '{{- define "common.names.fullname" -}}\n{{- printf "%s-svc" .Chart.Name -}}\n{{- end -}}\n',
  };

  test('`include` reaches a library chart found beside the chart, and through a file:// repository', () => {
    const sibling = { ...app('  - name: common\n    repository: oci://registry.example.com/charts\n    version: 2.x.x\n'), ...common };
    assert.match(hoverOn(sibling, 'bitnami/app/templates/service.yaml', '{{ include "common.names.fullname" . }}'), /Renders `app-svc`\./);
    const moved = Object.fromEntries(Object.entries(common).map(([f, t]) => [f.replace('bitnami/common', 'libs/common'), t]));
    const linked = { ...app('  - name: common\n    repository: file://../../libs/common\n    version: 2.x.x\n'), ...moved };
    assert.match(hoverOn(linked, 'bitnami/app/templates/service.yaml', '{{ include "common.names.fullname" . }}'), /Renders `app-svc`\./);
  });

  test('a dependency that is not in the repository is named plainly, not reported as a Helm failure', () => {
    const alone = app('  - name: common\n    repository: oci://registry.example.com/charts\n    version: 2.x.x\n');
    const hover = hoverOn(alone, 'bitnami/app/templates/service.yaml', '{{ include "common.names.fullname" . }}');
    assert.match(hover, /not defined in this chart, so it may come from the dependency chart `common`, which is not in this repository/);
    assert.doesNotMatch(hover, /Helm fails|no template/);
  });
});

suite('helm evaluation', () => {
  test('`required` fails as Helm words it, at the command', () => {
    const rendered = render('a: ""\n', 'x: {{ required "a is required" .Values.a }}\n');
    assert.equal(rendered.failure?.message, 'execution error at (c/templates/t.yaml:1:6): a is required');
  });

  test('a field of a missing value is a nil pointer error', () => {
    const rendered = render('{}\n', 'x: {{ .Values.a.b }}\n');
    assert.equal(rendered.failure?.message, 'template: c/templates/t.yaml:1:6: executing "c/templates/t.yaml" at <.Values.a.b>: nil pointer evaluating interface {}.b');
  });

  test('a missing named template fails the call to `include`', () => {
    const rendered = render('{}\n', 'x: {{ include "nope" . }}\n');
    assert.equal(rendered.failure?.message, 'template: c/templates/t.yaml:1:6: executing "c/templates/t.yaml" at <include "nope" .>: error calling include: template: no template "nope" associated with template "gotpl"');
  });

  test('comparing a float64 value with an int constant is an error, as in Go', () => {
    const rendered = render('port: 80\n', '{{ if eq .Values.port 80 }}x{{ end }}\n');
    assert.match(rendered.failure?.message ?? '', /error calling eq: incompatible types for comparison$/);
  });

  test('sprig semantics: quote, squote, default, toString, toYaml', () => {
    const rendered = render(
      'num: 1.5\nflag: false\nname: "it\'s"\nmap: {b: "yes", a: 1}\n',
      'a: {{ quote .Values.name }}\nb: {{ squote .Values.name }}\nc: {{ default true .Values.flag }}\nd: {{ toString .Values.missing }}\ne: {{- toYaml .Values.map | nindent 2 }}\nf: {{ .Values.num | int }}\n',
    );
    assert.equal(rendered.failure, undefined);
    assert.equal(rendered.text, 'a: "it\'s"\nb: \'it\'s\'\nc: true\nd: <nil>\ne:\n  a: 1\n  b: "yes"\nf: 1\n');
  });

  test('`tpl` and `include` with dict data', () => {
    const rendered = render('greeting: "hello {{ .Values.who }}"\nwho: world\n', 'a: {{ tpl .Values.greeting . }}\nb: {{ include "c.pair" (dict "k" "v") }}\n', '{{- define "c.pair" -}}{{ .k }}={{ .k | upper }}{{- end }}');
    assert.equal(rendered.text, 'a: hello world\nb: v=V\n');
  });

  test('printf complains like Go about a wrong verb', () => {
    assert.equal(render('num: 3\n', '{{ printf "%d-%s" .Values.num }}').text, '%!d(float64=3)-%!s(MISSING)');
  });

  test('a template Helm cannot parse: every action says so, with Go\'s message and the line it names', () => {
    const broken = `${chart}/templates/broken.yaml`;
    const all = { ...files, [broken]: 'a: {{ .Values.level }}\nb: {{ $level }}\n' };
    assert.match(hoverOn(all, broken, '{{ .Values.level }}'), /Helm fails: `parse error at \(backup\/templates\/broken\.yaml:2\): undefined variable "\$level"`/);
    assert.match(hoverOn(all, broken, '{{ $level }}'), /Helm cannot parse this: `undefined variable "\$level"`\./);
  });

  test('values keys are typed by YAML 1.1 too: the key `n` is the bool false, read as "false"', () => {
    assert.equal(render('n: 3\n', 'a: {{ .Values.n }}\nb: {{ index .Values "false" }}\n').text, 'a: \nb: 3\n');
  });
});

suite('helm values navigation', () => {
  const engine = () => new Engine(new MemoryHost(files));

  test('go to definition: from `.Values.cron.schedule` to the key in values.yaml', () => {
    const at = files[cronjob].indexOf('schedule }}');
    const location = valuesDefinition(engine(), cronjob, at + 2);
    assert.ok(location);
    assert.equal(location.file, `${chart}/values.yaml`);
    assert.equal(files[location.file].slice(location.range.start, location.range.end), 'schedule');
    // On `cron`, the parent key.
    const parent = valuesDefinition(engine(), cronjob, files[cronjob].indexOf('cron.schedule') + 1);
    assert.equal(parent && files[parent.file].slice(parent.range.start, parent.range.end), 'cron');
  });

  test('find references: from a key in values.yaml to every template that reads it', () => {
    const values = `${chart}/values.yaml`;
    const refs = valuesReferences(engine(), values, files[values].indexOf('ttlSeconds') + 1);
    assert.deepEqual(
      refs.map((r) => `${r.file}:${files[r.file].slice(r.range.start, r.range.end)}`),
      [`${cronjob}:ttlSeconds`, `${cronjob}:ttlSeconds`],
    );
    const cron = valuesReferences(engine(), values, files[values].indexOf('cron') + 1);
    assert.deepEqual(cron.map((r) => files[r.file].slice(r.range.start, r.range.end)), ['cron', 'cron']);
  });
});
