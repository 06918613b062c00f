import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { Dispatcher } from 'undici';
import type { components, operations, paths } from './openapi-types.js';

export type { components, operations, paths };
/** The named shapes of the API (`Schemas['Feed']`, `Schemas['Error']`, …). */
export type Schemas = components['schemas'];
/** A typed client of the feedmill REST API: `client.GET('/v1/feeds/{id}', { params: { path: { id } } })`. */
export type FeedmillClient = Client<paths>;

export interface FeedmillClientOptions {
  /** Where feedmill answers, without a path: `https://feeds.example.org`. */
  baseUrl: string;
  /** The API key (`fmk_…`) from `feedmill keys create`. */
  key: string;
  /** Its secret, shown once at creation. */
  secret: string;
  /** @default globalThis.fetch */
  fetch?: ClientOptions['fetch'];
  /**
   * An undici dispatcher for every request (Node only), e.g. one that trusts a self-signed certificate:
   * `new Agent({ connect: { ca } })`.
   * @default the fetch's own
   */
  dispatcher?: Dispatcher;
}

/**
 * A client generated from schema/openapi.json (openapi-fetch over the openapi-typescript types in
 * openapi-types.ts): paths, parameters, bodies and answers are typed, and each call resolves to
 * `{ data }` on success or `{ error }` with feedmill's error body.
 *
 * @example
 * const feedmill = createFeedmillClient({ baseUrl: 'https://localhost:8443', key, secret });
 * const { data, error } = await feedmill.POST('/v1/feeds', { body: { url: 'https://blog.example.com/' } });
 */
export function createFeedmillClient(options: FeedmillClientOptions): FeedmillClient {
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { authorization: `Bearer ${options.key}:${options.secret}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
    // openapi-fetch hands this to fetch as its second argument, where Node's fetch reads `dispatcher`.
    ...(options.dispatcher ? { requestInitExt: { dispatcher: options.dispatcher } } : {}),
  });
}
