import t from 'tap';
import { budgetedFetcher } from '../../src/main/fetch-budget.js';
import { isFeedmillError } from '../../src/domain/errors.js';
import type { Fetcher } from '../../src/ports/fetcher.js';

t.test('a budgeted fetcher makes at most its budget of fetches, then refuses as a source failure', async (t) => {
  const asked: string[] = [];
  const fetcher: Fetcher = {
    fetch: async (request) => {
      asked.push(request.url);
      return { status: 304, url: request.url };
    },
    close: async () => undefined,
  };
  const budgeted = budgetedFetcher(fetcher, 3);
  for (const n of [1, 2, 3]) await budgeted.fetch({ url: `https://example.test/${n}` });
  const refused = await budgeted.fetch({ url: 'https://example.test/4' }).catch((error: unknown) => error);
  t.ok(isFeedmillError(refused) && refused.code === 'source_unreachable', 'the fourth is refused');
  t.match(refused, { message: /at most 3 addresses/ });
  t.same(asked, ['https://example.test/1', 'https://example.test/2', 'https://example.test/3'], 'the fourth never reached the fetcher');
  await budgetedFetcher(fetcher, 3).fetch({ url: 'https://example.test/5' });
  t.equal(asked.length, 4, 'each call gets a budget of its own');
});
