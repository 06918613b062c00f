import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { isFeedmillError } from '../../src/domain/errors.js';
import { extractPage } from '../../workers/extract-page.js';
import { repoRoot } from '../fixtures/repo-root.js';

const page = (name: string): string => readFileSync(join(repoRoot, 'test', 'fixtures', 'pages', name), 'utf8');

t.test('a blog index becomes one item per post, without navigation, tags, pagination, related posts or footer', async (t) => {
  const feed = extractPage(page('blog-with-chrome.html'), { url: 'https://notes.example/blog/index.html' });
  t.same(
    feed.items.map((item) => item.url),
    [
      'https://notes.example/blog/posts/first-light',
      'https://notes.example/blog/posts/river-crossing',
      'https://notes.example/blog/posts/quiet-week',
    ],
    'relative links resolve against <base href>, in page order',
  );
  t.same(
    feed.items.map((item) => item.title),
    ['First light over the northern ridge', 'A river crossing that went wrong', 'A quiet week at the station'],
  );
});

t.test('each post carries its date, author, summary and picture', async (t) => {
  const [first, second, third] = extractPage(page('blog-with-chrome.html'), { url: 'https://notes.example/blog/' }).items;
  t.equal(first?.date_published, '2024-03-05T07:30:00.000Z', '<time datetime> in UTC with milliseconds');
  t.equal(second?.date_published, '2024-02-27T00:00:00.000Z', 'a date written in the text');
  t.equal(third?.date_published, null, 'no date on the page means no date, never an invented one');
  t.same(first?.authors, [{ name: 'Ada Quill' }]);
  t.same(third?.authors, []);
  t.equal(first?.thumbnail, 'https://notes.example/img/ridge.jpg', 'data-src wins over a data: placeholder');
  t.equal(second?.thumbnail, 'https://notes.example/img/river-1200.jpg', 'the widest srcset candidate');
  t.equal(third?.thumbnail, 'https://notes.example/img/station@2x.webp', 'a lazy <picture> source');
  t.equal(second?.description_text, 'The water was higher than the map promised, and the map was wrong.');
});

t.test('summaries are sanitised: no script, no handlers, no javascript: links', async (t) => {
  const [first] = extractPage(page('blog-with-chrome.html'), { url: 'https://notes.example/blog/' }).items;
  const html = first?.description_html ?? '';
  t.match(html, /We walked up before dawn/);
  t.notMatch(html, /<script|alert\(1\)|onclick|javascript:/i);
});

t.test('the feed is described by the page: site name, description, canonical link, icon, advertised feeds', async (t) => {
  const feed = extractPage(page('blog-with-chrome.html'), { url: 'https://notes.example/blog/' });
  t.equal(feed.title, 'Field Notes');
  t.equal(feed.description, 'Notes from the field, weekly.');
  t.equal(feed.link, 'https://notes.example/blog/');
  t.equal(feed.icon, 'https://notes.example/static/icon-32.png');
  t.same(
    feed.feedLinks,
    [
      { url: 'https://notes.example/blog/feed.atom', type: 'atom', title: 'Field Notes' },
      { url: 'https://notes.example/comments/feed.xml', type: 'rss', title: 'Comments' },
    ],
    'the site feed before the comments feed',
  );
});

t.test('a page without an icon link gets the origin favicon', async (t) => {
  const html =
    '<title>x</title><ul><li><a href="/a">The first article on this page</a></li><li><a href="/b">The second article on this page</a></li></ul>';
  t.equal(extractPage(html, { url: 'https://site.example/list/' }).icon, 'https://site.example/favicon.ico');
});

t.test('a JSON-LD ItemList gives the items in position order, completed from the page', async (t) => {
  const feed = extractPage(page('json-ld-list.html'), { url: 'https://harbour.example/news/' });
  t.same(
    feed.items.map((item) => item.url),
    ['https://harbour.example/news/new-pier', 'https://harbour.example/news/ferry-timetable'],
  );
  const [pier, ferry] = feed.items;
  t.equal(pier?.title, 'A new pier opens', 'the stated headline');
  t.equal(pier?.date_published, '2024-05-01T09:00:00.000Z');
  t.same(pier?.authors, [{ name: 'Bo Lund' }]);
  t.equal(pier?.thumbnail, 'https://harbour.example/img/pier.jpg');
  t.equal(ferry?.title, 'The ferry timetable changes in June', 'a URL-only entry takes its title from the link on the page');
  t.equal(ferry?.description_text, 'Two more crossings on Sundays, one fewer at night.');
  t.equal(feed.title, 'Harbour News — latest', 'og:title when there is no og:site_name');
});

t.test('microformats h-entry posts become items', async (t) => {
  const feed = extractPage(page('h-entry.html'), { url: 'https://wren.example/' });
  t.same(
    feed.items.map((item) => [item.url, item.title, item.date_published]),
    [
      ['https://wren.example/2024/06/on-bells', 'On bells', '2024-06-02T00:00:00.000Z'],
      ['https://wren.example/2024/05/on-clocks', 'On clocks', null],
    ],
  );
  t.same(feed.items[0]?.authors, [{ name: 'Wren' }]);
  t.equal(feed.items[1]?.description_text, 'Clocks are quieter than you think.');
  t.same(feed.feedLinks, [{ url: 'https://wren.example/feed.json', type: 'json', title: '' }]);
});

t.test('a single article page is one item with the page picture', async (t) => {
  const html = `<html><head><title>Tides | Sea Blog</title>
    <meta property="og:type" content="article"><meta property="og:title" content="Why tides turn">
    <meta property="og:image" content="/img/tide.jpg"><meta property="article:published_time" content="2023-11-20T10:00:00Z">
    <meta name="description" content="Because of the moon."></head><body><article><p>Long text.</p></article></body></html>`;
  const feed = extractPage(html, { url: 'https://sea.example/tides' });
  t.equal(feed.items.length, 1);
  t.same(
    [feed.items[0]?.url, feed.items[0]?.title, feed.items[0]?.thumbnail, feed.items[0]?.date_published],
    ['https://sea.example/tides', 'Why tides turn', 'https://sea.example/img/tide.jpg', '2023-11-20T10:00:00.000Z'],
  );
});

t.test('a page with no articles that advertises a feed is returned with no items and that feed, for its reader to take', async (t) => {
  const html =
    '<html><head><link rel="alternate" type="application/rss+xml" href="/rss"></head><body><nav><a href="/a">Home</a><a href="/b">About</a></nav><p>Hello.</p></body></html>';
  const page = extractPage(html, { url: 'https://empty.example/' });
  t.same(page.items, []);
  t.match(page.feedLinks, [{ url: 'https://empty.example/rss', type: 'rss' }]);
});

t.test('a page with nothing that reads as articles, and no feed, says what was looked for and what to do', async (t) => {
  const html = '<html><head></head><body><nav><a href="/a">Home</a><a href="/b">About</a></nav><p>Hello.</p></body></html>';
  let caught: unknown;
  try {
    extractPage(html, { url: 'https://empty.example/' });
  } catch (error) {
    caught = error;
  }
  t.ok(isFeedmillError(caught) && caught.code === 'no_items_found', 'no_items_found');
  const message = caught instanceof Error ? caught.message : '';
  t.match(message, /repeated blocks/, 'says what was looked for');
  t.match(message, /point the feed at the page that lists the articles/, 'says what to do');
});
