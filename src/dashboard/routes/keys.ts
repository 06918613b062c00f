import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { createKey, listAccountKeys, revokeAccountKey } from '../../app/api-keys.js';
import { parseScopes } from '../../domain/api-key.js';
import { statusOf } from '../../web/status.js';
import { FeedmillError } from '../../domain/errors.js';
import { html } from '../html.js';
import { confirmPage } from '../pages/confirm.js';
import { keysPage, type KeysView } from '../pages/keys.js';
import { sendPage, type DashboardOptions } from '../context.js';
import { principalOf, valuesOf, viewerOf, type FormBody } from '../request.js';

export const keyRoutes: FastifyPluginAsync<DashboardOptions> = async (app, { deps, assets }) => {
  const secretKey = deps.settings.secretKey;
  const renderKeys = async (request: FastifyRequest, extra: Partial<KeysView> = {}) =>
    keysPage(assets, { viewer: viewerOf(request, secretKey), keys: await listAccountKeys(deps, principalOf(request)), ...extra });

  app.get<{ Querystring: { revoked?: string } }>('/keys', async (request, reply) =>
    sendPage(reply, await renderKeys(request, request.query.revoked ? { notice: `Key ${request.query.revoked} is revoked.` } : {})),
  );

  // The new secret is in this response only: it is rendered here, never behind a redirect that
  // would have to carry it in an address or keep it on the server.
  app.post<{ Body: FormBody }>('/keys', async (request, reply) => {
    const scopes = parseScopes(valuesOf(request.body, 'scopes').join(','));
    if (!scopes)
      return sendPage(
        reply,
        await renderKeys(request, { error: 'Choose at least one scope: Read, Write or both.' }),
        statusOf.validation_failed,
      );
    const created = await createKey(deps, principalOf(request).accountId, scopes);
    return sendPage(reply, await renderKeys(request, { created: { key: created.key, secret: created.secret, scopes: created.scopes } }));
  });

  app.get<{ Params: { id: string } }>('/keys/:id/revoke', async (request, reply) => {
    const keyId = request.params.id;
    // Asking about a key that is not the account's, or no longer live, answers as revoking it would.
    const live = (await listAccountKeys(deps, principalOf(request))).some((key) => key.id === keyId && key.revokedAt === null);
    if (!live) throw new FeedmillError('key_not_found', `No live API key \`${keyId}\` in this account`);
    return sendPage(
      reply,
      confirmPage(assets, viewerOf(request, secretKey), {
        section: 'keys',
        title: `Revoke ${keyId}`,
        heading: html`Revoke <code>${keyId}</code>?`,
        warning: 'Every client using this key gets 401 from its next request on. This cannot be undone.',
        action: `/dashboard/keys/${keyId}/revoke`,
        button: 'Revoke permanently',
        back: '/dashboard/keys',
      }),
    );
  });

  app.post<{ Params: { id: string } }>('/keys/:id/revoke', async (request, reply) => {
    await revokeAccountKey(deps, principalOf(request), request.params.id);
    return reply.redirect(`/dashboard/keys?revoked=${encodeURIComponent(request.params.id)}`, 303);
  });
};
