/**
 * The parts of Fleet's fleet.yaml types (rancher/fleet `pkg/apis/fleet.cattle.io/v1alpha1`)
 * that people write, as data: field names, Go types and which fields are promoted from an
 * embedded struct.
 *
 * fleet.yaml is read with sigs.k8s.io/yaml into `FleetYAML`: YAML 1.1 typing (go-yaml v2),
 * then encoding/json. Two details of that path decide what fails:
 * - sigs turns a number or bool into a string only for a string field reached through
 *   *direct* fields. A field promoted from an embedded struct (everything fleet.yaml inherits
 *   from `BundleSpec` and `BundleDeploymentOptions`: `helm`, `diff`, `targets`, …) sends the
 *   conversion to the embedded struct instead, so below it nothing is converted and
 *   `helm.version: 1.10` fails to decode.
 * - encoding/json matches keys case-insensitively and ignores unknown keys.
 *
 * Fields Fleet may have added later are unknown here; unknown keys are reported as
 * warnings, never as errors, for that reason.
 */

export type FleetType =
  | { kind: 'string' }
  | { kind: 'bool' }
  | { kind: 'int'; go: 'int' | 'int64' }
  /** intstr.IntOrString: a JSON unmarshaler taking a string or an integer. */
  | { kind: 'intOrString' }
  /** metav1.Duration: a JSON unmarshaler taking a Go duration string. */
  | { kind: 'duration' }
  /** GenericMap (`helm.values`): any map; its own unmarshaler rejects everything else. */
  | { kind: 'values' }
  /** Fields Fleet fills itself (resources, targetRestrictions): not checked. */
  | { kind: 'any' }
  | { kind: 'list'; item: FleetType }
  | { kind: 'map'; value: FleetType }
  | { kind: 'struct'; name: string; fields: readonly FleetField[] };

export interface FleetField {
  /** The JSON name. */
  name: string;
  type: FleetType;
  /** Reached through an embedded (inline) struct: sigs does not convert below it. */
  promoted?: boolean;
}

export type StructType = Extract<FleetType, { kind: 'struct' }>;

const string: FleetType = { kind: 'string' };
const bool: FleetType = { kind: 'bool' };
const int: FleetType = { kind: 'int', go: 'int' };
const int64: FleetType = { kind: 'int', go: 'int64' };
const intOrString: FleetType = { kind: 'intOrString' };
const any: FleetType = { kind: 'any' };
const list = (item: FleetType): FleetType => ({ kind: 'list', item });
const map = (value: FleetType): FleetType => ({ kind: 'map', value });
const struct = (name: string, fields: Record<string, FleetType>, embedded: readonly StructType[] = []): StructType => {
  const own = Object.entries(fields).map(([n, type]) => ({ name: n, type }));
  // Go's rule: a field of the outer struct wins over a promoted field of the same name.
  const promoted = embedded.flatMap((e) => e.fields.map((f) => ({ ...f, promoted: true }))).filter((f) => !own.some((o) => o.name === f.name));
  return { kind: 'struct', name, fields: [...promoted, ...own] };
};

const labelSelector = struct('v1.LabelSelector', {
  matchLabels: map(string),
  matchExpressions: list(struct('v1.LabelSelectorRequirement', { key: string, operator: string, values: list(string) })),
});

const operation = struct('v1alpha1.Operation', { op: string, path: string, value: string });
const comparePatch = struct('v1alpha1.ComparePatch', {
  kind: string,
  apiVersion: string,
  namespace: string,
  name: string,
  operations: list(operation),
  jsonPointers: list(string),
});

const localObjectReference = struct('v1alpha1.LocalObjectReference', { name: string });
const keySelector = (name: string) => struct(name, { namespace: string, key: string }, [localObjectReference]);

const helmOptions = struct('v1alpha1.HelmOptions', {
  chart: string,
  repo: string,
  releaseName: string,
  version: string,
  timeoutSeconds: int,
  values: { kind: 'values' },
  templateValues: map(string),
  valuesFrom: list(struct('v1alpha1.ValuesFrom', { configMapKeyRef: keySelector('v1alpha1.ConfigMapKeySelector'), secretKeyRef: keySelector('v1alpha1.SecretKeySelector') })),
  force: bool,
  takeOwnership: bool,
  maxHistory: int,
  valuesFiles: list(string),
  waitForJobs: bool,
  atomic: bool,
  disablePreProcess: bool,
  disableDNS: bool,
  skipSchemaValidation: bool,
  disableDependencyUpdate: bool,
});

const bundleDeploymentOptions = struct('v1alpha1.BundleDeploymentOptions', {
  defaultNamespace: string,
  namespace: string,
  kustomize: struct('v1alpha1.KustomizeOptions', { dir: string }),
  helm: helmOptions,
  serviceAccount: string,
  forceSyncGeneration: int64,
  yaml: struct('v1alpha1.YAMLOptions', { overlays: list(string) }),
  diff: struct('v1alpha1.DiffOptions', { comparePatches: list(comparePatch) }),
  keepResources: bool,
  deleteNamespace: bool,
  ignore: struct('v1alpha1.IgnoreOptions', { conditions: list(map(string)) }),
  correctDrift: struct('v1alpha1.CorrectDrift', { enabled: bool, force: bool, keepFailHistory: bool }),
  namespaceLabels: map(string),
  namespaceAnnotations: map(string),
  deleteCRDResources: bool,
  downstreamResources: list(struct('v1alpha1.DownstreamResource', { kind: string, name: string })),
});

const targetFields = {
  name: string,
  clusterName: string,
  clusterSelector: labelSelector,
  clusterGroup: string,
  clusterGroupSelector: labelSelector,
};

const bundleTarget = struct('v1alpha1.BundleTarget', { ...targetFields, doNotDeploy: bool, namespaceLabels: map(string), namespaceAnnotations: map(string) }, [bundleDeploymentOptions]);

const partition = struct('v1alpha1.Partition', { ...targetFields, maxUnavailable: intOrString });

const bundleSpec = struct(
  'v1alpha1.BundleSpec',
  {
    paused: bool,
    rolloutStrategy: struct('v1alpha1.RolloutStrategy', {
      maxUnavailable: intOrString,
      maxUnavailablePartitions: intOrString,
      autoPartitionSize: intOrString,
      partitions: list(partition),
    }),
    resources: any,
    targets: list(bundleTarget),
    targetRestrictions: any,
    targetCustomizationMode: string,
    dependsOn: list(struct('v1alpha1.BundleRef', { name: string, selector: labelSelector, acceptedStates: list(string) })),
    contentsId: string,
    valuesHash: string,
  },
  [bundleDeploymentOptions],
);

const imageScanSpec = struct('v1alpha1.ImageScanSpec', {
  tagName: string,
  gitrepoName: string,
  image: string,
  interval: { kind: 'duration' },
  secretRef: struct('v1.LocalObjectReference', { name: string }),
  suspend: bool,
  policy: struct('v1alpha1.ImagePolicyChoice', {
    semver: struct('v1alpha1.SemVerPolicy', { range: string }),
    alphabetical: struct('v1alpha1.AlphabeticalPolicy', { order: string }),
  }),
});

/** The root of fleet.yaml. */
export const fleetYaml = struct(
  'v1alpha1.FleetYAML',
  {
    name: string,
    labels: map(string),
    targetCustomizations: list(bundleTarget),
    imageScans: list(struct('v1alpha1.ImageScanYAML', { name: string }, [imageScanSpec])),
    overrideTargets: list(struct('v1alpha1.GitTarget', targetFields)),
  },
  [bundleSpec],
);

/**
 * Keys people put in the wrong place, with where they belong. `targetNamespace` is the Go
 * field's name; its JSON name is `namespace`.
 */
export const misplacedKeys: Readonly<Record<string, { suggest: string; rename: boolean }>> = {
  targetNamespace: { suggest: 'namespace', rename: true },
  values: { suggest: 'helm.values', rename: false },
  valuesFiles: { suggest: 'helm.valuesFiles', rename: false },
  chart: { suggest: 'helm.chart', rename: false },
  releaseName: { suggest: 'helm.releaseName', rename: false },
  comparePatches: { suggest: 'diff.comparePatches', rename: false },
};

/** A field of a struct as encoding/json finds it: the exact name first, then ignoring case. */
export function findField(type: StructType, key: string): FleetField | undefined {
  return type.fields.find((f) => f.name === key) ?? type.fields.find((f) => f.name.toLowerCase() === key.toLowerCase());
}

/** The Go type as encoding/json prints it in an UnmarshalTypeError. */
export function goTypeName(type: FleetType): string {
  switch (type.kind) {
    case 'string':
    case 'bool':
      return type.kind;
    case 'int':
      return type.go;
    case 'intOrString':
      return 'intstr.IntOrString';
    case 'duration':
      return 'v1.Duration';
    case 'values':
      return 'map[string]interface {}';
    case 'any':
      return 'interface {}';
    case 'list':
      return `[]${goTypeName(type.item)}`;
    case 'map':
      return `map[string]${goTypeName(type.value)}`;
    case 'struct':
      return type.name;
  }
}
