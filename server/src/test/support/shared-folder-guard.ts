/**
 * Fails the test run if anything in it touches ../shared beside the project. The conformance
 * vectors used to be read from there, so `npm test` failed in any clone that lacked that folder;
 * they now live in test-fixtures/conformance. Loaded by .mocharc.json before every test file, it
 * wraps the fs entry points a test could read through and records each path under ../shared;
 * mocha's root `afterAll` hook then fails the run with the list.
 */
// The module object itself (not an import-star copy of it), so the wrappers reach every importer.
import fs = require('fs');
import * as path from 'path';
import { projectRoot } from '../../dev/project-paths';

export const sharedFolder = path.resolve(projectRoot, '..', 'shared');

const touched: string[] = [];

/** The paths under ../shared touched so far (the self-contained test clears what it touches on purpose). */
export function sharedFolderTouches(): string[] {
  return touched;
}

function isUnderShared(target: unknown): boolean {
  if (typeof target !== 'string' && !(target instanceof URL) && !Buffer.isBuffer(target)) return false;
  const text = target instanceof URL ? (target.protocol === 'file:' ? target.pathname : '') : target.toString();
  const relative = path.relative(sharedFolder, path.resolve(text));
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

type Wrappable = Record<string, unknown>;

function guard(owner: Wrappable, names: string[]): void {
  for (const name of names) {
    const original = owner[name];
    if (typeof original !== 'function') continue;
    const wrapped = function (this: unknown, target: unknown, ...rest: unknown[]) {
      if (isUnderShared(target)) touched.push(String(target));
      return (original as (...args: unknown[]) => unknown).call(this, target, ...rest);
    };
    // Keep what hangs on the original (`realpathSync.native`, util.promisify's custom symbol).
    for (const key of Reflect.ownKeys(original)) {
      if (key !== 'length' && key !== 'name' && key !== 'prototype') Object.defineProperty(wrapped, key, Object.getOwnPropertyDescriptor(original, key)!);
    }
    owner[name] = wrapped;
  }
}

guard(fs as unknown as Wrappable, [
  'readFileSync', 'readFile', 'openSync', 'open', 'readdirSync', 'readdir', 'statSync', 'stat',
  'lstatSync', 'lstat', 'existsSync', 'accessSync', 'access', 'createReadStream',
  'opendirSync', 'opendir', 'realpathSync', 'realpath', 'cpSync', 'cp', 'copyFileSync', 'copyFile',
]);
guard(fs.promises as unknown as Wrappable, ['readFile', 'open', 'readdir', 'stat', 'lstat', 'access', 'opendir', 'realpath', 'cp', 'copyFile']);

export const mochaHooks = {
  afterAll(): void {
    if (touched.length > 0) {
      throw new Error(`the tests touched ../shared, which a fresh clone does not have:\n${[...new Set(touched)].join('\n')}`);
    }
  },
};
