import { Type } from 'typebox';
import { leaseLimits } from '../../domain/websub.js';
import { httpUrl } from './common.js';

/**
 * W3C WebSub §5.1: the subscriber's request, as exactly as a schema can state it (the hub checks
 * each field again). Other fields are ignored, as the spec asks (websub.rocks test 102).
 */
export const SubscriptionForm = Type.Object(
  {
    'hub.mode': Type.Unsafe<'subscribe' | 'unsubscribe'>({
      type: 'string',
      enum: ['subscribe', 'unsubscribe'],
      description: '`subscribe` or `unsubscribe`.',
    }),
    'hub.topic': Type.String({
      ...httpUrl,
      description:
        'A hosted feed or bundle address: `{FEEDMILL_PUBLIC_URL}/feeds/{id}` with `.xml`, `.atom`, `.json`, `.csv` or no extension.',
    }),
    'hub.callback': Type.String({
      ...httpUrl,
      description: 'Where the hub verifies intent (GET) and distributes content (POST); the address rule of webhook targets applies.',
    }),
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
  {
    // §5.1: a hub ignores fields it does not know; a bounded number of bounded ones, so that what the
    // route takes is exactly what the schema states.
    additionalProperties: Type.String({ maxLength: 256 }),
    propertyNames: { maxLength: 64 },
    maxProperties: 16,
    description:
      'A subscription request (W3C WebSub §5.1), form-encoded. Other fields are ignored: at most 16 fields in all, names of at most 64 characters, values of at most 256.',
    examples: [
      {
        'hub.mode': 'subscribe',
        'hub.topic': 'https://feeds.example.org/feeds/Vw3kQ9xZpL2mRt7a.xml',
        'hub.callback': 'https://reader.example.com/websub/callback',
        'hub.lease_seconds': '86400',
      },
    ],
  },
);
