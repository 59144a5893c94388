/**
 * Builders for hostile repositories. Small ones are file maps; large ones (100 MB, 100,000
 * files) are written straight to a temp directory by the test that needs them, never
 * committed.
 */
import * as fs from 'fs';
import * as path from 'path';

/** A Flux Kustomization at clusters/prod/<name>.yaml that renders `dir` with one variable. */
export function fluxKustomization(name: string, dir: string): Record<string, string> {
  return { [`clusters/prod/${name}.yaml`]: fluxKustomizationText(name, dir, ['  postBuild:', '    substitute:', '      A: "1"']) };
}

/** The text of a Flux Kustomization in flux-system that renders `./dir`, with `spec` lines after its path (postBuild, patches). */
export function fluxKustomizationText(name: string, dir: string, spec: readonly string[] = []): string {
  return ['apiVersion: kustomize.toolkit.fluxcd.io/v1', 'kind: Kustomization', 'metadata:', `  name: ${name}`, '  namespace: flux-system', 'spec:', `  path: ./${dir}`, ...spec, ''].join('\n');
}

export function configMap(name: string, data: string): string {
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: default\ndata:\n${data}`;
}

/** Nine anchors of nine aliases each: 9^9 nodes once expanded. */
export function aliasBomb(): string {
  const lines = ['  a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]'];
  for (let i = 1; i < 9; i++) {
    const name = String.fromCharCode(97 + i);
    const previous = String.fromCharCode(96 + i);
    lines.push(`  ${name}: &${name} [${Array(9).fill(`*${previous}`).join(', ')}]`);
  }
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: lol\ndata:\n  z: "\${A}"\nbomb:\n${lines.join('\n')}\n`;
}

/** Merge keys that double at each of 20 levels. */
export function mergeBomb(): string {
  const lines = ['  m0: &m0 {k0: v}'];
  for (let i = 1; i < 20; i++) lines.push(`  m${i}: &m${i}\n    <<: [*m${i - 1}, *m${i - 1}]\n    k${i}: v`);
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: merge\ndata:\n  z: "\${A}"\nbomb:\n${lines.join('\n')}\n`;
}

/** A ConfigMap whose `x` nests `depth` flow sequences around a `${A}`. */
export function deepFlow(depth: number): string {
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deep\ndata:\n  z: "\${A}"\nx: ${'['.repeat(depth - 1)}"\${A}"${']'.repeat(depth - 1)}\n`;
}

/** Compact block sequences (`- - - …`): one level each, on one line. */
export function deepBlock(depth: number): string {
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deep\ndata:\n  z: "\${A}"\nx:\n  ${'- '.repeat(depth - 1)}"\${A}"\n`;
}

/** Bytes that are not UTF-8: lone continuation bytes, overlong forms, surrogates, NUL, 0xFF. */
export function invalidUtf8(seed: number, length: number): Buffer {
  const out = Buffer.alloc(length);
  const specials = [0x00, 0xff, 0xfe, 0x80, 0xbf, 0xc0, 0xc1, 0xed, 0xa0, 0xf5, 0x24, 0x7b, 0x7d, 0x0a, 0x3a, 0x20, 0x09];
  let state = seed >>> 0;
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    out[i] = state % 3 === 0 ? specials[(state >>> 8) % specials.length] : (state >>> 16) & 0xff;
  }
  return out;
}

/** Writes `megabytes` of a valid YAML map (one short key per line) to `file`, in chunks. */
export function writeHugeYaml(file: string, megabytes: number): number {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // One `${A}` and one `$$` per chunk: enough to matter, not a match per line to collect.
  const line = (i: number) => `  k${String(i).padStart(9, '0')}: "value ${i === 0 ? '${A} $$' : i}"\n`;
  const chunk = Array.from({ length: 20000 }, (_, i) => line(i)).join('');
  const fd = fs.openSync(file, 'w');
  let written = 0;
  try {
    written += fs.writeSync(fd, configMap('huge', ''));
    while (written < megabytes * 1024 * 1024) written += fs.writeSync(fd, chunk);
  } finally {
    fs.closeSync(fd);
  }
  return written;
}
