export { createRedisBus, type RedisBus, type RedisBusOptions } from './redis-bus.js';
export { channelOfDatabase } from './channel.js';
export { createRedisChangeBus, type RedisChangeBus, type RedisChangeBusOptions } from './redis-change-bus.js';
