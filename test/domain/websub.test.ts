import { createHmac } from 'node:crypto';
import t from 'tap';
import { isFeedmillError } from '../../src/domain/errors.js';
import { checkedSecret, grantedLease, hubSignature, leaseLimits, parseTopic, websubSubscriptionId } from '../../src/domain/websub.js';

const base = 'https://feeds.example.test';
const feed = 'AbCdEfGhIjKlMn-_';
const bundle = `_${feed}`;
const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (error) {
    return isFeedmillError(error) ? error.code : 'not a FeedmillError';
  }
  return undefined;
};

t.test('a topic is a hosted address of a feed or bundle, in any format or none', async (t) => {
  t.same(parseTopic(base, `${base}/feeds/${feed}.xml`), { url: `${base}/feeds/${feed}.xml`, id: feed, format: 'xml' });
  for (const format of ['atom', 'json', 'csv'] as const) t.equal(parseTopic(base, `${base}/feeds/${bundle}.${format}`).format, format);
  t.same(
    parseTopic(`${base}/`, `${base}/feeds/${bundle}`),
    { url: `${base}/feeds/${bundle}`, id: bundle, format: 'xml' },
    'extensionless is RSS',
  );
  for (const other of [
    `https://elsewhere.example/feeds/${feed}.xml`,
    `${base}/feeds/${feed}.html`,
    `${base}/feeds/${feed}.xml?x=1`,
    `${base}/feeds/short.xml`,
    `${base}/v1/feeds/${feed}`,
    `${base}.evil.example/feeds/${feed}.xml`,
  ]) {
    t.equal(
      codeOf(() => parseTopic(base, other)),
      'feed_not_found',
      other,
    );
  }
});

t.test('the lease granted: the default when none is asked, else clamped; a non-number is refused', async (t) => {
  t.equal(grantedLease(undefined), leaseLimits.defaultSeconds);
  t.equal(grantedLease(''), leaseLimits.defaultSeconds);
  t.equal(grantedLease('0'), leaseLimits.minSeconds);
  t.equal(grantedLease('86400'), 86_400);
  t.equal(grantedLease('9999999999'), leaseLimits.maxSeconds);
  for (const bad of ['-1', '1.5', '1e6', ' 60', 'week'])
    t.equal(
      codeOf(() => grantedLease(bad)),
      'validation_failed',
      bad,
    );
});

t.test('a secret has fewer than 200 bytes, counted in UTF-8', async (t) => {
  t.equal(checkedSecret(undefined), null);
  t.equal(checkedSecret(''), null);
  t.equal(checkedSecret('x'.repeat(199)), 'x'.repeat(199));
  t.equal(
    codeOf(() => checkedSecret('x'.repeat(200))),
    'validation_failed',
  );
  t.equal(
    codeOf(() => checkedSecret('é'.repeat(100))),
    'validation_failed',
    '100 characters, 200 bytes',
  );
});

t.test('signatures and subscription ids', async (t) => {
  t.equal(hubSignature('k', 'body'), `sha256=${createHmac('sha256', 'k').update('body').digest('hex')}`);
  t.equal(websubSubscriptionId('a', 'b'), websubSubscriptionId('a', 'b'));
  t.not(websubSubscriptionId('a', 'b'), websubSubscriptionId('a', 'c'));
  t.match(websubSubscriptionId('a', 'b'), /^wss_[A-Za-z0-9_-]{24}$/);
});
