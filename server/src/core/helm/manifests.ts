/**
 * How Helm cuts a rendered template into manifests (releaseutil.SplitManifests): the output
 * is trimmed, split on `---` lines by `(?:^|\s*\n)---\s*`, and each piece is trimmed again.
 * go-yaml's line numbers count from the start of a trimmed piece, so a hover reports the same
 * `line N` Helm prints.
 */
import { yamlToJson, type YamlToJsonResult } from '../goyaml/v2/yaml-to-json';

export interface Manifest {
  /** Offsets of the trimmed piece in the rendered text. */
  start: number;
  end: number;
  text: string;
}

const goSpace = /[\t\n\v\f\r \u0085\u00a0]/;
const separator = /(?:^|[\t\n\f\r ]*\n)---[\t\n\f\r ]*/g;

export function splitManifests(rendered: string): Manifest[] {
  let start = 0;
  let end = rendered.length;
  while (start < end && goSpace.test(rendered[start])) start++;
  while (end > start && goSpace.test(rendered[end - 1])) end--;
  const body = rendered.slice(start, end);
  const manifests: Manifest[] = [];
  let at = 0;
  const cut = (from: number, to: number) => {
    let s = from;
    let e = to;
    while (s < e && goSpace.test(body[s])) s++;
    while (e > s && goSpace.test(body[e - 1])) e--;
    if (e > s) manifests.push({ start: start + s, end: start + e, text: body.slice(s, e) });
  };
  for (const match of body.matchAll(separator)) {
    cut(at, match.index);
    at = match.index + match[0].length;
  }
  cut(at, body.length);
  return manifests;
}

export function manifestAt(manifests: readonly Manifest[], offset: number): Manifest | undefined {
  return manifests.find((m) => offset >= m.start && offset <= m.end);
}

/** sigs.k8s.io/yaml's reading of one manifest, with Helm's wording for a failure. */
export function readManifest(manifest: Manifest, templateName: string): YamlToJsonResult & { helmError?: string } {
  const read = yamlToJson(manifest.text);
  if (read.ok) return read;
  return { ...read, helmError: `YAML parse error on ${templateName}: error converting YAML to JSON: ${read.error}` };
}
