/**
 * Fixes as rules and domain code write them: an edit's file defaults to the file being
 * checked, and the engine turns them into the model's `Fix` with every file named.
 */
import type { Range } from './index';

export interface RuleEdit {
  /** Defaults to the file being checked. */
  file?: string;
  range: Range;
  newText: string;
}

export interface RuleFix {
  title: string;
  edits: RuleEdit[];
  preferred?: boolean;
}
