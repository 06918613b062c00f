// @fastify/rate-limit ships its two stores without type declarations; both implement the
// plugin's documented store interface.
declare module '@fastify/rate-limit/store/LocalStore.js' {
  import type { FastifyRateLimitStore } from '@fastify/rate-limit';
  const LocalStore: new (continueExceeding?: boolean, exponentialBackoff?: boolean, cache?: number) => FastifyRateLimitStore;
  export default LocalStore;
}
declare module '@fastify/rate-limit/store/RedisStore.js' {
  import type { FastifyRateLimitStore, RateLimitPluginOptions } from '@fastify/rate-limit';
  const RedisStore: new (
    continueExceeding: boolean | undefined,
    exponentialBackoff: boolean | undefined,
    redis: NonNullable<RateLimitPluginOptions['redis']>,
    key?: string,
  ) => FastifyRateLimitStore;
  export default RedisStore;
}
