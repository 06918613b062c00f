/**
 * Every worker wakes when the earliest delayed job falls due and asks Redis for a job, whether or
 * not another worker took it first. With due times spread evenly, as polling spreads them, each
 * worker paid a wake-up and a fetch for every refresh of the queue, so each worker added made every
 * refresh dearer (bench/README.md "scale", "Workers that wake for every due time"). Due times handed
 * to BullMQ are rounded up to this grid: the jobs of one step fall due together, and one wake-up
 * per worker fetches them all. A job still never runs before the time asked; it may run up to one
 * step after it. (A job moved earlier lands a millisecond or two past its step: BullMQ's
 * `changeDelay` takes a delay and reads its own clock.)
 */
export const wakeGridMs = 100;

/**
 * When to file a job asked for `at` (epoch ms): the first step of the grid at or after it. A job
 * due now or earlier is filed as asked: it goes straight to the waiting list, which wakes a worker
 * at once, and holding it back would only add latency (a webhook delivery, a new feed's refresh).
 */
export const onWakeGrid = (at: number, now = Date.now()): number => (at <= now ? at : Math.ceil(at / wakeGridMs) * wakeGridMs);
