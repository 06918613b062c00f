import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

export interface BenchPage {
  key: string;
  url: string;
  expected: string;
}

/** Said when the benchmark's files are missing: they are not part of the repository. */
export const howToGetPages =
  'Set FEEDMILL_BENCH_ARTICLES_DIR to a checkout of https://github.com/scrapinghub/article-extraction-benchmark ' +
  '(the folder holding ground-truth.json and html/*.html.gz), e.g. `git clone --depth 1 ' +
  'https://github.com/scrapinghub/article-extraction-benchmark /tmp/aeb && FEEDMILL_BENCH_ARTICLES_DIR=/tmp/aeb npm run bench -- fulltext`. ' +
  'Never commit those files.';

export function loadPages(dir: string): BenchPage[] {
  const truthPath = join(dir, 'ground-truth.json');
  if (!existsSync(truthPath)) throw new Error(`Expected ${truthPath}, found none. ${howToGetPages}`);
  const truth = JSON.parse(readFileSync(truthPath, 'utf8')) as Record<string, { articleBody?: string; url?: string }>;
  return Object.entries(truth).map(([key, page]) => ({ key, url: page.url ?? 'https://example.com/', expected: page.articleBody ?? '' }));
}

export function pageBody(dir: string, key: string): Uint8Array {
  return gunzipSync(readFileSync(join(dir, 'html', `${key}.html.gz`)));
}
