/** Typo suggestions: the defined name a misspelt one most likely meant. */

/** The one name within a small edit distance (a typo), if exactly one is closest. */
export function closestName(name: string, knobs: readonly string[]): string | undefined {
  const limit = name.length <= 4 ? 1 : 2;
  let best: string | undefined;
  let bestDistance = Infinity;
  let tie = false;
  for (const knob of knobs) {
    // Each edit changes the length by one at most: a name further off in length is further off.
    if (Math.abs(knob.length - name.length) > limit) continue;
    const distance = knob.toLowerCase() === name.toLowerCase() ? 0.5 : editDistance(name, knob);
    if (distance > limit) continue;
    if (distance < bestDistance) [best, bestDistance, tie] = [knob, distance, false];
    else if (distance === bestDistance) tie = true;
  }
  return tie ? undefined : best;
}

/** Optimal string alignment distance: insertions, deletions, substitutions, adjacent swaps. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}
