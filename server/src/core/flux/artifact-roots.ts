/**
 * Folders of this repository that CI pushes as an OCI artifact (`flux push artifact … --path
 * ./kubernetes`). A cluster that syncs such an artifact reads its paths from that folder, not
 * from the repository root: `./clusters/home` in the sync is `kubernetes/clusters/home` here.
 * Only what CI is seen to push counts; a folder is never guessed.
 */
import type { Range } from '../model';
import type { FileIndex } from '../workspace/file-index';
import { clampToRoot } from './paths';

export interface ArtifactRoot {
  /** The folder pushed, relative to the repository root ('' for the root itself). */
  dir: string;
  /** Where the push is written. */
  file: string;
  range: Range;
}

/** CI definitions that can run `flux push artifact`. */
const ciFile = /^(\.github\/workflows\/[^/]+|\.gitlab-ci|\.taskfiles\/.+|Taskfile|\.forgejo\/workflows\/[^/]+|\.gitea\/workflows\/[^/]+)\.ya?ml$/;
/** `flux push artifact <ref> … --path=<dir>` on one logical line (a `\` continues it). */
const pushCommand = /flux\s+push\s+artifact\b(?:[^\n]|\\\n)*?--path(?:=|\s+)["']?([^"'\s\\]+)/g;

export function artifactRoots(index: Pick<FileIndex, 'files' | 'derived' | 'isDirectory'>): ArtifactRoot[] {
  const roots: ArtifactRoot[] = [];
  for (const file of index.files()) {
    if (!ciFile.test(file)) continue;
    for (const { dir, range } of index.derived(file, 'flux-push-paths', pushedPaths) ?? []) {
      if ((dir === '' || index.isDirectory(dir)) && !roots.some((r) => r.dir === dir)) roots.push({ dir, file, range });
    }
  }
  return roots;
}

function pushedPaths(text: string): Array<{ dir: string; range: Range }> {
  const found: Array<{ dir: string; range: Range }> = [];
  pushCommand.lastIndex = 0;
  for (let m = pushCommand.exec(text); m; m = pushCommand.exec(text)) {
    // A path built from a variable is not a folder we can name.
    if (m[1].includes('$')) continue;
    found.push({ dir: clampToRoot(m[1]).path, range: { start: m.index, end: m.index + m[0].length } });
  }
  return found;
}

/**
 * Where a sync's path is read from: '' for the repository root when the path is a folder
 * there, else the one pushed artifact folder that holds it; undefined when neither does.
 */
export function treeRootOf(index: Pick<FileIndex, 'isDirectory'>, path: string, roots: readonly ArtifactRoot[]): '' | ArtifactRoot | undefined {
  if (index.isDirectory(clampToRoot(path).path)) return '';
  const holding = roots.filter((r) => r.dir !== '' && index.isDirectory(underRoot(r.dir, path)));
  return holding.length === 1 ? holding[0] : undefined;
}

/** `path` read inside `root`. */
export function underRoot(root: string, path: string): string {
  const inside = clampToRoot(path).path;
  return root === '' ? inside : inside === '' ? root : `${root}/${inside}`;
}
