import t from 'tap';
import { defaultFeedSettings, type FeedSettings, type FetchState } from '../../src/domain/feed.js';
import { feedHealth } from '../../src/domain/feed-health.js';

const health = (fetch: Partial<FetchState>, settings: Partial<FeedSettings> = {}) =>
  feedHealth({ settings: { ...defaultFeedSettings, ...settings }, fetch: { errorCount: 0, unchangedStreak: 0, ...fetch } });

t.test('a feed whose last fetch brought news is active, and says when it fetched and will fetch again', async (t) => {
  t.same(
    health({
      lastFetchedAt: '2026-11-25T10:00:00.000Z',
      lastSuccessAt: '2026-11-25T10:00:00.000Z',
      nextFetchAt: '2026-11-25T10:05:00.000Z',
      lastStatus: 'changed',
      lastError: null,
    }),
    {
      state: 'active',
      lastFetchedAt: '2026-11-25T10:00:00.000Z',
      lastSuccessAt: '2026-11-25T10:00:00.000Z',
      nextFetchAt: '2026-11-25T10:05:00.000Z',
      lastOutcome: 'changed',
      consecutiveErrors: 0,
      lastError: null,
      disabled: null,
    },
  );
});

t.test('a feed whose last fetch failed is failing, with the error and the last success before it', async (t) => {
  const failing = health({
    lastFetchedAt: '2026-11-25T11:00:00.000Z',
    lastSuccessAt: '2026-11-25T10:00:00.000Z',
    lastStatus: 'upstream_status',
    lastError: { code: 'upstream_status', message: 'The source answered 500' },
    errorCount: 3,
  });
  t.equal(failing.state, 'failing');
  t.equal(failing.consecutiveErrors, 3);
  t.equal(failing.lastOutcome, 'upstream_status', 'the outcome is the error code');
  t.same(failing.lastError, { code: 'upstream_status', message: 'The source answered 500' });
  t.equal(failing.lastSuccessAt, '2026-11-25T10:00:00.000Z');
});

t.test('each success outcome is shown as recorded', async (t) => {
  for (const outcome of ['changed', 'unchanged', 'not_modified']) t.equal(health({ lastStatus: outcome }).lastOutcome, outcome);
});

t.test('states stored before unchanged was told apart say `ok`: the unchanged streak tells which it was', async (t) => {
  t.equal(health({ lastStatus: 'ok', unchangedStreak: 0 }).lastOutcome, 'changed', 'a streak of 0: the refresh had news');
  t.equal(health({ lastStatus: 'ok', unchangedStreak: 4 }).lastOutcome, 'unchanged');
});

t.test('fields older states lack are null, never absent', async (t) => {
  t.same(health({}), {
    state: 'active',
    lastFetchedAt: null,
    lastSuccessAt: null,
    nextFetchAt: null,
    lastOutcome: null,
    consecutiveErrors: 0,
    lastError: null,
    disabled: null,
  });
  t.equal(health({ errorCount: 1, lastStatus: 'upstream_timeout' }).lastError, null, 'a failure stored without its error shows none');
});

t.test('a paused feed says paused, a disabled one disabled with why and since when', async (t) => {
  t.equal(health({ errorCount: 3 }, { paused: true }).state, 'paused', 'pausing wins over failing');
  const disabled = health({ errorCount: 9, disabled: { at: '2026-11-25T10:00:00.000Z', reason: 'Failing since …' } });
  t.equal(disabled.state, 'disabled');
  t.same(disabled.disabled, { at: '2026-11-25T10:00:00.000Z', reason: 'Failing since …' });
  t.equal(
    health({ errorCount: 9, disabled: { at: '2026-11-25T10:00:00.000Z', reason: 'x' } }, { paused: true }).disabled,
    null,
    'a paused feed shows no disable',
  );
});
