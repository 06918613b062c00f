import formbody from '@fastify/formbody';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../app/deps.js';
import { createHostedFeedRenderer } from '../../app/hosted-feed.js';
import { acceptSubscriptionRequest, verifyIntent } from '../../app/websub-subscribe.js';
import { createIntentVerifier } from '../../app/websub-verifier.js';
import { topicRendererOf, type TopicRenderer } from '../../app/websub-topics.js';
import { ErrorBody } from '../schemas/common.js';
import { SubscriptionForm } from '../schemas/websub.js';
import { tag } from '../openapi-tags.js';

const responses = {
  202: { description: 'Accepted: the hub now verifies the intent with a GET to the callback.', type: 'null' },
  400: ErrorBody,
  402: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  413: ErrorBody,
  415: ErrorBody,
  429: ErrorBody,
  500: ErrorBody,
};

export interface WebsubRouteOptions {
  deps: AppDeps;
  /** @default the hosted renderer's formats */
  render?: TopicRenderer;
}

/**
 * The WebSub hub of hosted feeds, `POST /websub` (W3C WebSub §5). Form-encoded, as the spec says:
 * the urlencoded parser is registered in this plugin only, and JSON is refused here, so the REST
 * API keeps answering 415 to forms and this route 415 to anything but a form.
 */
export const websubRoutes: FastifyPluginAsyncTypebox<WebsubRouteOptions> = async (
  app,
  { deps, render = topicRendererOf(createHostedFeedRenderer(deps)) },
) => {
  app.removeContentTypeParser('application/json');
  // The schema bounds a form to ~10 KB; the body limit is the API's own, so a form over the schema's
  // bounds is refused by the schema (400) rather than by a 413 that closes the connection mid-upload.
  await app.register(formbody, { bodyLimit: 65_536 });
  const verifier = createIntentVerifier({
    verify: (intent) => verifyIntent(deps, render, intent),
    onOutcome: (intent, outcome) =>
      app.log.info({ mode: intent.mode, topic: intent.topic.url, callback: intent.callback, outcome }, 'WebSub intent verified'),
    onError: (intent, error) => app.log.error({ err: error, mode: intent.mode, topic: intent.topic.url }, 'WebSub verification failed'),
  });
  app.addHook('onClose', () => verifier.drain());

  const schema = {
    operationId: 'subscribeWebSub',
    summary: 'Subscribe to a hosted feed (WebSub)',
    description:
      'A WebSub subscriber asks to be pushed a hosted feed or bundle on every change (or to stop). The hub answers 202 and verifies the intent with a GET to the callback; then each change is POSTed to it, signed with `hub.secret` when given.',
    tags: [tag.websub],
    consumes: ['application/x-www-form-urlencoded'],
    body: SubscriptionForm,
    response: responses,
  };
  app.post('/websub', { schema }, async (request, reply) => {
    const body = request.body;
    const intent = await acceptSubscriptionRequest(deps, render, {
      mode: body['hub.mode'],
      topic: body['hub.topic'],
      callback: body['hub.callback'],
      leaseSeconds: body['hub.lease_seconds'],
      secret: body['hub.secret'],
    });
    verifier.start(intent);
    return reply.status(202).send();
  });
};
