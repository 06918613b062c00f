import t from 'tap';
import { articleRetryMs, maxArticleAttempts } from '../../src/jobs/retry-policy.js';

t.test('a slow, unreachable or busy site is tried again, with a doubling wait', async (t) => {
  t.equal(articleRetryMs({ code: 'upstream_timeout' }, 1), 30_000);
  t.equal(articleRetryMs({ code: 'source_unreachable' }, 2), 60_000);
  t.equal(articleRetryMs({ code: 'upstream_status', status: 503 }, 1), 30_000);
  t.equal(articleRetryMs({ code: 'upstream_status', status: 429 }, 1), 30_000);
});

t.test('tries end after maxArticleAttempts', async (t) => {
  t.equal(articleRetryMs({ code: 'upstream_timeout' }, maxArticleAttempts), null);
});

t.test('a page that is gone, refused, not HTML or holds no article is not fetched again', async (t) => {
  for (const failure of [
    { code: 'upstream_status', status: 404 },
    { code: 'upstream_status', status: 410 },
    { code: 'address_not_allowed' },
    { code: 'body_too_large' },
    { code: 'unsupported_content_type' },
    { code: 'no_article_found' },
  ]) {
    t.equal(articleRetryMs(failure, 1), null, JSON.stringify(failure));
  }
});
