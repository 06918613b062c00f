export { createRedisBus, type RedisBus, type RedisBusOptions } from './redis-bus.js';
