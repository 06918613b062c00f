/**
 * Makes the labelled pairs of `test/fixtures/dedupe-pairs.json` from the real feeds of the shared
 * corpus (the rss-parser suite: the Guardian, heise, reddit, craigslist, jn.pt, medium, podcasts…):
 *
 *   node dist/bench/dedupe/make-pairs.js > test/fixtures/dedupe-pairs.json
 *
 * Deterministic (a seeded generator), so rerunning it gives the same file. What each kind of pair
 * models is in bench/README.md ("dedupe").
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ParsedItem } from '../../src/domain/item.js';
import { parseFeed } from '../../workers/parse-feed.js';
import { locateCorpusDir } from '../corpus-dir.js';
import type { PairItem, LabelledPair } from './pairs.js';

const documents = [
  'content-encoded.xml',
  'craigslist.xml',
  'encoding.xml',
  'guardian.xml',
  'gulp-atom.xml',
  'heise.xml',
  'itunes-href.xml',
  'itunes-keywords-astext.xml',
  'reddit-atom.xml',
  'reddit-home.xml',
  'reddit.xml',
];

let seed = 20261125;
const random = (): number => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;

const corpus = join(locateCorpusDir(process.env.FEEDMILL_CORPUS_DIR), 'feeds');
const hours = (iso: string, h: number): string => new Date(Date.parse(iso) + h * 3_600_000).toISOString();

interface Source {
  name: string;
  items: PairItem[];
}

function load(file: string): Source | undefined {
  const path = join(corpus, `rss-parser__${file}`);
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return undefined;
  }
  const expected = JSON.parse(readFileSync(path.replace(/\.[a-z]+$/, '.expected.json'), 'utf8')) as {
    http_headers?: { 'Content-Type'?: string };
  };
  const contentType = expected.http_headers?.['Content-Type'];
  const feed = parseFeed(
    bytes,
    contentType === undefined ? { url: 'https://corpus.example/feed.xml' } : { url: 'https://corpus.example/feed.xml', contentType },
  );
  const name = file.replace(/\.[a-z]+$/, '');
  const items = feed.items
    .filter((item) => item.title.trim() !== '' && item.url !== '')
    .map((item, index) => toPairItem(item, `${name}#${index}`));
  return { name, items };
}

function toPairItem(item: ParsedItem, feed: string): PairItem {
  return {
    feed,
    url: item.url,
    ...(item.original_url === undefined ? {} : { original_url: item.original_url }),
    ...(item.id === undefined ? {} : { id: item.id }),
    title: item.title,
    description_text: item.description_text.replace(/\s+/g, ' ').trim().slice(0, 240),
    published: item.date_published ?? '2026-11-10T12:00:00.000Z',
  };
}

/** How one article's link differs when it is reached another way. */
const urlVariants: [string, (url: URL) => string][] = [
  ['utm', (u) => `${u.href}${u.search ? '&' : '?'}utm_source=rss&utm_medium=feed&utm_campaign=daily`],
  ['fbclid-gclid', (u) => `${u.href}${u.search ? '&' : '?'}fbclid=IwAR0abc${u.search ? '' : '&gclid=Cj0KCQ'}`],
  ['fragment', (u) => `${u.href}#comments`],
  ['www', (u) => u.href.replace(/^(https?:\/\/)(www\.)?/, (_m, scheme: string, www?: string) => `${scheme}${www ? '' : 'www.'}`)],
  ['scheme', (u) => u.href.replace(/^https?:/, u.protocol === 'https:' ? 'http:' : 'https:')],
  ['trailing-slash', (u) => (u.pathname.endsWith('/') ? u.href.replace(/\/(\?|$)/, '$1') : `${u.origin}${u.pathname}/${u.search}`)],
  ['amp-path', (u) => `${u.origin}${u.pathname.replace(/\/$/, '')}/amp${u.search}`],
  ['amp-query', (u) => `${u.href}${u.search ? '&' : '?'}amp=1`],
  ['amp-host', (u) => u.href.replace(/^(https?:\/\/)(www\.)?/, '$1amp.')],
  ['amp-cache', (u) => `https://${u.hostname.replace(/\./g, '-')}.cdn.ampproject.org/c/s/${u.host}${u.pathname}${u.search}`],
];

const outlets = ['Reuters', 'The Herald', 'Daily Courier', 'NZZ', 'El Diario', 'Yahoo News', 'MSN'];

/** How a wire story's headline is rewritten by the outlet that carries it. */
const titleRewrites: [string, (title: string) => string][] = [
  ['outlet-suffix', (title) => `${title} - ${pick(outlets)}`],
  ['pipe-suffix', (title) => `${title} | ${pick(outlets)}`],
  ['case', (title) => title.toUpperCase()],
  [
    'quotes',
    (title) =>
      title
        .replace(/'/g, '’')
        .replace(/"([^"]*)"/g, '“$1”')
        .replace(/,/g, '') + (/'|"|,/.test(title) ? '' : ' '),
  ],
  ['drop-word', (title) => dropWords(title, 1)],
  ['insert-word', (title) => insertWord(title)],
  [
    'truncate',
    (title) =>
      `${title
        .split(/\s+/)
        .slice(0, Math.max(4, Math.ceil(title.split(/\s+/).length * 0.75)))
        .join(' ')}…`,
  ],
  ['reorder', (title) => reorder(title)],
  ['rewrite', (title) => `${reorder(dropWords(title, 2))} - ${pick(outlets)}`],
];

function dropWords(title: string, n: number): string {
  const words = title.split(/\s+/);
  for (let i = 0; i < n && words.length > 3; i++) words.splice(1 + Math.floor(random() * (words.length - 1)), 1);
  return words.join(' ');
}

function insertWord(title: string): string {
  const words = title.split(/\s+/);
  words.splice(Math.floor(random() * (words.length + 1)), 0, pick(['report:', 'update:', 'now', 'officially', 'watch:', 'live']));
  return words.join(' ');
}

/** Swaps the two halves around a colon or comma, or moves the first words to the end. */
function reorder(title: string): string {
  const split = /^(.+?)[:,]\s+(.+)$/.exec(title);
  if (split?.[1] !== undefined && split[2] !== undefined) return `${split[2]}: ${split[1]}`;
  const words = title.split(/\s+/);
  const cut = Math.max(1, Math.floor(words.length / 3));
  return [...words.slice(cut), ...words.slice(0, cut)].join(' ');
}

/** How an outlet carries the opening of a wire story. */
const openingRewrites: [string, (text: string) => string][] = [
  ['same', (text) => text],
  [
    'shorter',
    (text) =>
      text
        .split(/\s+/)
        .slice(0, Math.ceil(text.split(/\s+/).length * 0.6))
        .join(' '),
  ],
  ['none', () => ''],
];

const otherHost = (url: string, n: number): string => {
  const u = new URL(url);
  return `https://outlet${n}.example${u.pathname.replace(/\/$/, '')}-${n}`;
};

function titleJaccard(a: string, b: string): number {
  const wa = new Set(a.toLowerCase().split(/\W+/).filter(Boolean));
  const wb = new Set(b.toLowerCase().split(/\W+/).filter(Boolean));
  let shared = 0;
  for (const w of wa) if (wb.has(w)) shared++;
  return shared / Math.max(1, wa.size + wb.size - shared);
}

function main(): void {
  const sources = documents.map(load).filter((source): source is Source => source !== undefined);
  const pairs: LabelledPair[] = [];
  const add = (label: LabelledPair['label'], kind: string, a: PairItem, b: PairItem): void => {
    pairs.push({ id: `${pairs.length + 1}`, label, kind, a, b });
  };
  let n = 0;
  for (const source of sources) {
    for (const item of source.items) {
      n++;
      // Real: FeedBurner's proxy link with origLink, and the publisher's own feed linking the article.
      if (item.original_url !== undefined) {
        const { original_url: own, ...rest } = item;
        add('duplicate', 'feedburner-origlink', item, {
          ...rest,
          feed: `${source.name}-own`,
          url: `${own}?utm_source=feedburner&utm_medium=feed`,
        });
      }
      const [variant, change] = urlVariants[n % urlVariants.length] as (typeof urlVariants)[number];
      const base = new URL(item.original_url ?? item.url);
      const keptTitle = random() < 0.5 ? item.title : item.title.replace(/\s+/g, ' ').trim();
      add('duplicate', `url:${variant}`, item, {
        ...item,
        feed: `${source.name}-aggregator`,
        url: change(base),
        title: keptTitle,
        published: hours(item.published, 1 + Math.floor(random() * 6)),
      });
      const [rewrite, retitle] = titleRewrites[n % titleRewrites.length] as (typeof titleRewrites)[number];
      const [opening, reopen] = openingRewrites[
        Math.floor(n / titleRewrites.length) % openingRewrites.length
      ] as (typeof openingRewrites)[number];
      const { id: _id, original_url: _own, ...story } = item;
      add('duplicate', `story:${rewrite}/${opening}`, item, {
        ...story,
        feed: `outlet${n % 5}`,
        url: otherHost(item.url, n % 5),
        title: retitle(item.title),
        description_text: reopen(item.description_text),
        published: hours(item.published, pick([0.5, 1, 2, 4, 8, 16, 30])),
      });
    }
    // Distinct articles of one source, as if two feeds of it (sections) carried them, published close
    // together: the most alike titles first, then a random sample.
    const within: [number, PairItem, PairItem][] = [];
    source.items.forEach((a, i) => source.items.slice(i + 1).forEach((b) => within.push([titleJaccard(a.title, b.title), a, b])));
    within.sort((x, y) => y[0] - x[0]);
    const chosen = new Set(within.slice(0, 12));
    for (let k = 0; k < 18 && within.length > 0; k++) chosen.add(pick(within));
    for (const [similarity, a, b] of chosen) {
      const close = { ...b, feed: `${source.name}-section`, published: hours(a.published, pick([0, 1, 3, 12])) };
      add('distinct', similarity >= 0.3 ? 'distinct:same-source-alike' : 'distinct:same-source', a, close);
    }
  }
  // Distinct articles of two sources, published close together.
  const all = sources.flatMap((source) => source.items);
  for (let k = 0; k < 120; k++) {
    const a = pick(all);
    const b = pick(all);
    if (a.feed.split('#')[0] === b.feed.split('#')[0]) continue;
    add('distinct', 'distinct:other-source', a, { ...b, published: hours(a.published, pick([0, 2, 6])) });
  }
  // One pair a line: the file reads and diffs by pair.
  const head = JSON.stringify({
    schema: 'dedupe-pairs/v1',
    made_by: 'bench/dedupe/make-pairs.ts',
    sources: sources.map((s) => `rss-parser__${s.name}`),
  });
  process.stdout.write(`${head.slice(0, -1)},"pairs":[\n${pairs.map((pair) => JSON.stringify(pair)).join(',\n')}\n]}\n`);
}

main();
