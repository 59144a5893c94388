/**
 * From the manifest text to the JSON kyaml's `RNode.MarshalJSON` produces for it: the first
 * half of `res.AsYAML()`. Two stages can fail here:
 *   - `input`: the text does not parse (kustomize build itself fails, before Flux);
 *   - `MarshalJSON`: go-yaml v3 cannot decode it into Go values, or json.Marshal refuses them.
 *
 * Parse errors are reported with go-yaml's own text. The npm `yaml` parser builds the tree,
 * but its messages are its own, so the syntax verdict and message come from our go-yaml v2
 * decoder: v2 and v3 share the scanner and parser, and their syntax errors read the same.
 */
import { goJsonMarshal } from '../../goyaml/v2/json';
import { decodeYamlV2 } from '../../goyaml/v2/decode';
import { deAnchor, DeAnchorError, type PlainNode } from '../../goyaml/kyaml/de-anchor';
import { decodeResourceV3 } from '../../goyaml/v3/decode';
import { parseSourceNodes } from '../../goyaml/v3/nodes';
import { resourceIdentity, substituteOptOut, type ResourceIdentity } from './resource-meta';

export type ReadResult =
  | { ok: true; json: string; identity: ResourceIdentity; optOut: 'label' | 'annotation' | undefined }
  | { ok: false; stage: 'input'; error: string }
  | { ok: false; stage: 'MarshalJSON'; error: string; identity: ResourceIdentity };

/**
 * Errors from our go-yaml v2 decoder that are not about syntax: they come from decoding into
 * Go values, where v3 differs from v2, so the v3 path below decides them instead.
 */
const DECODE_ERROR_PREFIXES = [
  'yaml: unmarshal errors:',
  'yaml: cannot decode',
  'yaml: cannot unmarshal',
  'yaml: map merge requires',
  'yaml: anchor ',
  'yaml: document contains excessive aliasing',
  'yaml: !!binary',
  'yaml: invalid map key',
  'yaml: unknown anchor',
  'yaml: document nested too deeply',
];

export function readResource(source: string): ReadResult {
  const syntax = goYamlSyntaxError(source);
  if (syntax !== undefined) return { ok: false, stage: 'input', error: `input: ${syntax}` };

  const parsed = parseSourceNodes(source);
  if (!parsed.ok) return { ok: false, stage: 'input', error: `input: ${parsed.error}` };
  if (!parsed.root) return { ok: false, stage: 'input', error: 'input: the document holds no resource' };

  let root: PlainNode;
  try {
    root = deAnchor(parsed.root);
  } catch (e) {
    if (e instanceof DeAnchorError) return { ok: false, stage: 'input', error: `input: ${e.message}` };
    throw e;
  }
  const identity = resourceIdentity(root);

  const decoded = decodeResourceV3(root);
  if (!decoded.ok) return { ok: false, stage: 'MarshalJSON', error: decoded.error, identity };
  const json = goJsonMarshal(decoded.value);
  if (!json.ok) return { ok: false, stage: 'MarshalJSON', error: json.error, identity };
  return { ok: true, json: json.json, identity, optOut: substituteOptOut(root) };
}

function goYamlSyntaxError(source: string): string | undefined {
  const result = decodeYamlV2(source);
  if (result.ok) return undefined;
  return DECODE_ERROR_PREFIXES.some((prefix) => result.error.startsWith(prefix)) ? undefined : result.error;
}
