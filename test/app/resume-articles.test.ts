import t from 'tap';
import { resumeArticles } from '../../src/app/article-jobs.js';
import { defaultFeedSettings, type Feed } from '../../src/domain/feed.js';
import type { ItemArticle } from '../../src/domain/item-article.js';
import type { ItemStore } from '../../src/ports/item-store.js';
import { createTestDeps } from '../fixtures/test-deps.js';

// A worker's start resumes the article fetches still owed, and asks for the articles of only the
// feeds that have any: at 100,000 feeds a query for each was most of the start (bench/README.md "scale").
const env = createTestDeps();
t.teardown(() => env.close());

const feed = (id: string): Feed => ({
  id,
  accountId: 'acct-1',
  title: id,
  description: '',
  icon: '',
  sourceUrl: `https://example.com/${id}`,
  fetchUrl: `https://example.com/${id}`,
  link: 'https://example.com/',
  createdAt: '2024-03-01T00:00:00.000Z',
  updatedAt: '2024-03-01T00:00:00.000Z',
  settings: { ...defaultFeedSettings, fullText: true },
  fetch: { errorCount: 0, unchangedStreak: 0, nextFetchAt: new Date(env.deps.clock.now().getTime() + 3_600_000).toISOString() },
});
const article = (fields: Partial<ItemArticle>): ItemArticle => ({
  url: 'https://example.com/posts/1',
  status: 'pending',
  error: null,
  html: '',
  text: '',
  attempts: 0,
  announced: false,
  since: '2024-03-01T00:00:00.000Z',
  ...fields,
});

for (const id of ['waiting', 'settled', 'without']) await env.deps.feeds.insert(feed(id));
await env.deps.items.saveArticle('waiting', 'g:1', article({}));
await env.deps.items.saveArticle('waiting', 'g:2', article({ status: 'ok', announced: true }));
await env.deps.items.saveArticle('settled', 'g:1', article({ status: 'failed', announced: true }));

t.test('the pending articles get their jobs; only feeds with article records are asked for theirs', async (t) => {
  const asked: string[] = [];
  const items: ItemStore = {
    ...env.deps.items,
    articles: (feedId) => {
      asked.push(feedId);
      return env.deps.items.articles(feedId);
    },
  };
  t.equal(await resumeArticles({ ...env.deps, items }), 1, 'the one article still pending');
  t.equal(env.deps.articleScheduler.size, 1, 'has its job');
  t.same(asked.sort(), ['settled', 'waiting'], 'the feed without article records was not asked');
  await resumeArticles({ ...env.deps, items });
  t.equal(env.deps.articleScheduler.size, 1, 'a second start places nothing more');
});
