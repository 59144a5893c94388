/**
 * Path globs of `exclude` (`.render-lens.yaml`, settings) and of Helm values files: `**`
 * any path, `**​/` any number of leading folders, `*` any part of a name, `?` one character of
 * a name, everything else literal. A glob that matches a folder matches everything under it.
 *
 * The globs come from the repository, so matching runs as a set of glob positions moved along
 * the path one character at a time: linear in the path times the glob, whatever the glob. A
 * backtracking RegExp took minutes on `**a**a**a**a**a**a**a**a**a**b` and a long file name.
 */

type Step =
  /** One character, as written. */
  | { readonly kind: 'char'; readonly char: string }
  /** `?`: one character other than `/`. */
  | { readonly kind: 'one' }
  /** `*`: any run of characters other than `/`. */
  | { readonly kind: 'star' }
  /** `**` not followed by `/`: any run of characters. */
  | { readonly kind: 'any' }
  /** `**​/`: nothing, or any run of characters that ends with `/`. */
  | { readonly kind: 'folders' };

function compile(glob: string): Step[] {
  const steps: Step[] = [];
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      const folders = glob[i + 2] === '/';
      steps.push({ kind: folders ? 'folders' : 'any' });
      i += folders ? 2 : 1;
    } else if (c === '*') steps.push({ kind: 'star' });
    else if (c === '?') steps.push({ kind: 'one' });
    else steps.push({ kind: 'char', char: c });
  }
  return steps;
}

// Compiled once per glob: the same few globs are asked about for every file.
const compiled = new Map<string, Step[]>();

function stepsOf(glob: string): Step[] {
  let steps = compiled.get(glob);
  if (steps) return steps;
  steps = compile(glob);
  if (compiled.size >= 256) compiled.clear();
  compiled.set(glob, steps);
  return steps;
}

/**
 * State `2i` is "before step i"; state `2i + 1` is "inside the `**​/` at step i, not just after
 * a `/`", where the step may not end yet. Adds `state` and what it reaches without reading.
 */
function enter(steps: readonly Step[], states: Uint8Array, state: number): void {
  for (;;) {
    if (states[state]) return;
    states[state] = 1;
    if (state % 2 === 1) return;
    const step = steps[state / 2];
    // Stars and `**/` may match nothing: the next step is reachable at once.
    if (step === undefined || step.kind === 'char' || step.kind === 'one') return;
    state += 2;
  }
}

/** Whether `path` (or a folder it lies in) matches `glob`. */
export function matchesGlob(path: string, glob: string): boolean {
  const steps = stepsOf(glob);
  const end = 2 * steps.length;
  let current = new Uint8Array(end + 2);
  let next = new Uint8Array(end + 2);
  enter(steps, current, 0);
  for (let p = 0; p < path.length; p++) {
    const c = path[p];
    // The whole glob matched a folder of the path: everything under it is matched too.
    if (current[end] && c === '/') return true;
    next.fill(0);
    let alive = false;
    for (let state = 0; state < end; state++) {
      if (!current[state]) continue;
      const i = state >> 1;
      const step = steps[i];
      if (state % 2 === 1) {
        // Inside `**/`: a `/` may end it (or continue it), anything else continues it.
        enter(steps, next, c === '/' ? 2 * i : state);
      } else if (step.kind === 'char') {
        if (step.char === c) enter(steps, next, state + 2);
      } else if (step.kind === 'one') {
        if (c !== '/') enter(steps, next, state + 2);
      } else if (step.kind === 'star') {
        if (c !== '/') enter(steps, next, state);
      } else if (step.kind === 'any') {
        enter(steps, next, state);
      } else {
        enter(steps, next, c === '/' ? state : state + 1);
      }
      alive = true;
    }
    if (!alive) return false;
    [current, next] = [next, current];
  }
  return current[end] === 1;
}
