/**
 * The ConfigMaps and Secrets a cluster receives, found by kind, namespace and name, as Flux
 * finds a `substituteFrom` entry's object. A cluster renders many files that hold such objects
 * (a home-ops app's SOPS secrets, a manifest of hundreds of script ConfigMaps) but is only ever
 * asked for the few its entries name. So a file's objects are placed when a lookup could name
 * one of them: when the file's text holds the asked name without the prefixes and suffixes its
 * kustomizations add (or holds a `\`, whose escapes could spell any name). Until then the file
 * is not even read for its objects' identities, which cost the first open beside a
 * 50,000-line manifest a reading of all of it (issue 33).
 *
 * Lookups answer as if every object had been placed in turn: what is put later wins a name
 * (the object a later Kustomization or generator applies), and `named` lists objects in the
 * order their names first appeared.
 */
import type { ObjectData } from './object-data';

interface Entry {
  data: ObjectData;
  /** The turn that put the object in force. */
  last: number;
  /** The turn that first put an object under its key: the order of `named`. */
  first: number;
}

interface Later {
  turn: number;
  /** Whether the file's text holds a string (kept per version by the caller: a manifest is megabytes). */
  holds: (part: string) => boolean;
  prefix: string;
  suffix: string;
  place: () => readonly ObjectData[];
}

export class ClusterObjects {
  private readonly byKey = new Map<string, Entry>();
  private later: Later[] = [];
  private turns = 0;

  /** An object the cluster receives, in force over any put before it under its key. */
  put(data: ObjectData): void {
    this.store(data, this.turns++);
  }

  /**
   * The objects of a file, placed (by `place`) when a lookup could name one of them. `holds`
   * tells whether the file's text holds a string; `affixes` are what its kustomizations add
   * around a name (namePrefix, nameSuffix).
   */
  putLater(holds: (part: string) => boolean, affixes: { prefix: string; suffix: string }, place: () => readonly ObjectData[]): void {
    this.later.push({ turn: this.turns++, holds, ...affixes, place });
  }

  /** The object under `kind/namespace/name` (`hashed`: a generated one whose name gets a content hash). */
  get(kind: string, namespace: string, name: string, hashed = false): ObjectData | undefined {
    this.placeNamed(name);
    return this.byKey.get(keyOf(kind, namespace, name, hashed))?.data;
  }

  /** Every object named `name`, of any kind and namespace, in the order their keys first appeared. */
  named(name: string): ObjectData[] {
    this.placeNamed(name);
    const entries = [...this.byKey.values()].filter((entry) => entry.data.name === name);
    return entries.sort((a, b) => a.first - b.first).map((entry) => entry.data);
  }

  /** Every object with its key, in the order their keys first appeared (every file placed). */
  all(): Array<[string, ObjectData]> {
    for (const file of this.later.splice(0)) this.placeFile(file);
    return [...this.byKey].sort(([, a], [, b]) => a.first - b.first).map(([key, entry]) => [key, entry.data]);
  }

  private placeNamed(name: string): void {
    if (!this.later.some((file) => mayName(file, name))) return;
    const waiting: Later[] = [];
    for (const file of this.later) {
      if (!mayName(file, name)) {
        waiting.push(file);
        continue;
      }
      this.placeFile(file);
    }
    this.later = waiting;
  }

  private placeFile(file: Later): void {
    // Its objects share the file's turn, each after the one before it in the file.
    const objects = file.place();
    objects.forEach((data, index) => this.store(data, file.turn + index / (objects.length + 1)));
  }

  private store(data: ObjectData, turn: number): void {
    // A namespaced object without a namespace is rejected at apply ("namespace not specified").
    const key = keyOf(data.kind, data.anyNamespace ? '*' : (data.namespace ?? ''), data.name, data.hashed);
    const known = this.byKey.get(key);
    if (!known) this.byKey.set(key, { data, last: turn, first: turn });
    else {
      if (turn > known.last) {
        known.data = data;
        known.last = turn;
      }
      known.first = Math.min(known.first, turn);
    }
  }
}

function keyOf(kind: string, namespace: string, name: string, hashed: boolean): string {
  return `${kind}/${namespace}/${name}${hashed ? '\0hashed' : ''}`;
}

/** Whether an object of the file could be named `name` once its kustomizations placed it. */
function mayName(file: Later, name: string): boolean {
  if (file.holds('\\')) return true;
  if (name.length < file.prefix.length + file.suffix.length || !name.startsWith(file.prefix) || !name.endsWith(file.suffix)) return false;
  return file.holds(name.slice(file.prefix.length, name.length - file.suffix.length));
}
