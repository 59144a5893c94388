/**
 * After substitution, kyaml rebuilds the resource from JSON by writing it out with go-yaml v3
 * and parsing that text back (`RNode.UnmarshalJSON` → `FromMap` → `Parse`). One kind of
 * string does not survive this: go-yaml v3 writes a string containing "\n" as a literal block
 * (`|-`), and when the string starts with a tab, the block's first line starts with a tab
 * right after the indentation. go-yaml's scanner, still guessing the block's indentation at
 * that point, rejects it: "found a tab character where an indentation space is expected".
 *
 * This file finds the first such string in the order go-yaml v3 writes the document (keys
 * sorted, four-space indent, no line wrapping) and the line its `|` lands on, which is the
 * line go-yaml names in the error.
 */
import { isPrintable } from '../v2/emit-analyze';
import { sortedStringKeysV3 } from '../v2/emit-sort';
import { utf8Length } from '../v2/go-utf8';
import { GoMap, type GoValue } from '../v2/value';

export const TAB_INDENT_PROBLEM = 'found a tab character where an indentation space is expected';

/** The error go-yaml v3 raises when it reads back what it wrote for `root`, if any. */
export function v3RoundTripError(root: GoMap): string | undefined {
  const layout = new V3Layout();
  layout.mapping(root, 0);
  if (layout.hazardLine === undefined) return undefined;
  // go-yaml v3 names the line of the scanner's context (the `|`), 1-based; on the very first
  // line it falls back to the problem's line, the block's first content line.
  const line = layout.hazardLine !== 0 ? layout.hazardLine + 1 : layout.hazardLine + 2;
  return `yaml: line ${line}: ${TAB_INDENT_PROBLEM}`;
}

/** How go-yaml v3's emitter writes a string (encode.go stringv + the emitter's style checks). */
function literalBlockLines(s: string): number | undefined {
  // stringv asks for a literal block only when the string contains "\n".
  if (!s.includes('\n') || !blockAllowed(s)) return undefined;
  const segments = s.split(/\n|\u2028|\u2029/);
  return /[\n\u2028\u2029]$/.test(s) ? segments.length - 1 : segments.length;
}

/**
 * The emitter's block_allowed: no trailing space, no space right before a line break, and no
 * "special" character (anything outside go-yaml's printable set; v3, unlike v2, lets a tab pass).
 */
function blockAllowed(s: string): boolean {
  if (s.endsWith(' ')) return false;
  if (/ [\n\r\u0085\u2028\u2029]/.test(s)) return false;
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (c !== 0x09 && !isPrintable(c)) return false;
  }
  return true;
}

/** go-yaml's check_simple_key for a string key: one line and at most 128 bytes. */
function isSimpleKey(s: string): boolean {
  return !/[\n\r\u0085\u2028\u2029]/.test(s) && utf8Length(s) <= 128;
}

class V3Layout {
  /** 0-based line of the first literal block that starts with a tab. */
  hazardLine: number | undefined;

  /** Writes a block mapping whose first key lands on `line`; returns the next free line. */
  mapping(map: GoMap, line: number): number {
    const values = new Map<string, GoValue>();
    for (const [key, value] of map.entries) values.set(String(key), value);
    for (const key of sortedStringKeysV3([...values.keys()])) {
      if (this.hazardLine !== undefined) return line;
      const value = values.get(key) ?? null;
      if (isSimpleKey(key)) {
        line = this.value(value, line, false);
      } else {
        // A complex key: "? key" on its own line(s), then ": value" on the next one.
        line = this.scalar(key, line);
        line = this.value(value, line, true);
      }
    }
    return line;
  }

  /**
   * Writes a value that starts on `line` after a key or a "- ". Nested collections start on
   * the next line after a simple key, and on the same line after "- " or a complex key's ":".
   */
  private value(value: GoValue, line: number, inline: boolean): number {
    if (value instanceof GoMap) {
      if (value.entries.length === 0) return line + 1;
      return this.mapping(value, inline ? line : line + 1);
    }
    if (Array.isArray(value)) {
      if (value.length === 0) return line + 1;
      return this.sequence(value, inline ? line : line + 1);
    }
    if (typeof value === 'string') return this.scalar(value, line);
    return line + 1;
  }

  private sequence(items: GoValue[], line: number): number {
    for (const item of items) {
      if (this.hazardLine !== undefined) return line;
      line = this.value(item, line, true);
    }
    return line;
  }

  /** A string scalar at `line`; returns the line after it. */
  private scalar(s: string, line: number): number {
    const blockLines = literalBlockLines(s);
    if (blockLines === undefined) return line + 1;
    if (s.startsWith('\t') && this.hazardLine === undefined) this.hazardLine = line;
    return line + 1 + blockLines;
  }
}
