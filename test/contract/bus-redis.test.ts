import { randomBytes } from 'node:crypto';
import t from 'tap';
import { createRedisBus } from '../../src/adapters/redis-bus/index.js';
import { busContract } from './bus.js';
import { requireRedis } from './redis-test-options.js';

// Fails (never skips) when FEEDMILL_TEST_REDIS_URL is unset or Redis does not answer.
const url = await requireRedis();

// Two buses on one channel of a real Redis, as a worker and an API replica would hold them; each
// test gets a channel of its own.
busContract(t, 'redis', async (onError) => {
  const channel = `feedmill-test:${randomBytes(5).toString('hex')}`;
  const publisher = createRedisBus({ url, channel, onError });
  const listener = createRedisBus({ url, channel, onError });
  await Promise.all([publisher.ready(), listener.ready()]);
  return {
    publisher,
    listener,
    close: async () => {
      await Promise.all([publisher.close(), listener.close()]);
    },
  };
});
