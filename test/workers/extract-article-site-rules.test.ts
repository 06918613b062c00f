import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { extractArticle } from '../../workers/extract-article.js';
import { siteRules } from '../../workers/extract-article/site-rules.js';
import { repoRoot } from '../fixtures/repo-root.js';

const fixture = (name: string): Uint8Array => readFileSync(join(repoRoot, 'test', 'fixtures', 'articles', name));

/** One fixture per shipped rule: the page, a URL on the rule's domain, and what the rule must give. */
const cases: { domain: string; file: string; url: string; present: string[]; absent: string[] }[] = [
  {
    domain: 'xkcd.com',
    file: 'xkcd.html',
    url: 'https://xkcd.com/2902/',
    present: ['Orbital Mechanics Homework', 'src="https://imgs.xkcd.com/comics/orbital_mechanics_homework.png"', 'TITLE-TEXT'],
    absent: ['NAV-', 'FOOTER-TEXT', 'Permanent link'],
  },
  {
    domain: 'smbc-comics.com',
    file: 'smbc-comics.html',
    url: 'https://www.smbc-comics.com/comic/entropy',
    present: [
      'src="https://www.smbc-comics.com/comics/1700000000-20260101.png"',
      'src="https://www.smbc-comics.com/comics/1700000000-after.png"',
    ],
    absent: ['NAV-', 'SIDEBAR-TEXT', 'FOOTER-TEXT', 'onclick', 'style='],
  },
  {
    domain: 'npr.org',
    file: 'npr.html',
    url: 'https://www.npr.org/2026/03/02/1234567/beekeepers-winter-losses',
    present: ['STORY-P1', 'STORY-P2', 'STORY-P3', 'src="https://media.npr.org/assets/img/hives.jpg"', 'Hives in the snow in Vermont.'],
    absent: ['RELATED-BOX', 'TOOLBAR-', 'CREDIT-TEXT', 'NAV-', 'FOOTER-TEXT'],
  },
  {
    domain: 'theregister.com',
    file: 'theregister.html',
    url: 'https://www.theregister.com/2026/03/02/sheep_cooling/',
    present: ['STANDFIRST', 'BODY-P1', 'BODY-P2', 'BODY-P3'],
    absent: ['AD-SLOT', 'MORE-LIKE-THIS', 'NAV-'],
  },
];

t.test('every shipped rule has a fixture here', async (t) => {
  t.same(cases.map((c) => c.domain).sort(), Object.keys(siteRules).sort());
});

for (const c of cases) {
  t.test(`${c.domain}: the rule picks the article and drops the rest`, async (t) => {
    const article = extractArticle(fixture(c.file), { url: c.url });
    if (article === null) throw new Error(`expected an article from ${c.file}, got null`);
    for (const marker of c.present) t.ok(article.content_html.includes(marker), `${marker} is in`);
    for (const marker of c.absent) t.notOk(article.content_html.includes(marker), `${marker} is out`);
  });
}

t.test('a rule applies on its domain and its subdomains only', async (t) => {
  const onSubdomain = extractArticle(fixture('xkcd.html'), { url: 'https://m.xkcd.com/2902/' });
  t.match(onSubdomain?.content_html ?? '', 'orbital_mechanics_homework.png', 'm.xkcd.com takes the xkcd.com rule');
  // Elsewhere the generic pass runs, and finds no article in a page that is one image.
  t.equal(
    extractArticle(fixture('xkcd.html'), { url: 'https://notxkcd.com/2902/' }),
    null,
    'a domain that merely ends in the name does not',
  );
  t.equal(
    extractArticle(fixture('xkcd.html'), { url: 'https://xkcd.com.example/2902/' }),
    null,
    'a domain that merely starts with it does not',
  );
});

t.test("a feed's own rules win over the shipped one", async (t) => {
  const own = extractArticle(fixture('theregister.html'), {
    url: 'https://www.theregister.com/2026/03/02/sheep_cooling/',
    rules: { content: '#body', remove: ['.adun'] },
  });
  if (own === null) throw new Error('expected an article, got null');
  t.notMatch(own.content_html, 'STANDFIRST', 'the own content selector, not the shipped one');
  t.match(own.content_html, 'MORE-LIKE-THIS', 'the own remove list, not the shipped one');
  t.notMatch(own.content_html, 'AD-SLOT');
});

t.test('a content selector that matches nothing falls back to the generic pass', async (t) => {
  const article = extractArticle(fixture('news-with-boilerplate.html'), {
    url: 'https://courier.example/news/2026/ferry-vote',
    rules: { content: '.no-such-container' },
  });
  t.match(article?.content_text ?? '', 'ARTICLE-P6');
});
