import t from 'tap';
import extractArticleTask from '../../workers/extract-article-task.js';

const prose = 'The library reopens on Monday after a year of repairs to its roof and reading rooms. '.repeat(4);

t.test('the task returns the article as data, with the feed rules applied', async (t) => {
  const body = Buffer.from(`<html><body><div id="main"><p>${prose}</p><p class="ad">AD-TEXT</p></div></body></html>`);
  const result = extractArticleTask({ body, url: 'https://library.example/news', rules: { content: '#main', remove: ['.ad'] } });
  t.equal(result.ok, true);
  t.match(result.ok ? result.article?.content_text : '', 'The library reopens on Monday');
  t.notMatch(result.ok ? result.article?.content_html : '', 'AD-TEXT');
});

t.test('no article is ok with null, not a failure', async (t) => {
  t.same(extractArticleTask({ body: Buffer.from('<p>hi</p>'), url: 'https://library.example/' }), { ok: true, article: null });
});

t.test('the Content-Type charset decides the decoding', async (t) => {
  const body = Buffer.from(`<html><body><p>Caf\xe9 ${prose}</p></body></html>`, 'latin1');
  const result = extractArticleTask({ body, url: 'https://library.example/cafe', contentType: 'text/html; charset=iso-8859-1' });
  t.match(result.ok ? result.article?.content_text : '', /^Café The library/);
});
