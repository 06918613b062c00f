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
  const js = asset('dashboard', 'js', 'text/javascript; charset=utf-8', readFileSync(new URL('./client/dashboard.js', import.meta.url)));
  return { css, js, byPath: new Map([css, js].map((entry) => [entry.path, entry])) };
}
