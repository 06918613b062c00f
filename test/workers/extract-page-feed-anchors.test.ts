import t from 'tap';
import { extractPage } from '../../workers/extract-page.js';

t.test('links to feeds in the page follow the advertised ones, by type or by a feed-like path', async (t) => {
  const page = extractPage(
    `<html><head><title>Blog</title><link rel="alternate" type="application/atom+xml" title="Posts" href="/atom.xml"></head>
<body><nav><a href="/about">About</a> <a href="/atom.xml">Atom</a> <a href="/news/rss">News (RSS)</a>
<a href="/podcast.json" type="application/feed+json">Podcast</a> <a href="/feed-reader-tips">Tips</a></nav></body></html>`,
    { url: 'https://blog.example/' },
  );
  t.same(page.feedLinks, [
    { url: 'https://blog.example/atom.xml', type: 'atom', title: 'Posts' },
    { url: 'https://blog.example/news/rss', type: 'rss', title: 'News (RSS)' },
    { url: 'https://blog.example/podcast.json', type: 'json', title: 'Podcast' },
  ]);
});
