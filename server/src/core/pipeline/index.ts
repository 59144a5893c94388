/**
 * What kustomize-controller applies for one resource after Flux post-build substitution, or
 * the exact error it reports and the stage that produced it. The steps and their order are
 * the controller's (facts/flux.md §1-§5):
 *
 *   input         the manifest parses (kustomize build reads it with go-yaml v3)
 *   MarshalJSON   go-yaml v3 decodes it into Go values, json.Marshal writes them
 *   AsYAML        sigs.k8s.io/yaml JSONToYAML: go-yaml v2 decodes the JSON and re-emits it;
 *                 this text ("serialized") is what envsubst runs on
 *   skip          the substitute: disabled label or annotation, or no variables without
 *                 substituteStrategy Always: the resource is applied unchanged
 *   varname       every variable name must be valid
 *   envsubst      Flux envsubst with the variables ("\n" removed from every value)
 *   YAMLToJSON    go-yaml v2 (YAML 1.1) parses the substituted text
 *   UnmarshalJSON kyaml rebuilds the resource from that JSON
 */
import { envsubst } from '../envsubst';
import { decodeYamlV2 } from '../goyaml/v2/decode';
import { isValidUtf8 } from '../goyaml/v2/go-utf8';
import { marshalYamlV2 } from '../goyaml/v2/marshal';
import { goYamlReaderError } from '../goyaml/v2/reader';
import { yamlToJson } from '../goyaml/v2/yaml-to-json';
import { kyamlUnmarshalJson } from '../goyaml/kyaml/unmarshal-json';
import { readResource } from './source/read-resource';
import { invalidVarNameError, stripNewlines } from './variables';

export interface SubstituteRequest {
  /** One manifest document, as written. */
  source: string;
  /** The merged variables, before the controller removes "\n" from the values. */
  vars: Record<string, string>;
  /** Strict mode: an undefined variable outside a default operator is an error. */
  strict: boolean;
  /** `spec.postBuild.substituteStrategy: Always`: substitute even with no variables. */
  always: boolean;
  /** A preview's placeholders for secret values: see EnvsubstOptions.redacted. */
  redacted?: (name: string) => boolean;
}

export type PipelineStage = 'input' | 'MarshalJSON' | 'AsYAML' | 'varname' | 'envsubst' | 'YAMLToJSON' | 'UnmarshalJSON';

export type SubstituteOutcome =
  | {
      kind: 'applied';
      /** The text envsubst ran on (go-yaml v2 output: comments gone, keys sorted, quoting redone). */
      serialized: string;
      /** envsubst's output. Bytes that are not UTF-8 show as U+FFFD. */
      substituted: string;
      /** sigs.k8s.io/yaml.YAMLToJSON of the substituted text. Integers keep every digit. */
      json: string;
      /** The object applied to the cluster, as JSON (numbers went through float64). */
      final: string;
      gvk: string;
      name: string;
    }
  | {
      kind: 'skipped';
      reason: 'label' | 'annotation' | 'novars';
      serialized: string;
      /** The resource is applied unchanged: the JSON of the manifest as kyaml decoded it. */
      final: string;
      gvk: string;
      name: string;
    }
  | {
      kind: 'failed';
      stage: PipelineStage;
      /** The error as the controller's post-build step returns it. */
      error: string;
      /**
       * The reconcile error the user sees: `post build failed for '<gvk>/<name>': <error>`,
       * or `panic: <message> [recovered]`. For the input stage the controller never runs
       * post-build (kustomize build fails first), so this repeats `error`.
       */
      controllerError: string;
      /** A runtime panic inside envsubst, as Go words it (stage is then `envsubst`). */
      panic?: string;
      serialized?: string;
      /** envsubst's output, when the failure came after it. */
      substituted?: string;
      /** YAMLToJSON's output, when the failure came after it. */
      json?: string;
      gvk?: string;
      name?: string;
    };

type FailedOutcome = Extract<SubstituteOutcome, { kind: 'failed' }>;

/** What a failure carries from the stages that ran before it. */
type Progress = Partial<Pick<FailedOutcome, 'serialized' | 'substituted' | 'json'>>;

export function substituteResource(request: SubstituteRequest): SubstituteOutcome {
  const read = readResource(request.source);
  if (!read.ok && read.stage === 'input') {
    return { kind: 'failed', stage: 'input', error: read.error, controllerError: read.error };
  }
  const { gvk, name } = read.identity;
  const fail = (stage: PipelineStage, error: string, progress: Progress = {}): FailedOutcome => ({
    kind: 'failed',
    stage,
    error,
    controllerError: `post build failed for '${gvk}/${name}': ${error}`,
    gvk,
    name,
    ...progress,
  });
  if (!read.ok) return fail('MarshalJSON', read.error);

  // AsYAML: JSONToYAML decodes the JSON with go-yaml v2 and re-emits it with go-yaml v2.
  const reread = decodeYamlV2(read.json);
  if (!reread.ok) return fail('AsYAML', reread.error);
  const serialized = marshalYamlV2(reread.value);

  // The opt-out is checked after AsYAML, so AsYAML errors win over it.
  if (read.optOut) return { kind: 'skipped', reason: read.optOut, serialized, final: read.json, gvk, name };
  const names = Object.keys(request.vars);
  if (names.length === 0 && !request.always) return { kind: 'skipped', reason: 'novars', serialized, final: read.json, gvk, name };

  const badName = invalidVarNameError(names);
  if (badName) return fail('varname', `envsubst error: ${badName}`, { serialized });

  // The controller's mapping: in strict mode a name is defined only if it is a key; otherwise
  // every name is defined, as its value or "".
  const vars = stripNewlines(request.vars);
  const lookup = request.strict ? (varName: string) => vars.get(varName) : (varName: string) => vars.get(varName) ?? '';
  const result = envsubst(serialized, lookup, { strict: request.strict, redacted: request.redacted });
  if (result.kind === 'panic') {
    const controllerError = `panic: ${result.message} [recovered]`;
    return { kind: 'failed', stage: 'envsubst', error: controllerError, controllerError, panic: result.message, serialized, gvk, name };
  }
  if (result.kind === 'error') return fail('envsubst', `envsubst error: variable substitution failed: ${result.message}`, { serialized });
  const substituted = result.text;

  // YAMLToJSON reads bytes; go-yaml's reader rejects bytes that are not UTF-8 before parsing.
  const readerError = isValidUtf8(result.bytes) ? undefined : goYamlReaderError(result.bytes);
  const converted = readerError ? { ok: false as const, error: readerError } : yamlToJson(substituted);
  if (!converted.ok) return fail('YAMLToJSON', `envsubst error: YAMLToJSON: ${converted.error}`, { serialized, substituted });

  const rebuilt = kyamlUnmarshalJson(converted.json);
  if (!rebuilt.ok) return fail('UnmarshalJSON', `UnmarshalJSON: ${rebuilt.error}`, { serialized, substituted, json: converted.json });
  return { kind: 'applied', serialized, substituted, json: converted.json, final: rebuilt.final, gvk, name };
}
