export { createBullmqScheduler } from './bullmq-scheduler.js';
export type { BullmqSchedulerOptions } from './options.js';
