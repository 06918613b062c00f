import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { extractArticle } from '../../workers/extract-article.js';
import { repoRoot } from '../fixtures/repo-root.js';

const fixture = (name: string): Uint8Array => readFileSync(join(repoRoot, 'test', 'fixtures', 'articles', name));
const pageUrl = 'https://courier.example/news/2026/ferry-vote';

function newsArticle(): NonNullable<ReturnType<typeof extractArticle>> {
  const article = extractArticle(fixture('news-with-boilerplate.html'), { url: pageUrl });
  if (article === null) throw new Error('expected an article in news-with-boilerplate.html, got null');
  return article;
}

t.test('a news page: every article paragraph in, every piece of boilerplate out', async (t) => {
  const article = newsArticle();
  for (const marker of ['ARTICLE-P1', 'ARTICLE-P2', 'ARTICLE-P3', 'ARTICLE-P4', 'ARTICLE-P5', 'ARTICLE-P6']) {
    t.match(article.content_text, marker, `${marker} is in the text`);
  }
  for (const boilerplate of [
    'COOKIE-BANNER-TEXT',
    'NAV-LINK',
    'SHARE-BAR',
    'RELATED-LINK',
    'COMMENT-TEXT',
    'SIDEBAR-LINK',
    'NEWSLETTER-TEXT',
    'FOOTER-TEXT',
    'FOOTER-LINK',
    'TRACKER-SCRIPT-TEXT',
  ]) {
    t.notMatch(article.content_html, boilerplate, `${boilerplate} is not in the HTML`);
    t.notMatch(article.content_text, boilerplate, `${boilerplate} is not in the text`);
  }
});

t.test('figures, tables, code, quotes and lists are kept as elements', async (t) => {
  const article = newsArticle();
  t.match(
    article.content_html,
    /<figure>[\s\S]*<img [^>]*src="https:\/\/courier\.example\/news\/2026\/images\/ferry-at-dawn\.jpg"[\s\S]*<figcaption>FIGURE-CAPTION/,
  );
  t.match(article.content_html, /<table>[\s\S]*<th>Ward<\/th>[\s\S]*<td>TABLE-CELL-North Quay<\/td>/);
  t.match(article.content_html, /<pre><code>CODE-TEXT fare = base_fare/);
  t.match(article.content_html, /<blockquote>[\s\S]*QUOTE-TEXT/);
  t.match(article.content_html, /<ul>\s*<li>LIST-ITEM-1/);
});

t.test('relative links are resolved against the page URL and javascript: links lose their href', async (t) => {
  const article = newsArticle();
  t.match(
    article.content_html,
    '<a href="https://courier.example/documents/ferry-report.pdf">council&#39;s report</a>'.replace('&#39;', "'"),
  );
  t.notMatch(article.content_html, /javascript:/i);
  t.notMatch(article.content_html, /<script|<style|\son\w+=/i);
});

t.test('the metadata: title, byline, date, lead image, language', async (t) => {
  const article = newsArticle();
  t.equal(article.title, 'Harbour town votes to keep its ferry');
  t.equal(article.byline, 'Ines Marlow');
  t.equal(article.published, '2026-03-14T08:30:00.000Z');
  t.equal(article.lead_image, 'https://courier.example/media/ferry-lead.jpg');
  t.equal(article.language, 'en-GB');
});

t.test('a page labelled windows-1252 in <meta> is decoded by that label', async (t) => {
  const article = extractArticle(fixture('windows-1252.html'), { url: 'https://zeitung.example/fruehling' });
  if (article === null) throw new Error('expected an article, got null');
  t.match(article.content_text, 'Die Straßencafés öffnen wieder');
  t.match(article.content_text, '„Wir sind zufrieden“, sagt eine Gärtnerin');
  t.notMatch(article.content_text, '\ufffd');
  t.equal(article.language, 'de');
});

t.test('a page with no article gives null', async (t) => {
  t.equal(extractArticle(fixture('no-article.html'), { url: 'https://app.example/sign-in' }), null, 'a sign-in page');
  t.equal(extractArticle(new Uint8Array(0), { url: 'https://app.example/empty' }), null, 'an empty body');
  t.equal(extractArticle(Buffer.from('<p>Too short.</p>'), { url: 'https://app.example/short' }), null, 'one short line');
});

t.test('when the pruned pass finds too little, Readability runs on the page as it came', async (t) => {
  // The article has no <p> and sits in a block named like a share bar: pruning takes it.
  const article = extractArticle(fixture('no-paragraphs.html'), { url: 'https://allotment.example/notes' });
  if (article === null) throw new Error('expected an article, got null');
  for (const line of ['NO-P-LINE-1', 'NO-P-LINE-2', 'NO-P-LINE-3']) t.match(article.content_text, line);
  t.notMatch(article.content_text, 'NAV-');
});

t.test('a page whose article only its JSON-LD states gives that articleBody, as escaped paragraphs', async (t) => {
  const article = extractArticle(fixture('json-ld-only.html'), { url: 'https://railweekly.example/night-trains' });
  if (article === null) throw new Error('expected an article, got null');
  t.match(
    article.content_html,
    /^<p>STATED-P1 A sleeper service[^<]*<\/p>\n<p>STATED-P2 [^<]*&lt;script&gt;alert\(1\)&lt;\/script&gt; &lt;!-- not a comment --&gt;<\/p>$/,
  );
  t.equal(article.title, 'Night trains return to the Alps');
  t.equal(article.byline, 'Luca Brenner, Anna Weiss');
  t.equal(article.published, '2026-02-20T06:00:00.000Z');
  t.equal(article.lead_image, 'https://cdn.railweekly.example/night-train.jpg');
});
