/**
 * go-yaml v2 writes a float64 with `strconv.FormatFloat(f, 'g', -1, 64)` and spells the
 * non-finite values the YAML way. With the shortest precision Go's 'g' switches to exponent
 * form when the decimal exponent is below -4 or at least 6 (not 21 as in JavaScript), and the
 * exponent always has at least two digits: 1e+06, 1.5e-07, 1e+100.
 */
export function formatGoFloat(f: number): string {
  if (Number.isNaN(f)) return '.nan';
  if (f === Infinity) return '.inf';
  if (f === -Infinity) return '-.inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const sign = f < 0 ? '-' : '';
  // toExponential() without an argument gives the shortest digits that round-trip, as Go does.
  const [mantissa, exponentText] = Math.abs(f).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 6) {
    const fraction = digits.length > 1 ? `.${digits.slice(1)}` : '';
    const magnitude = Math.abs(exponent);
    const expDigits = magnitude < 10 ? `0${magnitude}` : String(magnitude);
    return `${sign}${digits[0]}${fraction}e${exponent < 0 ? '-' : '+'}${expDigits}`;
  }
  // Fixed notation: the point sits after `exponent + 1` digits.
  const pointAt = exponent + 1;
  if (pointAt <= 0) return `${sign}0.${'0'.repeat(-pointAt)}${digits}`;
  if (pointAt >= digits.length) return `${sign}${digits}${'0'.repeat(pointAt - digits.length)}`;
  return `${sign}${digits.slice(0, pointAt)}.${digits.slice(pointAt)}`;
}
