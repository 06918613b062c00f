import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Test } from 'tap';
import { openEmbeddedStore, type EmbeddedStore } from '../../../src/adapters/embedded-store/index.js';
import { defaultFeedSettings, type Feed } from '../../../src/domain/feed.js';

/** The directory holding package.json, found from this file whether it runs from test/ or dist/test/. */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
  return dir;
}

export const schemaDir = join(repoRoot(), 'schema', 'embedded');

/** A fresh directory for one test, removed when the test ends. */
export function tempDir(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'feedmill-store-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Opens a store in a fresh directory; it is closed when the test ends. */
export function openTempStore(t: Test): EmbeddedStore & { file: string } {
  const file = join(tempDir(t), 'feedmill.db');
  const store = openEmbeddedStore({ file, schemaDir });
  t.teardown(() => store.close());
  return { ...store, file };
}

export const feedFixture = (fields: Partial<Feed> = {}): Feed => ({
  id: 'AAAAAAAAAAAAAAAA',
  accountId: 'acct-1',
  title: 'Example',
  description: 'An example feed',
  icon: 'https://example.com/favicon.ico',
  sourceUrl: 'https://example.com/',
  fetchUrl: 'https://example.com/feed.xml',
  link: 'https://example.com/',
  createdAt: '2024-03-01T00:00:00.000Z',
  updatedAt: '2024-03-01T00:00:00.000Z',
  settings: defaultFeedSettings,
  fetch: { errorCount: 0, unchangedStreak: 0 },
  ...fields,
});
