import type { FastifyInstance } from 'fastify';
import { FeedmillError } from '../../domain/errors.js';

interface KnownPath {
  readonly pattern: RegExp;
  readonly methods: Set<string>;
}

/** `/v1/feeds/:id/settings` → a pattern of its concrete paths; a trailing slash is optional, as Fastify routes it. */
function patternOf(url: string): RegExp {
  const segments = url
    .replace(/\/+$/, '')
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment === '*' ? '.*' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${segments.join('/')}/?$`);
}

/**
 * RFC 9110 §15.5.6: a method the path does not support is 405 with an `Allow` header naming the ones
 * it does, not 404. Answered in `onRequest`, before authentication and before a body is read, so an
 * odd method (`QUERY`, `TRACE`) on a known path gets 405 whatever else it carries.
 */
export function registerMethodNotAllowed(app: FastifyInstance): void {
  const known = new Map<string, KnownPath>();
  app.addHook('onRoute', (route) => {
    const key = route.url.replace(/\/+$/, '') || '/';
    const entry = known.get(key) ?? { pattern: patternOf(route.url), methods: new Set<string>() };
    for (const method of [route.method].flat()) entry.methods.add(method);
    known.set(key, entry);
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!request.is404) return;
    const path = request.url.split('?')[0] ?? '';
    const allowed = new Set<string>();
    for (const entry of known.values()) if (entry.pattern.test(path)) for (const method of entry.methods) allowed.add(method);
    if (allowed.size === 0) return;
    const allow = [...allowed].sort().join(', ');
    void reply.header('allow', allow);
    throw new FeedmillError('method_not_allowed', `Expected one of ${allow} on ${path}, got ${request.method}`);
  });
}
