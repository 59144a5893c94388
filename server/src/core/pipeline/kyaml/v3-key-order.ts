/**
 * The order in which go-yaml (v2 and v3 share sorter.go) writes the keys of a Go map whose
 * keys are strings: a "natural" order, where runs of digits compare by value and letters sort
 * before other characters. We only need it to know on which line go-yaml v3 writes a value.
 */

const LETTER = /\p{L}/u;
const DIGIT = /\p{Nd}/u;

function isLetter(c: number): boolean {
  return LETTER.test(String.fromCodePoint(c));
}

function isDigit(c: number): boolean {
  return DIGIT.test(String.fromCodePoint(c));
}

/** go-yaml's keyList.Less for two string keys. */
export function goYamlKeyLess(a: string, b: string): boolean {
  const ar = Array.from(a, (ch) => ch.codePointAt(0) ?? 0);
  const br = Array.from(b, (ch) => ch.codePointAt(0) ?? 0);
  let digits = false;
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) {
      digits = isDigit(ar[i]);
      continue;
    }
    const al = isLetter(ar[i]);
    const bl = isLetter(br[i]);
    if (al && bl) return ar[i] < br[i];
    if (al || bl) return digits ? al : bl;
    // Compare the runs of digits starting here by value; a leading zero after other digits
    // counts as part of a larger number.
    let an = 0;
    let bn = 0;
    if (ar[i] === 48 || br[i] === 48) {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]); j--) {
        if (ar[j] !== 48) {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    for (; ai < ar.length && isDigit(ar[ai]); ai++) an = an * 10 + (ar[ai] - 48);
    let bi = i;
    for (; bi < br.length && isDigit(br[bi]); bi++) bn = bn * 10 + (br[bi] - 48);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i] < br[i];
  }
  return ar.length < br.length;
}

export function sortGoYamlKeys(keys: string[]): string[] {
  return [...keys].sort((a, b) => (goYamlKeyLess(a, b) ? -1 : goYamlKeyLess(b, a) ? 1 : 0));
}
