import formbody from '@fastify/formbody';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../app/deps.js';
import { createHostedFeedRenderer } from '../../app/hosted-feed.js';
import { acceptSubscriptionRequest, verifyIntent } from '../../app/websub-subscribe.js';
import { createIntentVerifier } from '../../app/websub-verifier.js';
import { topicRendererOf, type TopicRenderer } from '../../app/websub-topics.js';
import { leaseLimits } from '../../domain/websub.js';
import { ErrorBody, httpUrl } from '../schemas/common.js';

/**
 * W3C WebSub §5.1: the subscriber's request, as exactly as a schema can state it (the hub checks
 * each field again). Other fields are ignored, as the spec asks (websub.rocks test 102).
 */
const SubscriptionForm = Type.Object(
  {
    'hub.mode': Type.Unsafe<'subscribe' | 'unsubscribe'>({ type: 'string', enum: ['subscribe', 'unsubscribe'], description: '`subscribe` or `unsubscribe`.' }),
    'hub.topic': Type.String({ ...httpUrl, description: 'A hosted feed or bundle address: `{FEEDMILL_PUBLIC_URL}/feeds/{id}` with `.xml`, `.atom`, `.json`, `.csv` or no extension.' }),
    'hub.callback': Type.String({ ...httpUrl, description: 'Where the hub verifies intent (GET) and distributes content (POST); the address rule of webhook targets applies.' }),
    'hub.lease_seconds': Type.Optional(
      Type.String({
        pattern: '^[0-9]{1,9}$',
        'x-expected': 'a whole number of seconds',
        description: `Seconds the subscription should last; clamped to ${leaseLimits.minSeconds}…${leaseLimits.maxSeconds}. @default ${leaseLimits.defaultSeconds}`,
      }),
    ),
    // Printable ASCII keeps characters and bytes the same, so the schema can state the spec's byte limit.
    'hub.secret': Type.Optional(
      Type.String({
        pattern: '^[\\x20-\\x7e]{0,199}$',
        'x-expected': 'fewer than 200 bytes of printable ASCII',
        description: 'Signs every distribution (`X-Hub-Signature: sha256=…`); fewer than 200 bytes of printable ASCII.',
      }),
    ),
  },
  { $id: 'WebsubSubscriptionRequest', additionalProperties: true },
);

const responses = {
  202: { description: 'Accepted: the hub now verifies the intent with a GET to the callback.', type: 'null' },
  400: ErrorBody,
  402: ErrorBody,
  404: ErrorBody,
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
export const websubRoutes: FastifyPluginAsyncTypebox<WebsubRouteOptions> = async (app, { deps, render = topicRendererOf(createHostedFeedRenderer(deps)) }) => {
  app.removeContentTypeParser('application/json');
  await app.register(formbody, { bodyLimit: 16_384 });
  const verifier = createIntentVerifier({
    verify: (intent) => verifyIntent(deps, render, intent),
    onOutcome: (intent, outcome) => app.log.info({ mode: intent.mode, topic: intent.topic.url, callback: intent.callback, outcome }, 'WebSub intent verified'),
    onError: (intent, error) => app.log.error({ err: error, mode: intent.mode, topic: intent.topic.url }, 'WebSub verification failed'),
  });
  app.addHook('onClose', () => verifier.drain());

  app.post('/websub', { schema: { consumes: ['application/x-www-form-urlencoded'], body: SubscriptionForm, response: responses } }, async (request, reply) => {
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
