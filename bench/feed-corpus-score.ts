/**
 * Scores `parseFeed` against the shared feed corpus (../shared/corpus/README.md, "Scoring").
 * Pure apart from reading the corpus directory it is given.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeHTML } from 'entities';
import { parseDocument } from 'htmlparser2';
import { isTag, isText, type ChildNode } from 'domhandler';
import type { ParsedFeed, ParsedItem } from '../src/domain/item.js';
import { isFeedmillError } from '../src/domain/errors.js';
import { parseFeed } from '../workers/parse-feed.js';
import { renderHtml } from '../workers/shared/html.js';

/** The fields our API exposes, in table order; everything else in the corpus is "not scored". */
export const scoredFields = [
  'expect_error',
  'item_count',
  'feed.title',
  'feed.description',
  'feed.link',
  'feed.icon',
  'url',
  'id',
  'title',
  'date_published',
  'description_html',
  'description_text',
  'authors',
  'categories',
  'enclosures',
  'thumbnail',
] as const;
export type ScoredField = (typeof scoredFields)[number];

export interface Tally {
  asserted: number;
  exact: number;
  normalised: number;
}

export interface Miss {
  case: string;
  field: ScoredField;
  index?: number;
  expected: unknown;
  actual: unknown;
  /** Whether the normalised comparison matched. */
  normalised: boolean;
}

export interface CorpusScore {
  cases: number;
  /** suite → field → tally */
  suites: Map<string, Map<ScoredField, Tally>>;
  misses: Miss[];
}

interface ExpectedItem {
  index: number;
  [key: string]: unknown;
}

interface Expected {
  id: string;
  document: string;
  suite: string;
  expect_error?: boolean;
  http_headers?: Record<string, string>;
  feed?: Record<string, unknown>;
  item_count?: number;
  items?: ExpectedItem[];
}

export function scoreCorpus(corpusDir: string): CorpusScore {
  const feedsDir = join(corpusDir, 'feeds');
  const score: CorpusScore = { cases: 0, suites: new Map(), misses: [] };
  for (const name of readdirSync(feedsDir)
    .filter((file) => file.endsWith('.expected.json'))
    .sort()) {
    const expected = JSON.parse(readFileSync(join(feedsDir, name), 'utf8')) as Expected;
    score.cases++;
    scoreCase(expected, readFileSync(join(feedsDir, expected.document)), score);
  }
  return score;
}

function scoreCase(expected: Expected, body: Uint8Array, score: CorpusScore): void {
  let suite = score.suites.get(expected.suite);
  if (suite === undefined) score.suites.set(expected.suite, (suite = new Map<ScoredField, Tally>()));
  const tallies = suite;
  const record = (
    field: ScoredField,
    exact: boolean,
    normalised: boolean,
    detail?: { index?: number; expected: unknown; actual: unknown },
  ): void => {
    let tally = tallies.get(field);
    if (tally === undefined) tallies.set(field, (tally = { asserted: 0, exact: 0, normalised: 0 }));
    tally.asserted++;
    if (exact) tally.exact++;
    if (normalised || exact) tally.normalised++;
    if (!exact && detail) score.misses.push({ case: expected.id, field, ...detail, normalised });
  };
  let feed: ParsedFeed | undefined;
  let failure: unknown;
  try {
    const contentType = expected.http_headers?.['Content-Type'];
    const contentLocation = expected.http_headers?.['Content-Location'];
    // No document URL: the peers parse without one, so relative links stay relative unless xml:base
    // (or the Content-Location the document was served with) says otherwise.
    feed = parseFeed(body, {
      url: '',
      ...(contentType === undefined ? {} : { contentType }),
      ...(contentLocation === undefined ? {} : { contentLocation }),
    });
  } catch (error) {
    failure = error;
  }
  if (expected.expect_error) {
    const ok = failure !== undefined && isFeedmillError(failure) && failure.code === 'not_a_feed';
    record('expect_error', ok, ok, { expected: 'not_a_feed', actual: feed ? 'parsed' : String(failure) });
    return;
  }
  if (expected.item_count !== undefined) {
    const actual = feed?.items.length;
    record('item_count', actual === expected.item_count, false, { expected: expected.item_count, actual: actual ?? String(failure) });
  }
  scoreFeedFields(expected.feed ?? {}, feed, record);
  for (const item of expected.items ?? []) scoreItem(item, feed?.items[item.index], record);
}

type Record_ = (
  field: ScoredField,
  exact: boolean,
  normalised: boolean,
  detail?: { index?: number; expected: unknown; actual: unknown },
) => void;

/** Corpus values are JSON: strings as they are, anything else as its JSON text (never `[object Object]`). */
const asText = (value: unknown): string =>
  typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value);

function scoreFeedFields(expected: Record<string, unknown>, feed: ParsedFeed | undefined, record: Record_): void {
  const pairs: [ScoredField, string, 'text' | 'url'][] = [
    ['feed.title', 'title', 'text'],
    ['feed.description', 'description', 'text'],
    ['feed.link', 'link', 'url'],
    ['feed.icon', 'icon', 'url'],
  ];
  for (const [field, key, kind] of pairs) {
    if (!(key in expected)) continue;
    const want = asText(expected[key]);
    const got = feed === undefined ? undefined : asText(feed[key as keyof ParsedFeed]);
    record(field, got === want, got !== undefined && (kind === 'url' ? normUrl(got) === normUrl(want) : normText(got) === normText(want)), {
      expected: want,
      actual: got,
    });
  }
}

function scoreItem(expected: ExpectedItem, item: ParsedItem | undefined, record: Record_): void {
  const index = expected.index;
  const has = (key: string): boolean => key in expected;
  const detail = (want: unknown, got: unknown) => ({ index, expected: want, actual: got });
  const url = (field: ScoredField, want: unknown, got: string | null | undefined): void => {
    const w = want === null ? null : asText(want);
    record(field, got === w, got != null && w !== null && normUrl(got) === normUrl(w), detail(w, got));
  };
  if (has('url')) url('url', expected['url'], item?.url);
  if (has('thumbnail')) url('thumbnail', expected['thumbnail'], item?.thumbnail);
  if (has('id')) {
    const want = asText(expected['id']);
    record('id', item?.id === want, item?.id !== undefined && item.id.trim() === want.trim(), detail(want, item?.id));
  }
  if (has('title')) {
    const want = asText(expected['title']);
    record('title', item?.title === want, item !== undefined && normText(item.title) === normText(want), detail(want, item?.title));
  }
  if (has('date_published')) {
    const want = expected['date_published'] as string | null;
    const got = item?.date_published;
    const ok = got !== undefined && (want === null ? got === null : got !== null && Date.parse(got) === Date.parse(want));
    record('date_published', ok, ok, detail(want, got));
  }
  const htmlKey = has('content') ? 'content' : has('summary') ? 'summary' : undefined;
  if (htmlKey !== undefined) {
    const want = asText(expected[htmlKey]);
    // Our HTML is sanitised and absolutised: put the expected value through the same sanitiser, then compare DOMs.
    const wantHtml = renderHtml(want, undefined).html;
    const got = item?.description_html;
    const exact = got !== undefined && domKey(got) === domKey(wantHtml);
    const normalised = got !== undefined && (domKey(got, true) === domKey(wantHtml, true) || normText(got) === normText(wantHtml));
    record('description_html', exact, normalised, detail(wantHtml, got));
  }
  const textKey = has('content') || has('content_text') ? 'content_text' : 'summary_text';
  if (has(textKey)) {
    const want = asText(expected[textKey]);
    const got = item?.description_text;
    record('description_text', got === want, got !== undefined && normText(got) === normText(want), detail(want, got));
  }
  if (has('authors')) {
    // Our authors carry names only: a person the peer knows only by URI has no name to compare.
    const want = (expected['authors'] as { name?: string; email?: string }[])
      .map((a) => a.name || a.email || '')
      .filter((name) => name !== '');
    const got = item?.authors.map((a) => a.name);
    record('authors', sameList(got, want), got !== undefined && sameList(got.map(normText), want.map(normText)), detail(want, got));
  }
  if (has('categories')) {
    const want = (expected['categories'] as string[]).map(String);
    const got = item?.categories;
    record(
      'categories',
      sameList(got, want),
      got !== undefined && sameList(got.map(normText).sort(), want.map(normText).sort()),
      detail(want, got),
    );
  }
  if (has('enclosures')) {
    const want = (expected['enclosures'] as { url: string; type?: string; length?: string | number }[]).map((e) => enclosureKey(e, false));
    const got = item?.enclosures.map((e) => enclosureKey(e, false));
    const gotNorm = item?.enclosures.map((e) => enclosureKey(e, true));
    const wantNorm = (expected['enclosures'] as { url: string; type?: string; length?: string | number }[]).map((e) =>
      enclosureKey(e, true),
    );
    record('enclosures', sameList(got, want), sameList(gotNorm, wantNorm), detail(want, got));
  }
}

function enclosureKey(e: { url: string; type?: string; length?: string | number }, normalise: boolean): string {
  const length = e.length === undefined || String(e.length) === '0' ? '' : String(e.length);
  return `${normalise ? normUrl(e.url) : e.url} ${e.type ?? ''} ${length}`;
}

function sameList(a: readonly string[] | undefined, b: readonly string[]): boolean {
  return a !== undefined && a.length === b.length && a.every((value, i) => value === b[i]);
}

/** WHATWG URL serialisation, or the trimmed string when it is not an absolute URL. */
export function normUrl(value: string): string {
  const trimmed = value.trim();
  try {
    return new URL(trimmed).href;
  } catch {
    return trimmed;
  }
}

const blockTag =
  /<\/?(?:p|div|br|h[1-6]|ul|ol|li|blockquote|section|article|table|tr|td|th|pre|hr|dl|dt|dd|figure|figcaption|header|footer)\b[^>]*>/gi;

/** Entities decoded, tags stripped (block tags as spaces), whitespace collapsed and trimmed. */
export function normText(value: string): string {
  const decoded = decodeHTML(value);
  return decodeHTML(decoded.replace(blockTag, ' ').replace(/<\/?[a-zA-Z][^>]*>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * A canonical string for an HTML fragment's DOM: elements, sorted attributes, text nodes with
 * whitespace collapsed and trimmed. `unwrap` (the normalised comparison) also drops wrapping
 * `<div>`s without attributes around the whole fragment (gofeed strips the xhtml wrapper, rss-parser keeps it).
 */
export function domKey(html: string, unwrap = false): string {
  let nodes = parseDocument(html, { decodeEntities: true }).children;
  for (;;) {
    const significant = nodes.filter((node) => !isText(node) || node.data.trim() !== '');
    const only = significant[0];
    if (
      !unwrap ||
      significant.length !== 1 ||
      only === undefined ||
      !isTag(only) ||
      only.name !== 'div' ||
      Object.keys(only.attribs).length > 0
    )
      break;
    nodes = only.children;
  }
  return nodes.map(nodeKey).join('');
}

function nodeKey(node: ChildNode): string {
  if (isText(node)) return node.data.replace(/\s+/g, ' ').trim();
  if (isTag(node)) {
    const attrs = Object.entries(node.attribs)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]) => ` ${k}=${JSON.stringify(v)}`)
      .join('');
    return `<${node.name}${attrs}>${node.children.map(nodeKey).join('')}</${node.name}>`;
  }
  return '';
}

/** Accuracy as a fraction; 1 when nothing was asserted. */
export function ratio(part: number, whole: number): number {
  return whole === 0 ? 1 : part / whole;
}

/** Per field: micro (all assertions pooled) and macro (mean over the suites that assert it). */
export function fieldSummary(
  score: CorpusScore,
): Map<ScoredField, { asserted: number; exact: number; normalised: number; macroExact: number; macroNormalised: number }> {
  const summary = new Map<
    ScoredField,
    { asserted: number; exact: number; normalised: number; macroExact: number; macroNormalised: number }
  >();
  for (const field of scoredFields) {
    const tallies = [...score.suites.values()].map((suite) => suite.get(field)).filter((t): t is Tally => t !== undefined);
    if (tallies.length === 0) continue;
    const sum = (key: keyof Tally) => tallies.reduce((total, t) => total + t[key], 0);
    const asserted = sum('asserted');
    summary.set(field, {
      asserted,
      exact: ratio(sum('exact'), asserted),
      normalised: ratio(sum('normalised'), asserted),
      macroExact: tallies.reduce((total, t) => total + ratio(t.exact, t.asserted), 0) / tallies.length,
      macroNormalised: tallies.reduce((total, t) => total + ratio(t.normalised, t.asserted), 0) / tallies.length,
    });
  }
  return summary;
}

/** Per suite: accuracy over all its assertions; the headline is the mean of these (macro over suites). */
export function suiteSummary(score: CorpusScore): Map<string, { asserted: number; exact: number; normalised: number }> {
  const summary = new Map<string, { asserted: number; exact: number; normalised: number }>();
  for (const [suite, fields] of [...score.suites].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const tallies = [...fields.values()];
    const asserted = tallies.reduce((total, t) => total + t.asserted, 0);
    summary.set(suite, {
      asserted,
      exact: ratio(
        tallies.reduce((total, t) => total + t.exact, 0),
        asserted,
      ),
      normalised: ratio(
        tallies.reduce((total, t) => total + t.normalised, 0),
        asserted,
      ),
    });
  }
  return summary;
}
