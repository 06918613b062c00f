import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../fixtures/repo-root.js';
import { maxInputBytes } from './inputs.js';
import type { FuzzTarget } from './target.js';

/** Where the runner finds targets, committed seeds and dictionaries, and where it writes. */
export const fuzzDirectory = join(repoRoot, 'test', 'fuzz');
export const targetsDirectory = join(repoRoot, 'dist', 'test', 'fuzz', 'targets');
export const scratchDirectory = (name: string): string => join(repoRoot, '.cache', 'fuzz', name);

/** The names of the compiled targets: each `dist/test/fuzz/targets/<name>.js`. */
export function targetNames(): string[] {
  return readdirSync(targetsDirectory)
    .filter((file) => file.endsWith('.js'))
    .map((file) => file.slice(0, -'.js'.length))
    .sort();
}

export async function loadTarget(name: string): Promise<FuzzTarget> {
  const module = (await import(join(targetsDirectory, `${name}.js`))) as { target?: FuzzTarget };
  if (module.target === undefined) throw new Error(`Expected test/fuzz/targets/${name}.ts to export \`target\`, found none`);
  return module.target;
}

/** The committed seeds of a target (hand-written ones and the inputs of past findings). */
export const committedSeedDirectory = (name: string): string => join(fuzzDirectory, 'seeds', name);

const filesIn = (directory: string): string[] =>
  existsSync(directory)
    ? readdirSync(directory)
        .map((file) => join(directory, file))
        .filter((path) => statSync(path).isFile() && statSync(path).size <= maxInputBytes)
        .sort()
    : [];

/**
 * Gathers a target's seeds into `.cache/fuzz/<name>/corpus/` (emptied first, so a run starts from
 * the committed seeds and the documents they point at, never from a stale copy) and returns them.
 * The shared corpus (`../shared/corpus`) is copied, never committed; an absent directory is skipped.
 */
export function gatherSeeds(name: string, target: FuzzTarget): Uint8Array[] {
  const corpus = join(scratchDirectory(name), 'corpus');
  rmSync(corpus, { recursive: true, force: true });
  mkdirSync(corpus, { recursive: true });
  const sources = [committedSeedDirectory(name), ...target.seedDirectories.map((directory) => join(repoRoot, directory))];
  const seeds: Uint8Array[] = [];
  sources.forEach((directory, which) => {
    for (const path of filesIn(directory)) {
      if (path.endsWith('.expected.json')) continue;
      const copy = join(corpus, `${which}-${path.slice(directory.length + 1)}`);
      copyFileSync(path, copy);
      seeds.push(readFileSync(copy));
    }
  });
  return seeds;
}

/** The committed seeds alone, for the test that runs every target over them. */
export const committedSeeds = (name: string): Uint8Array[] => filesIn(committedSeedDirectory(name)).map((path) => readFileSync(path));

/** Reads a libFuzzer dictionary: one `"token"` (optionally `name="token"`) a line, `#` comments, `\\`, `\"` and `\xHH` escapes. */
export function parseDictionary(text: string): Uint8Array[] {
  const tokens: Uint8Array[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const quoted = /^(?:[A-Za-z0-9_]+\s*=\s*)?"(.*)"$/.exec(line);
    if (!quoted) throw new Error(`Expected a dictionary entry such as "token" on line ${index + 1}, got ${line}`);
    const bytes: number[] = [];
    const body = quoted[1] ?? '';
    for (let i = 0; i < body.length; i += 1) {
      const char = body[i] as string;
      if (char !== '\\') bytes.push(...Buffer.from(char, 'utf8'));
      else if (body[i + 1] === 'x') {
        bytes.push(Number.parseInt(body.slice(i + 2, i + 4), 16));
        i += 3;
      } else {
        bytes.push(body.charCodeAt(i + 1));
        i += 1;
      }
    }
    tokens.push(Uint8Array.from(bytes));
  });
  return tokens;
}

export const loadDictionary = (name: string | undefined): Uint8Array[] =>
  name === undefined ? [] : parseDictionary(readFileSync(join(fuzzDirectory, 'dictionaries', `${name}.dict`), 'utf8'));
