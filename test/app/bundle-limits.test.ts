import t from 'tap';
import { addFeedToBundle, createBundle } from '../../src/app/bundles.js';
import { bundleFieldLimits } from '../../src/domain/field-limits.js';
import { noFilters } from '../../src/domain/keep-block.js';
import { createTestDeps } from '../fixtures/test-deps.js';

// The REST schema caps a bundle at 500 feeds; GraphQL and PUT reach the use case without it.
const principal = { accountId: 'alice', keyId: 'fmk_test', scopes: ['read', 'write'] as ('read' | 'write')[] };
const ids = (count: number) => Array.from({ length: count }, (_, i) => `fd_${String(i).padStart(16, '0')}`);

t.test('a bundle created with more feeds than the cap is refused before any feed is looked up', async (t) => {
  const env = createTestDeps();
  t.teardown(() => env.close());
  await t.rejects(createBundle(env.deps, principal, { name: 'Too big', feeds: ids(bundleFieldLimits.feeds + 1) }), {
    code: 'validation_failed',
    message: `Expected \`feeds\` to be a list of at most ${bundleFieldLimits.feeds} feeds, got ${bundleFieldLimits.feeds + 1} feeds`,
  });
});

t.test('a full bundle takes no new member, and adding a member it has is still harmless', async (t) => {
  const env = createTestDeps();
  t.teardown(() => env.close());
  const members = ids(bundleFieldLimits.feeds);
  const at = '2026-11-25T00:00:00.000Z';
  await env.deps.bundles.insert({
    id: '_AAAAAAAAAAAAAAAA',
    accountId: 'alice',
    name: 'Full',
    description: '',
    icon: '',
    feedIds: members,
    sort: 'last_added',
    filters: noFilters,
    createdAt: at,
    updatedAt: at,
  });
  await t.rejects(addFeedToBundle(env.deps, principal, '_AAAAAAAAAAAAAAAA', 'fd_BBBBBBBBBBBBBBBB'), {
    code: 'validation_failed',
    message: /at most 500 feeds, got 501 feeds/,
  });
  // A member already there passes the cap and fails only because the fake feed does not exist.
  await t.rejects(addFeedToBundle(env.deps, principal, '_AAAAAAAAAAAAAAAA', members[0] ?? ''), { code: 'feed_not_found' });
});
