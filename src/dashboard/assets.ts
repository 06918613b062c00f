import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

export interface Asset {
  /** `/dashboard/assets/<name>.<hash>.<ext>`: a new build is a new address, so caches may keep it for a year. */
  path: string;
  type: string;
  body: Buffer;
  /** Served to clients that accept gzip; it is also what the size docs/dashboard.md gives ("How it is built, and why") counts. */
  gzipped: Buffer;
}

export interface Assets {
  css: Asset;
  js: Asset;
  /** The picker page's script (client/picker.ts), which imports the selector derivation (client/pick-selectors.ts). */
  picker: Asset;
  byPath: ReadonlyMap<string, Asset>;
}

function asset(name: string, extension: string, type: string, body: Buffer): Asset {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  return { path: `/dashboard/assets/${name}.${hash}.${extension}`, type, body, gzipped: gzipSync(body, { level: 9 }) };
}

/**
 * Read once at start-up. The stylesheet is kept as written in `src/dashboard/assets` (the image
 * copies that folder); the script is tsc's output of `client/dashboard.ts`, next to this module.
 */
export function loadAssets(): Assets {
  const css = asset(
    'dashboard',
    'css',
    'text/css; charset=utf-8',
    readFileSync(new URL('../../../src/dashboard/assets/dashboard.css', import.meta.url)),
  );
  const script = (name: string, body: Buffer): Asset => asset(name, 'js', 'text/javascript; charset=utf-8', body);
  const js = script('dashboard', readFileSync(new URL('./client/dashboard.js', import.meta.url)));
  const derivation = script('pick-selectors', readFileSync(new URL('./client/pick-selectors.js', import.meta.url)));
  // The one import of the picker names the module tsc wrote beside it; served, it is the hashed
  // address, so a new derivation is a new picker address too.
  const pickerSource = readFileSync(new URL('./client/picker.js', import.meta.url), 'utf8');
  const importSpecifier = "'./pick-selectors.js'";
  if (!pickerSource.includes(importSpecifier)) throw new Error(`Expected client/picker.js to import ${importSpecifier}`);
  const picker = script('picker', Buffer.from(pickerSource.replace(importSpecifier, `'${derivation.path}'`)));
  return { css, js, picker, byPath: new Map([css, js, derivation, picker].map((entry) => [entry.path, entry])) };
}
