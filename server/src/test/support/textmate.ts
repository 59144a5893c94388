/**
 * Runs TextMate grammars the way VS Code does (vscode-textmate on the Oniguruma WASM build), so
 * tests can assert the scopes a grammar gives to each piece of a line.
 */
import * as fs from 'fs';
import { createRequire } from 'module';
import * as path from 'path';
import * as oniguruma from 'vscode-oniguruma';
import { INITIAL, type IGrammar, type IOnigLib, type IRawGrammar, Registry, parseRawGrammar } from 'vscode-textmate';
import { projectRoot } from './paths';

/** One token: its text and its scopes, outermost first. */
export type ScopedText = [text: string, scopes: string[]];

/** A token with its offset in the whole text (lines joined by `\n`). */
export interface PlacedToken {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  readonly scopes: string[];
}

let onigLib: Promise<IOnigLib> | undefined;

/** Loads onig.wasm once per process; `loadWASM` may only run once. */
export function loadOnigLib(): Promise<IOnigLib> {
  onigLib ??= (async () => {
    // Resolved from the project root, so the bundled test also finds it when run from /tmp.
    const fromRoot = createRequire(path.join(projectRoot, 'package.json'));
    const wasm = fs.readFileSync(path.join(path.dirname(fromRoot.resolve('vscode-oniguruma')), 'onig.wasm'));
    await oniguruma.loadWASM(new Uint8Array(wasm).buffer);
    return {
      createOnigScanner: (sources: string[]) => new oniguruma.OnigScanner(sources),
      createOnigString: (text: string) => new oniguruma.OnigString(text),
    };
  })();
  return onigLib;
}

/** Reads a grammar file; `parseRawGrammar` picks JSON or plist from the file name. */
export function readGrammarFile(file: string): IRawGrammar {
  return parseRawGrammar(fs.readFileSync(file, 'utf8'), file);
}

/** Turns a grammar written as an object literal into the form the registry takes. */
export function rawGrammar(grammar: object, name: string): IRawGrammar {
  return parseRawGrammar(JSON.stringify(grammar), `${name}.json`);
}

/**
 * Loads `rootScope` from `grammars` (keyed by scope name), with the grammars listed in
 * `injections[scope]` injected into that scope, as `contributes.grammars[].injectTo` does.
 */
export async function loadGrammar(
  rootScope: string,
  grammars: ReadonlyMap<string, IRawGrammar>,
  injections: Readonly<Record<string, readonly string[]>> = {},
): Promise<IGrammar> {
  const registry = new Registry({
    onigLib: loadOnigLib(),
    loadGrammar: async (scopeName) => grammars.get(scopeName) ?? null,
    getInjections: (scopeName) => (injections[scopeName] ? [...injections[scopeName]] : undefined),
  });
  const grammar = await registry.loadGrammar(rootScope);
  if (!grammar) throw new Error(`no grammar for ${rootScope}`);
  return grammar;
}

/** Tokenizes a text line by line, carrying the rule stack across lines as an editor does. */
export function tokenize(grammar: IGrammar, text: string): PlacedToken[] {
  const placed: PlacedToken[] = [];
  let stack = INITIAL;
  let offset = 0;
  for (const line of text.split('\n')) {
    const result = grammar.tokenizeLine(line, stack);
    for (const token of result.tokens) {
      const end = Math.min(token.endIndex, line.length);
      if (end <= token.startIndex) continue;
      placed.push({
        start: offset + token.startIndex,
        end: offset + end,
        text: line.slice(token.startIndex, end),
        scopes: token.scopes,
      });
    }
    stack = result.ruleStack;
    offset += line.length + 1;
  }
  return placed;
}

/**
 * The tokens that overlap the `occurrence`-th (1-based) appearance of `needle` in `text`, each
 * with its whole text (not cut at the needle's edges, so a token that runs past the needle
 * shows it) and its scopes without the grammar's own scope name, which every token has first.
 */
export function tokensAt(grammar: IGrammar, text: string, needle: string, occurrence = 1): ScopedText[] {
  let at = -1;
  for (let i = 0; i < occurrence; i++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`${JSON.stringify(needle)} occurs fewer than ${occurrence} times in ${JSON.stringify(text)}`);
  }
  const end = at + needle.length;
  return tokenize(grammar, text)
    .filter((token) => token.end > at && token.start < end)
    .map((token): ScopedText => [token.text, token.scopes.slice(1)]);
}
