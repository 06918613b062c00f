import t from 'tap';
import { createPrometheusMetrics } from '../../../src/adapters/prometheus/metrics.js';

const line = (body: string, series: string): number | undefined => {
  const found = body.split('\n').find((text) => text.startsWith(`${series} `));
  return found === undefined ? undefined : Number(found.slice(series.length + 1));
};

t.test('feeds by state: each feed counts once, in the state its last fetch left it, until its next planned fetch', async (t) => {
  let now = Date.parse('2026-11-25T10:00:00.000Z');
  const metrics = createPrometheusMetrics({ role: 'test', defaults: false, now: () => now });
  const at = (minutes: number) => new Date(Date.parse('2026-11-25T10:00:00.000Z') + minutes * 60_000);
  metrics.feedState('a', 'active', at(5));
  metrics.feedState('b', 'active', at(5));
  metrics.feedState('c', 'failing', at(30));
  metrics.feedState('b', 'failing', at(10));
  let body = (await metrics.render()).body;
  t.equal(line(body, 'feedmill_feeds{state="active",role="test"}'), 1);
  t.equal(line(body, 'feedmill_feeds{state="failing",role="test"}'), 2, 'b moved from active to failing');
  t.equal(line(body, 'feedmill_feeds{state="paused",role="test"}'), 0, 'every state is shown, empty ones as 0');
  now = at(6).getTime();
  body = (await metrics.render()).body;
  t.equal(line(body, 'feedmill_feeds{state="active",role="test"}'), 0, "a's next fetch is due: whoever fetches it counts it from then");
  metrics.feedRemoved('c');
  body = (await metrics.render()).body;
  t.equal(line(body, 'feedmill_feeds{state="failing",role="test"}'), 1, 'a deleted feed is not counted');
});

t.test('fetches are counted per host and outcome; hosts past the busiest few count as `other`', async (t) => {
  const metrics = createPrometheusMetrics({ role: 'test', defaults: false, namedHosts: 1 });
  const refresh = (host: string, outcome: string) => metrics.refresh({ outcome, host, seconds: 0.1, fresh: 0, changed: 0 });
  refresh('a.example', 'changed');
  refresh('a.example', 'upstream_status');
  refresh('b.example', 'changed');
  let body = (await metrics.render()).body;
  t.equal(line(body, 'feedmill_fetches_total{host="a.example",outcome="changed",role="test"}'), 1);
  t.equal(line(body, 'feedmill_fetches_total{host="a.example",outcome="upstream_status",role="test"}'), 1);
  t.equal(line(body, 'feedmill_fetches_total{host="other",outcome="changed",role="test"}'), 1);
  t.notMatch(body, 'b.example');
  for (let n = 0; n < 5; n += 1) refresh('b.example', 'not_modified');
  body = (await metrics.render()).body;
  t.equal(
    line(body, 'feedmill_fetches_total{host="b.example",outcome="not_modified",role="test"}'),
    3,
    'b overtook a and has its own series from then on',
  );
  t.notMatch(body, 'a.example', "a's series are gone: the label set stays bounded");
});

t.test('a labelled gauge shows one series per key read at scrape time, and none for a key gone', async (t) => {
  const metrics = createPrometheusMetrics({ role: 'test', defaults: false });
  let sizes: Record<string, number> = { refresh: 3, 'refresh-render': 1 };
  metrics.labelledGauge('feedmill_refresh_queue_size', 'Feed refreshes by queue.', 'queue', () => sizes);
  let body = (await metrics.render()).body;
  t.equal(line(body, 'feedmill_refresh_queue_size{queue="refresh",role="test"}'), 3);
  t.equal(line(body, 'feedmill_refresh_queue_size{queue="refresh-render",role="test"}'), 1);
  sizes = { refresh: 0 };
  body = (await metrics.render()).body;
  t.equal(line(body, 'feedmill_refresh_queue_size{queue="refresh",role="test"}'), 0);
  t.equal(line(body, 'feedmill_refresh_queue_size{queue="refresh-render",role="test"}'), undefined);
});
