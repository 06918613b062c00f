/**
 * Where the shared corpus lives: `FEEDMILL_CORPUS_DIR`, else `../shared/corpus` beside the
 * repository root (the folder holding package.json). The corpus is not part of the repository:
 * CI puts it beside the clone, and a developer may point at a copy anywhere.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export function locateCorpusDir(override: string | undefined, from: string = import.meta.url): string {
  if (override) return resolve(override);
  return resolve(repositoryRoot(from), '..', 'shared', 'corpus');
}

/** The folder holding package.json above `from`: the repository root, from source or from dist. */
export function repositoryRoot(from: string = import.meta.url): string {
  let dir = dirname(fileURLToPath(from));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`Expected a package.json above ${fileURLToPath(from)}, found none; set FEEDMILL_CORPUS_DIR`);
    dir = parent;
  }
  return dir;
}
