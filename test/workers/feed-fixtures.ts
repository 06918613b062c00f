import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: the nearest directory above this (compiled) file that holds package.json. */
function repositoryRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`Expected a package.json above ${fileURLToPath(import.meta.url)}, found none`);
    dir = parent;
  }
  return dir;
}

/** The bytes of `test/fixtures/feeds/<name>`, as the fetcher would hand them over. */
export function feedFixture(name: string): Uint8Array {
  return readFileSync(join(repositoryRoot(), 'test', 'fixtures', 'feeds', name));
}

/** What `fn` threw, or undefined when it returned. */
export function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}
