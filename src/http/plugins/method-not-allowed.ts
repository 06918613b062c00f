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
 * odd method (`QUERY`, `TRACE`) on a known path gets 405 whatever else it carries. A path that is a
 * route of its own (`/v1/feeds/preview`) is that route's alone: its Allow names only its methods,
 * and a method it lacks is 405 even where a parametric route (`/v1/feeds/:id`) would take the path.
 */
export function registerMethodNotAllowed(app: FastifyInstance): void {
  const known = new Map<string, KnownPath>();
  app.addHook('onRoute', (route) => {
    const key = route.url.replace(/\/+$/, '') || '/';
    const entry = known.get(key) ?? { pattern: patternOf(route.url), methods: new Set<string>() };
    for (const method of [route.method].flat()) entry.methods.add(method);
    known.set(key, entry);
  });
  const isStatic = (key: string): boolean => !key.includes(':') && !key.includes('*');
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const key = path.replace(/\/+$/, '') || '/';
    const staticRoute = isStatic(key) ? known.get(key) : undefined;
    if (staticRoute?.methods.has(request.method) ?? !request.is404) return;
    const allowed = new Set<string>(staticRoute?.methods);
    if (staticRoute === undefined) {
      for (const entry of known.values()) if (entry.pattern.test(path)) for (const method of entry.methods) allowed.add(method);
    }
    if (allowed.size === 0) return;
    const allow = [...allowed].sort().join(', ');
    void reply.header('allow', allow);
    throw new FeedmillError('method_not_allowed', `Expected one of ${allow} on ${path}, got ${request.method}`);
  });
}
