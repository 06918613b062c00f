/**
 * The groups of the OpenAPI document, each with what it holds; every operation names one (routes
 * write `tags: [tag.feeds]`), and openapi.ts declares them all at the top of the document.
 */
const tagDescriptions = {
  Feeds: 'Feeds made from a website, a native feed or a keyword; their items, settings, filters and refreshes.',
  Bundles: 'Groups of feeds whose items are merged into one feed, with their own settings and filters.',
  Webhooks: 'Signed `feed_update` events sent to your endpoint (Standard Webhooks), with the call history and retries.',
  Events: 'The same `feed_update` events as server-sent events, or as pages of past events.',
  OPML: 'Subscriptions in and out as OPML.',
  'Hosted feeds': 'Every feed and bundle as RSS 2.0, Atom 1.0, JSON Feed 1.1 and CSV, for feed readers: no key needed.',
  WebSub: 'The WebSub hub every hosted feed advertises: readers subscribe and are pushed each change.',
  Health: 'Probes for load balancers and orchestrators.',
} as const;

export type TagName = keyof typeof tagDescriptions;

export const tag = {
  feeds: 'Feeds',
  bundles: 'Bundles',
  webhooks: 'Webhooks',
  events: 'Events',
  opml: 'OPML',
  hosted: 'Hosted feeds',
  websub: 'WebSub',
  health: 'Health',
} as const satisfies Record<string, TagName>;

export const openApiTags = Object.entries(tagDescriptions).map(([name, description]) => ({ name, description }));
