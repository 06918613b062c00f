import SchemaBuilder from '@pothos/core';
import type { AppDeps } from '../app/deps.js';
import type { Principal } from '../domain/api-key.js';
import type { SubscriptionSlots } from './subscription-slots.js';

/**
 * What every resolver receives: who is calling, and the ports the use cases need. Resolvers under
 * `Subscription` (an event's fields) read only `deps` and `principal`: one execution per event is
 * shared by every subscriber of the same key (shared-event-results.ts).
 */
export interface GraphqlContext {
  deps: AppDeps;
  principal: Principal;
  /** Aborts when the server shuts down, so live subscriptions end and their connections can close. */
  closing: AbortSignal;
  /** Live subscriptions per connection and per account (subscription-slots.ts). */
  subscriptionSlots: SubscriptionSlots;
  /** The transport's connection this operation arrived on: the WebSocket, or the HTTP request. */
  connection: object;
}

/**
 * The one Pothos builder. It defines no types (STYLE.md): each file in `types/` adds its own, and
 * `schema.ts` imports them all before building.
 */
export const builder = new SchemaBuilder<{
  Context: GraphqlContext;
  // Ids are opaque strings everywhere (DESIGN.md "Ids"); numbers never come back as ids.
  Scalars: { ID: { Input: string; Output: string } };
  DefaultFieldNullability: false;
}>({ defaultFieldNullability: false });

/** The builder's type parameters, for helpers that take or return refs (`ObjectRef<BuilderTypes, T>`). */
export type BuilderTypes = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer Types> ? Types : never;
