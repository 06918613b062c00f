import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { AppDeps } from '../app/deps.js';
import { resumeSession } from '../app/sessions.js';
import { statusOf } from '../web/status.js';
import { FeedmillError } from '../domain/errors.js';
import type { Assets } from './assets.js';
import { sendPage, type DashboardOptions } from './context.js';
import { errorPage } from './pages/error.js';
import { fieldOf, type FormBody } from './request.js';
import { bundleRoutes } from './routes/bundles.js';
import { eventRoutes } from './routes/events.js';
import { feedRoutes } from './routes/feeds.js';
import { keyRoutes } from './routes/keys.js';
import { pickerRoutes } from './routes/picker.js';
import { signInRoutes } from './routes/sign-in.js';
import { webhookRoutes } from './routes/webhooks.js';
import { csrfTokenMatches, sameOrigin, sessionCookie } from './session-cookie.js';

const signInAddress = (next: string): string => `/dashboard/sign-in?next=${encodeURIComponent(next)}`;

/** Where a person whose session ended mid-form returns to: the page the form was on. */
function returnPath(request: FastifyRequest): string {
  if (request.method === 'GET') return request.url;
  const referer = request.headers.referer;
  try {
    const url = referer ? new URL(referer) : undefined;
    if (url && url.host === request.host) return url.pathname + url.search;
  } catch {
    // not a URL: fall through to the feeds page
  }
  return '/dashboard/feeds';
}

/**
 * Sessions and CSRF for every dashboard route: a request without a live session is sent to sign in
 * (and back afterwards); a state-changing request must come from our own origin and, once signed
 * in, carry the session's form token.
 */
function registerSessionHooks(app: FastifyInstance, deps: AppDeps): void {
  app.decorateRequest('signedIn', null);
  app.addHook('onRequest', async (request, reply) => {
    const changes = request.method !== 'GET' && request.method !== 'HEAD';
    if (changes && !sameOrigin(request)) {
      throw new FeedmillError(
        'forbidden',
        'This form was sent from another site, or without an Origin header; reload the page and send it again',
      );
    }
    if (request.routeOptions.config.dashboardPublic) return;
    const token = request.cookies[sessionCookie];
    request.signedIn = token ? await resumeSession(deps, token) : null;
    if (!request.signedIn) return reply.redirect(signInAddress(returnPath(request)), 303);
  });
  app.addHook('preHandler', async (request) => {
    const changes = request.method !== 'GET' && request.method !== 'HEAD';
    if (!changes || !request.signedIn) return;
    const sent = fieldOf(request.body as FormBody | undefined, '_csrf');
    if (!csrfTokenMatches(deps.settings.secretKey, request.signedIn.session.id, sent)) {
      throw new FeedmillError(
        'forbidden',
        'This form is out of date (it belongs to an earlier session); reload the page and send it again',
      );
    }
  });
}

function registerErrorPages(app: FastifyInstance, assets: Assets): void {
  app.setErrorHandler(async (error, request, reply) => {
    const viewer = request.signedIn
      ? { email: request.signedIn.session.email, accountId: request.signedIn.session.accountId, csrf: '' }
      : undefined;
    if (error instanceof FeedmillError) {
      const status = statusOf[error.code];
      const heading =
        status === 404 ? 'Not found' : status === 403 ? 'Not allowed' : status === 429 ? 'Too many requests' : 'Something went wrong';
      if (error.details.retryAfter !== undefined) void reply.header('retry-after', String(error.details.retryAfter));
      return sendPage(reply, errorPage(assets, viewer, heading, error.message), status);
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      return sendPage(reply, errorPage(assets, viewer, 'That request could not be read', (error as Error).message), status);
    }
    request.log.error({ err: error }, 'dashboard request failed');
    return sendPage(
      reply,
      errorPage(
        assets,
        viewer,
        'Something went wrong',
        'The server failed to answer; try again in a moment. The error is in the server’s log.',
      ),
      500,
    );
  });
  app.setNotFoundHandler(async (_request, reply) =>
    sendPage(reply, errorPage(assets, undefined, 'Not found', 'There is no dashboard page at this address.'), 404),
  );
}

/** The dashboard, mounted at `/dashboard`: server-rendered pages over the same use cases as REST. */
export const dashboardRoutes: FastifyPluginAsync<DashboardOptions> = async (app, { deps, assets }) => {
  // Both parsers are registered in this plugin only: the REST API keeps answering 415 to forms.
  await app.register(cookie);
  await app.register(formbody, { bodyLimit: 65_536 });
  registerSessionHooks(app, deps);
  registerErrorPages(app, assets);

  app.get('/assets/:file', { config: { dashboardPublic: true } }, async (request, reply) => {
    const asset = assets.byPath.get(request.url.split('?')[0] ?? '');
    if (!asset) return reply.callNotFound();
    const gzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    void reply.header('cache-control', 'public, max-age=31536000, immutable').header('vary', 'accept-encoding').type(asset.type);
    return gzip ? reply.header('content-encoding', 'gzip').send(asset.gzipped) : reply.send(asset.body);
  });

  const options = { deps, assets };
  await app.register(signInRoutes, options);
  await app.register(feedRoutes, options);
  await app.register(pickerRoutes, options);
  await app.register(bundleRoutes, options);
  await app.register(keyRoutes, options);
  await app.register(webhookRoutes, options);
  await app.register(eventRoutes, options);
};
