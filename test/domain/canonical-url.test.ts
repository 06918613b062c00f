import t from 'tap';
import { canonicalUrl } from '../../src/domain/canonical-url.js';

const story = canonicalUrl('https://example.com/news/story');

t.test('links to one article that differ only in how they were shared are one address', async (t) => {
  const variants: [string, string][] = [
    ['tracking parameters', 'https://example.com/news/story?utm_source=rss&utm_medium=feed&fbclid=x&gclid=y&msclkid=z&ocid=w'],
    ['a fragment', 'https://example.com/news/story#comments'],
    ['www.', 'https://www.example.com/news/story'],
    ['the scheme', 'http://example.com/news/story'],
    ['a trailing slash', 'https://example.com/news/story/'],
    ['a trailing /amp', 'https://example.com/news/story/amp'],
    ['a leading /amp/', 'https://example.com/amp/news/story'],
    ['?amp=1', 'https://example.com/news/story?amp=1'],
    ['a bare ?amp', 'https://example.com/news/story?amp'],
    ['?outputType=amp', 'https://example.com/news/story?outputType=amp'],
    ['an amp. host', 'https://amp.example.com/news/story'],
    ['the AMP cache', 'https://example-com.cdn.ampproject.org/c/s/example.com/news/story'],
    ['the host in capitals and the default port', 'HTTPS://Example.COM:443/news/story'],
    ['all at once', 'http://www.example.com/news/story/amp/?utm_campaign=a&amp=1#top'],
  ];
  for (const [what, url] of variants) t.equal(canonicalUrl(url), story, what);
  t.equal(canonicalUrl('https://example.com/news/story.amp.html'), canonicalUrl('https://example.com/news/story.html'), '.amp.html');
});

t.test('what tells two articles apart is kept', async (t) => {
  t.not(canonicalUrl('https://example.com/news/story?id=1'), canonicalUrl('https://example.com/news/story?id=2'), 'the query');
  t.not(canonicalUrl('https://example.com/News/Story'), story, 'the case of the path');
  t.not(canonicalUrl('https://example.org/news/story'), story, 'another site');
  t.not(canonicalUrl('https://blog.example.com/news/story'), story, 'another subdomain');
  t.not(canonicalUrl('https://example.com/news/story-2'), story, 'another path');
  t.not(
    canonicalUrl('https://example.com/news/example'),
    canonicalUrl('https://example.com/news/example/amplifier'),
    'a word beginning with amp',
  );
});

t.test('the rest of the query is compared in any order and as written', async (t) => {
  t.equal(canonicalUrl('https://example.com/p?b=2&a=1'), canonicalUrl('https://example.com/p?a=1&b=2&utm_source=x'));
  t.equal(canonicalUrl('https://example.com/p?q=a%20b'), '//example.com/p?q=a%20b');
});

t.test('a string that is no URL is compared as given', async (t) => {
  t.equal(canonicalUrl('  not a url '), 'not a url');
});
