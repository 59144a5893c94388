/** Go's `time.ParseDuration`, for the duration fields of fleet.yaml. */

const durationUnits = new Set(['ns', 'us', 'µs', 'μs', 'ms', 's', 'm', 'h']);

/** time.ParseDuration's complaint about `text`, or undefined when it parses. */
export function goDurationError(text: string): string | undefined {
  const quoted = JSON.stringify(text);
  let s = text.replace(/^[-+]/, '');
  if (s === '0') return undefined;
  if (s === '') return `time: invalid duration ${quoted}`;
  while (s !== '') {
    const number = /^(\d*)(\.\d*)?/.exec(s);
    if (!number || (number[1] === '' && (number[2] ?? '.') === '.')) return `time: invalid duration ${quoted}`;
    s = s.slice(number[0].length);
    const unit = /^[^\d.]*/.exec(s)?.[0] ?? '';
    if (unit === '') return `time: missing unit in duration ${quoted}`;
    if (!durationUnits.has(unit)) return `time: unknown unit ${JSON.stringify(unit)} in duration ${quoted}`;
    s = s.slice(unit.length);
  }
  return undefined;
}
