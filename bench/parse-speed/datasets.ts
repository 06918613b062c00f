/** The three datasets of the speed benchmark, written as manifests (and generated files) into `dir`. */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Manifest } from './child.js';
import { generateRss } from './generate-rss.js';

/** gofeed's documents are unit cases of a few hundred bytes; the larger ones have real item structure. */
const gofeedMinBytes = 500;

interface Expected {
  document: string;
  suite: string;
  expect_error?: boolean;
  item_count?: number;
  http_headers?: Record<string, string>;
}

/**
 * Real feeds: every rss-parser document (reddit, guardian, heise, podcasts, …) and the gofeed XML
 * documents of at least 500 bytes, except those the corpus expects to be rejected.
 */
export function realFeeds(corpusDir: string): Manifest {
  const feedsDir = join(corpusDir, 'feeds');
  const documents: Manifest['documents'] = [];
  for (const name of readdirSync(feedsDir)
    .filter((file) => file.endsWith('.expected.json'))
    .sort()) {
    const expected = JSON.parse(readFileSync(join(feedsDir, name), 'utf8')) as Expected;
    if (expected.expect_error || !expected.document.endsWith('.xml')) continue;
    const file = join(feedsDir, expected.document);
    const wanted = expected.suite === 'rss-parser' || (expected.suite.startsWith('gofeed') && statSync(file).size >= gofeedMinBytes);
    if (!wanted) continue;
    const contentType = expected.http_headers?.['Content-Type'];
    documents.push({
      file,
      ...(contentType === undefined ? {} : { contentType }),
      ...(expected.item_count === undefined ? {} : { expectedItems: expected.item_count }),
    });
  }
  return { name: 'real feeds', documents };
}

export function generated(dir: string, megabytes: number): Manifest {
  const feed = generateRss(megabytes * 1024 * 1024);
  const file = join(dir, `generated-${megabytes}mb.xml`);
  writeFileSync(file, feed.xml);
  return { name: `generated ${megabytes} MB`, documents: [{ file, expectedItems: feed.items }] };
}

export function writeManifest(dir: string, manifest: Manifest, index: number): string {
  const path = join(dir, `manifest-${index}.json`);
  writeFileSync(path, JSON.stringify(manifest));
  return path;
}
