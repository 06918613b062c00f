import type { FastifyPluginAsync } from 'fastify';
import { signIn, signOut, signOutEverywhere } from '../../app/sessions.js';
import { statusOf } from '../../web/status.js';
import { FeedmillError } from '../../domain/errors.js';
import { signInPage } from '../pages/sign-in.js';
import { sendPage, type DashboardOptions } from '../context.js';
import { fieldOf, type FormBody } from '../request.js';
import { clearSessionCookie, safeNext, sessionCookie, setSessionCookie } from '../session-cookie.js';

export const signInRoutes: FastifyPluginAsync<DashboardOptions> = async (app, { deps, assets }) => {
  app.get<{ Querystring: { next?: string; signed_out?: string } }>(
    '/sign-in',
    { config: { dashboardPublic: true } },
    async (request, reply) => {
      const notice = request.query.signed_out !== undefined ? 'You are signed out.' : undefined;
      return sendPage(reply, signInPage(assets, { next: safeNext(request.query.next), ...(notice ? { notice } : {}) }));
    },
  );

  app.post<{ Body: FormBody }>('/sign-in', { config: { dashboardPublic: true } }, async (request, reply) => {
    const email = fieldOf(request.body, 'email');
    const next = safeNext(fieldOf(request.body, 'next'));
    try {
      const { token } = await signIn(deps, { email, password: fieldOf(request.body, 'password'), client: request.ip });
      setSessionCookie(reply, token, deps.settings.sessionMaxAgeSeconds);
      return reply.redirect(next, 303);
    } catch (error) {
      if (!(error instanceof FeedmillError) || !['sign_in_failed', 'rate_limited', 'validation_failed'].includes(error.code)) throw error;
      if (error.details.retryAfter !== undefined) void reply.header('retry-after', String(error.details.retryAfter));
      return sendPage(reply, signInPage(assets, { email, next, error: error.message }), statusOf[error.code]);
    }
  });

  app.post('/sign-out', async (request, reply) => {
    const token = request.cookies[sessionCookie];
    if (token) await signOut(deps, token);
    clearSessionCookie(reply);
    return reply.redirect('/dashboard/sign-in?signed_out', 303);
  });

  app.post('/sign-out-everywhere', async (request, reply) => {
    if (request.signedIn) await signOutEverywhere(deps, request.signedIn.session.email);
    clearSessionCookie(reply);
    return reply.redirect('/dashboard/sign-in?signed_out', 303);
  });
};
