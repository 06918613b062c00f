import { readFileSync } from 'node:fs';
import t from 'tap';
import { isFeedmillError } from '../../src/domain/errors.js';
import { extractPage } from '../../workers/extract-page.js';
import extractPageTask from '../../workers/extract-page-task.js';
import { repoRoot } from '../fixtures/repo-root.js';

const listing = readFileSync(`${repoRoot}/test/fixtures/pages/selectors-listing.html`, 'utf8');
const url = 'https://gazette.example/board/';
const selectors = {
  item: '.entry',
  title: '.headline',
  link: '@data-href',
  date: '.when, time',
  summary: '.blurb',
  image: '.pic@data-src',
  author: '.by',
};

t.test('selectors name exactly the rows of a page the heuristics cannot read', async (t) => {
  t.same(extractPage(listing, { url }).items, [], 'the heuristics find no items here (the page only advertises a feed)');
  const page = extractPage(listing, { url, selectors });
  t.same(
    page.items.map((item) => [item.title, item.url, item.date_published]),
    [
      ['Winter ferry timetable', 'https://gazette.example/notices/ferry-timetable', '2024-03-05T00:00:00.000Z'],
      ['Pier works this week', 'https://gazette.example/board/notices/pier-works', '2024-03-04T08:30:00.000Z'],
      ['Lost buoy found', 'https://gazette.example/notices/lost-buoy', '2024-03-02T00:00:00.000Z'],
    ],
    'attributes read, relative links resolved against the page, dates from datetime and from text',
  );
  t.same(page.feedLinks, [], 'no advertised feed is offered to override them');
  const first = page.items[0];
  t.equal(first?.thumbnail, 'https://gazette.example/img/ferry.jpg');
  t.same(first?.authors, [{ name: 'Harbour master' }]);
  t.equal(first?.description_text, 'The winter timetable starts on Monday. Download it.');
  t.match(
    first?.description_html,
    /<a href="https:\/\/gazette\.example\/timetables\/winter\.pdf">/,
    'the teaser is sanitised HTML with absolute links',
  );
  t.equal(page.title, 'Harbour Gazette — Notices');
});

t.test('defaults: the first link gives title and url, the first time its date, the first image its picture', async (t) => {
  const html = `<ul>
    <li class="row"><a href="/a/1">First</a> <time datetime="2024-01-02">2 Jan</time> <img src="/i/1.png" srcset="/i/1-small.png 200w, /i/1-big.png 800w"></li>
    <li class="row"><img data-src="/i/2.png"><a href="https://other.example/2">Second</a> <span>no date</span></li>
    <li class="row">nothing to read here</li>
  </ul>`;
  const page = extractPage(html, { url: 'https://site.example/list', selectors: { item: 'li.row' } });
  t.same(
    page.items.map((item) => [item.title, item.url, item.date_published, item.thumbnail]),
    [
      ['First', 'https://site.example/a/1', '2024-01-02T00:00:00.000Z', 'https://site.example/i/1-big.png'],
      ['Second', 'https://other.example/2', null, 'https://site.example/i/2.png'],
    ],
  );
});

t.test('a link selector reads the href of the match or of its first link; the item may be the link itself', async (t) => {
  const html = `<div class="card"><h3><a href="/p/1">One</a></h3><a class="more" href="/p/1#more">more</a></div>
    <a class="card" href="/p/2"><b>Two</b></a>`;
  const page = extractPage(html, { url: 'https://site.example/', selectors: { item: '.card', title: 'h3, b', link: 'h3' } });
  t.same(
    page.items.map((item) => [item.title, item.url]),
    [
      ['One', 'https://site.example/p/1'],
      ['Two', ''],
    ],
    'the second card has no h3: its link is empty, its title still read',
  );
  const own = extractPage(html, { url: 'https://site.example/', selectors: { item: 'a.card', link: '@href', image: 'img@srcset' } });
  t.same(
    own.items.map((item) => item.url),
    ['https://site.example/p/2'],
  );
});

t.test('unsafe and unusable links are dropped like any other link', async (t) => {
  const html = `<p class="x" data-u="javascript:alert(1)"><a href="javascript:alert(2)">Bad</a></p>`;
  const page = extractPage(html, { url: 'https://site.example/', selectors: { item: '.x', link: '@data-u' } });
  t.same(
    page.items.map((item) => [item.title, item.url]),
    [['Bad', '']],
  );
});

t.test('selectors that match nothing are no_items_found, even on a page that advertises a feed', async (t) => {
  let caught: unknown;
  try {
    extractPage(listing, { url, selectors: { item: '.no-such-thing' } });
  } catch (error) {
    caught = error;
  }
  t.ok(isFeedmillError(caught) && caught.code === 'no_items_found', 'no_items_found');
  t.match(caught, { message: /no element matching `selectors\.item` \(\.no-such-thing\)/ });
});

t.test('in the pool task, selectors win over a built-in extractor', async (t) => {
  const result = extractPageTask({ body: Buffer.from(listing), url, contentType: 'text/html', extractor: 'telegram-channel', selectors });
  t.ok(result.ok);
  if (result.ok)
    t.same(
      result.page.items.map((item) => item.title),
      ['Winter ferry timetable', 'Pier works this week', 'Lost buoy found'],
    );
  const empty = extractPageTask({ body: Buffer.from(listing), url, selectors: { item: 'blink' } });
  t.same(empty.ok ? 'ok' : empty.code, 'no_items_found', 'a refusal comes back as data');
});
