import t from 'tap';
import { createBullmqScheduler } from '../../src/adapters/bullmq/index.js';
import { deliveryQueueHandler } from '../../src/jobs/delivery-queue.js';
import { removeTestQueue, requireRedis, testPrefix } from '../contract/redis-test-options.js';
import { publicUrl, startHubStack } from '../fixtures/websub-hub.js';
import { retryDelayMs } from '../../src/jobs/retry-policy.js';

// Cluster mode: the delivery queue is BullMQ, run by two workers. Each change reaches the
// subscriber once, as one distribution job, whichever worker takes it.
const url = await requireRedis();
const prefix = testPrefix();
const queue = (): ReturnType<typeof createBullmqScheduler> =>
  createBullmqScheduler({ connection: url, queue: 'delivery', prefix, concurrency: 2, retryDelay: retryDelayMs });
const first = queue();
const second = queue();
const stack = await startHubStack(undefined, { deliveryScheduler: first });
await second.start(deliveryQueueHandler(stack.env.deps));
t.teardown(async () => {
  await first.close();
  await second.close();
  await removeTestQueue(url, prefix, 'delivery');
  await stack.close();
});

t.test('each change is distributed once, as a job of the shared queue', async (t) => {
  const topic = `${publicUrl}/feeds/${stack.feedId}.xml`;
  await stack.subscribe(topic, '/cluster');
  for (const round of [1, 2, 3]) {
    await stack.change(`Cluster post ${round}`);
    const notifications = await stack.subscriber.notified('/cluster', round);
    t.match(notifications.at(-1)?.body.toString(), `Cluster post ${round}`);
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.equal(stack.subscriber.notifications.filter((n) => n.path === '/cluster').length, 3, 'one notification per change, never two');
});
