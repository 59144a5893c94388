/**
 * What a Go-template action means, with source offsets on every node, so rules can point at a
 * function name or append `| quote` after the last command.
 */

export type Term =
  /** `.a.b`; a bare `.` has an empty path. */
  | { kind: 'field'; path: string[]; start: number; end: number }
  /** `$`, `$x`, `$x.a.b`. */
  | { kind: 'variable'; name: string; path: string[]; start: number; end: number }
  | { kind: 'function'; name: string; start: number; end: number }
  | { kind: 'string'; value: string; start: number; end: number }
  | { kind: 'number'; text: string; value: number; isInt: boolean; start: number; end: number }
  | { kind: 'bool'; value: boolean; start: number; end: number }
  | { kind: 'nil'; start: number; end: number }
  /** `( … )` with an optional field chain after it: `(.Values.a).b`; also `fn.a`, which is `(fn).a`. */
  | { kind: 'pipeline'; pipeline: Pipeline; path: string[]; start: number; end: number };

export interface Command {
  args: Term[];
  start: number;
  end: number;
}

export interface Pipeline {
  /** Variables declared (`:=`) or assigned (`=`); such a pipeline prints nothing. */
  declarations: string[];
  assign: boolean;
  commands: Command[];
  start: number;
  end: number;
}

export type ActionNode =
  | { type: 'output'; pipeline: Pipeline }
  | { type: 'if' | 'with' | 'range'; pipeline: Pipeline }
  | { type: 'else'; chain?: { type: 'if' | 'with'; pipeline: Pipeline } }
  | { type: 'end' | 'break' | 'continue' | 'comment' }
  | { type: 'define'; name: string }
  | { type: 'template' | 'block'; name: string; pipeline?: Pipeline }
  /** `limit`: Render Lens does not follow this action (limits.ts); the product may well parse it. */
  | { type: 'error'; message: string; offset: number; end: number; limit?: boolean };

/** The function a command calls (its first word), if it is a function call. */
export function commandFunction(command: Command): string | undefined {
  const head = command.args[0];
  return head?.kind === 'function' ? head.name : undefined;
}

/** One name of a field chain and where it is written, without its dot. */
export interface PathSegment {
  name: string;
  start: number;
  end: number;
}

/**
 * The names of a term's field chain with their offsets. A chain is written without spaces
 * (`.a.b`, `$x.a`, `(…).a`), so the names sit back to back, each after its dot, up to the
 * term's end.
 */
export function pathSegments(term: Term): PathSegment[] {
  if (term.kind !== 'field' && term.kind !== 'variable' && term.kind !== 'pipeline') return [];
  const out: PathSegment[] = [];
  let end = term.end;
  for (let i = term.path.length - 1; i >= 0; i--) {
    const start = end - term.path[i].length;
    out.unshift({ name: term.path[i], start, end });
    end = start - 1;
  }
  return out;
}
