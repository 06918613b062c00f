/**
 * Scores `extractPage` against the shared listing corpus (../shared/corpus/README.md,
 * "listing-corpus/v1"): per page, precision and recall over the set of article URLs and whether
 * the ordered list matches exactly; then macro averages over pages, over the pages the peer
 * enables, and over the 6 it disables. URLs are compared after WHATWG normalisation (the peer
 * writes `https://host/./2019/x` and `https://host` where a browser reads `/2019/x` and `/`).
 * Pure apart from reading the corpus directory it is given.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isFeedmillError } from '../src/domain/errors.js';
import { extractPage } from '../workers/extract-page.js';
import { locateCorpusDir } from './corpus-dir.js';

interface ListingExpected {
  id: string;
  document: string;
  page_url: string;
  peer_test_enabled: boolean;
  item_urls: string[];
}

export interface PageScore {
  id: string;
  enabled: boolean;
  expected: number;
  extracted: number;
  precision: number;
  recall: number;
  /** The extracted URLs, in order, equal the expected list (normalised). */
  order: boolean;
  millis: number;
  /** Set when extraction threw: the error code. */
  error?: string;
  missing: string[];
  extra: string[];
}

export interface Averages {
  pages: number;
  precision: number;
  recall: number;
  order: number;
}

export interface ListingScore {
  pages: PageScore[];
  all: Averages;
  enabled: Averages;
  disabled: Averages;
}

export function scoreListingCorpus(corpusDir: string): ListingScore {
  const dir = join(corpusDir, 'html', 'listing');
  const pages: PageScore[] = [];
  for (const name of readdirSync(dir)
    .filter((file) => file.endsWith('.expected.json'))
    .sort()) {
    const expected = JSON.parse(readFileSync(join(dir, name), 'utf8')) as ListingExpected;
    pages.push(scorePage(expected, readFileSync(join(dir, expected.document), 'utf8')));
  }
  return {
    pages,
    all: average(pages),
    enabled: average(pages.filter((page) => page.enabled)),
    disabled: average(pages.filter((page) => !page.enabled)),
  };
}

function scorePage(expected: ListingExpected, html: string): PageScore {
  const wanted = expected.item_urls.map(normalise);
  let got: string[] = [];
  let error: string | undefined;
  const started = performance.now();
  try {
    got = extractPage(html, { url: expected.page_url }).items.map((item) => normalise(item.url));
  } catch (caught) {
    if (!isFeedmillError(caught)) throw caught;
    error = caught.code;
  }
  const millis = performance.now() - started;
  const wantedSet = new Set(wanted);
  const gotSet = new Set(got);
  const hits = [...gotSet].filter((url) => wantedSet.has(url)).length;
  return {
    id: expected.id,
    enabled: expected.peer_test_enabled,
    expected: wanted.length,
    extracted: got.length,
    precision: gotSet.size === 0 ? 0 : hits / gotSet.size,
    recall: wantedSet.size === 0 ? 1 : hits / wantedSet.size,
    order: got.length === wanted.length && got.every((url, i) => url === wanted[i]),
    millis,
    ...(error !== undefined ? { error } : {}),
    missing: [...wantedSet].filter((url) => !gotSet.has(url)),
    extra: [...gotSet].filter((url) => !wantedSet.has(url)),
  };
}

function normalise(url: string): string {
  return URL.canParse(url) ? new URL(url).href : url;
}

function average(pages: readonly PageScore[]): Averages {
  const n = Math.max(pages.length, 1);
  const sum = (pick: (page: PageScore) => number): number => pages.reduce((total, page) => total + pick(page), 0) / n;
  return { pages: pages.length, precision: sum((p) => p.precision), recall: sum((p) => p.recall), order: sum((p) => (p.order ? 1 : 0)) };
}

const pct = (value: number): string => `${(value * 100).toFixed(1)}%`.padStart(7);

export function formatListingScore(score: ListingScore): string {
  const lines = [
    `${'page'.padEnd(46)} ${'peer'.padEnd(4)} ${'exp'.padStart(4)} ${'got'.padStart(4)} ${'prec.'.padStart(7)} ${'recall'.padStart(7)} order ${'ms'.padStart(6)}`,
  ];
  for (const page of score.pages) {
    const id = page.id.replace(/^feedless-listing__/, '');
    lines.push(
      `${id.padEnd(46)} ${(page.enabled ? 'on' : 'off').padEnd(4)} ${String(page.expected).padStart(4)} ${String(page.extracted).padStart(4)} ${pct(page.precision)} ${pct(page.recall)} ${(page.order ? 'yes' : 'no').padEnd(5)} ${page.millis.toFixed(1).padStart(6)}${page.error !== undefined ? `  (${page.error})` : ''}`,
    );
  }
  const row = (label: string, a: Averages): string =>
    `${label.padEnd(46)} ${String(a.pages).padStart(9)}      ${pct(a.precision)} ${pct(a.recall)} ${pct(a.order)}`;
  lines.push(
    '',
    row('macro, all pages', score.all),
    row('macro, pages the peer enables', score.enabled),
    row('macro, pages the peer disables', score.disabled),
  );
  return lines.join('\n');
}

// `node dist/bench/listing-corpus-score.js` prints the table; FEEDMILL_SHOW_MISSES=1 lists the misses.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const score = scoreListingCorpus(locateCorpusDir(process.env['FEEDMILL_CORPUS_DIR']));
  console.log(formatListingScore(score));
  if (process.env['FEEDMILL_SHOW_MISSES']) {
    for (const page of score.pages) {
      if (page.missing.length + page.extra.length === 0) continue;
      console.log(
        `\n${page.id}\n  missing: ${page.missing.slice(0, 8).join('\n           ')}\n  extra:   ${page.extra.slice(0, 8).join('\n           ')}`,
      );
    }
  }
}
