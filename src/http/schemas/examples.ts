/**
 * The values the OpenAPI document shows for each named schema: one coherent account (one feed, one
 * bundle, one webhook), so a reader can follow an id from one answer to the next. Redocly checks
 * every example against its schema (`npm run lint:openapi`), so they cannot drift from the contract.
 */

const publicUrl = 'https://feeds.example.org';
const feedId = 'Vw3kQ9xZpL2mRt7a';
const bundleId = '_Hq4nB8sKd1WcYe6j';
const webhookId = 'wh_Zt5pR2mLx8QaNc3v';
const at = '2026-11-24T09:30:00.000Z';

export const authorExample = { name: 'Ada Lovelace' };

export const feedItemExample = {
  url: 'https://blog.example.com/posts/analytical-engine',
  title: 'Notes on the Analytical Engine',
  description_text: 'What the engine can and cannot do.',
  description_html: '<p>What the engine can and cannot do.</p>',
  thumbnail: 'https://blog.example.com/images/engine.png',
  authors: [authorExample],
  date_published: at,
  summary_text: 'What the engine can and cannot do.',
  summary_html: '<p>What the engine can and cannot do.</p>',
  full_text_status: 'skipped',
  full_text_error: null,
};

export const feedStatusExample = {
  state: 'active',
  last_fetched_at: '2026-11-24T09:41:12.000Z',
  last_success_at: '2026-11-24T09:41:12.000Z',
  next_fetch_at: '2026-11-24T09:56:12.000Z',
  last_outcome: 'not_modified',
  consecutive_errors: 0,
  last_error: null,
  disabled_at: null,
  disabled_reason: null,
};

export const feedExample = {
  id: feedId,
  title: 'Example Blog',
  source_url: 'https://blog.example.com/feed.xml',
  rss_feed_url: `${publicUrl}/feeds/${feedId}.xml`,
  description: 'Essays on computing machinery.',
  icon: 'https://blog.example.com/favicon.png',
  status: feedStatusExample,
  followed: null,
};

export const followedExample = {
  url: 'https://www.youtube.com/feeds/videos.xml?channel_id=UCq0EGvLTyy-LLT1oUSO_0FQ',
  source: 'rule',
  platform: 'YouTube',
};

export const discoveryExample = {
  candidates: [
    {
      url: 'https://www.youtube.com/feeds/videos.xml?channel_id=UCq0EGvLTyy-LLT1oUSO_0FQ',
      title: 'Example Channel',
      format: 'atom',
      source: 'rule',
      platform: 'YouTube',
      confirmed: true,
    },
    { url: 'https://www.youtube.com/@example', title: 'Example Channel - YouTube', format: 'page', source: 'page', confirmed: true },
  ],
  page_error: null,
};

export const feedWithItemsExample = { ...feedExample, items: [feedItemExample] };

const page = { total: 1, offset: 0, limit: 10 };

export const feedListExample = { ...page, data: [feedExample] };

export const filtersExample = {
  keep: {
    any: [
      { field: 'title', op: 'contains', value: 'engine' },
      { field: 'category', op: 'contains', value: 'computing' },
    ],
  },
  block: { field: 'date_published', op: 'older_than', value: '30d' },
};

export const fetchOptionsExample = {
  user_agent: 'Mozilla/5.0 (compatible; feedmill)',
  headers: { 'X-Api-Key': 'k3y-fr0m-the-site', 'Accept-Language': 'en' },
  basic_auth: { username: 'reader', password: 'correct horse battery staple' },
};

export const pageSelectorsExample = {
  item: '.notice',
  title: 'h3',
  link: '@data-href',
  date: 'time',
  summary: '.blurb',
  image: 'img@data-src',
};

export const feedSettingsExample = {
  customAuthor: null,
  sort: 'last_added',
  paused: false,
  min_interval: null,
  filters: filtersExample,
  full_text: true,
  full_text_rules: { content: 'article .post-body', remove: ['.share-buttons'] },
  fetch: { user_agent: 'Mozilla/5.0 (compatible; feedmill)', header_names: ['X-Api-Key', 'Accept-Language'], basic_auth_set: true },
  selectors: null,
  render: 'auto',
};

export const feedPreviewExample = {
  title: 'Harbour notices',
  description: '',
  icon: '',
  link: 'https://harbour.example.com/notices',
  source_url: 'https://harbour.example.com/notices',
  followed: { url: 'https://harbour.example.com/notices', source: 'page' },
  items: [feedItemExample],
};

export const filterPreviewExample = {
  kept: 1,
  dropped: 0,
  data: [
    {
      feed_id: feedId,
      item: feedItemExample,
      kept: true,
      decided_by: { rule: 'keep', path: 'keep.any[0]', condition: { field: 'title', op: 'contains', value: 'engine' } },
    },
  ],
};

export const refreshResultExample = { outcome: 'changed', items_new: 1, items_changed: 0, error: null, feed: feedExample };

const bundleFields = {
  id: bundleId,
  name: 'Computing history',
  description: 'Blogs about early computers.',
  icon: '',
  rss_feed_url: `${publicUrl}/feeds/${bundleId}.xml`,
  feeds: [feedId],
};

export const bundleExample = bundleFields;
export const duplicateCopyExample = { feed_id: 'fd_Bq3T9vLm2XwY7kPz', url: 'https://www.example.com/notes/engine.html?utm_source=rss' };
export const bundleItemExample = { ...feedItemExample, duplicates: [duplicateCopyExample] };
export const bundleWithItemsExample = { ...bundleFields, items: [bundleItemExample] };
export const bundleListExample = { ...page, data: [bundleExample] };
export const bundleSettingsExample = {
  sort: 'date',
  filters: { keep: null, block: { field: 'title', op: 'contains', value: 'sponsored' } },
};

export const deletionResultExample = { id: feedId, deleted: true };

const webhookFields = {
  id: webhookId,
  url: 'https://hooks.example.com/feedmill',
  scope: 'feeds',
  feeds: [feedId],
  bundles: [],
  filters: { field: 'title', op: 'contains', value: 'engine' },
  enabled: true,
  disabled_reason: null,
  failing_since: null,
  created_at: at,
  updated_at: at,
};

export const webhookExample = webhookFields;
export const webhookWithSecretExample = { ...webhookFields, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' };
export const webhookListExample = { ...page, data: [webhookExample] };

export const deliveryExample = {
  delivery_id: 'dlv_Pq7sT2vWx9YzAb4CdE6fG8hJ',
  event_id: 'evt_Rk3mN8pQ2sT6vX9zB4cD7fG1',
  attempt: 1,
  at,
  status_code: 204,
  latency_ms: 84,
  error: null,
  response_excerpt: '',
  outcome: 'succeeded',
};

export const deliveryListExample = { ...page, data: [deliveryExample] };
export const retryResultExample = { delivery_id: deliveryExample.delivery_id, status: 'pending' };

// Events carry the item as shown (its article, with full text): no teaser or full-text status beside it.
const {
  description_html: _html,
  summary_text: _summaryText,
  summary_html: _summaryHtml,
  full_text_status: _status,
  full_text_error: _error,
  ...eventItem
} = feedItemExample;

export const webhookEventExample = {
  id: deliveryExample.event_id,
  type: 'feed_update',
  feed: {
    id: feedId,
    title: feedExample.title,
    source_url: feedExample.source_url,
    rss_feed_url: feedExample.rss_feed_url,
    description: feedExample.description,
    icon: feedExample.icon,
  },
  data: {
    items_new: [eventItem],
    items_changed: [{ ...eventItem, title: 'Notes on the Analytical Engine (revised)', changed_fields: ['title'] }],
  },
};

export const eventPageExample = { data: [webhookEventExample], next_since: null };

export const opmlImportExample = {
  id: 'imp_Lm4nP7qR2sT5uV8w',
  status: 'finished',
  total: 1,
  done: 1,
  outcomes: [
    {
      xml_url: feedExample.source_url,
      title: feedExample.title,
      outcome: 'created',
      feed_id: feedId,
      bundle: 'Computing history',
      error: null,
    },
  ],
  started_at: at,
  finished_at: '2026-11-24T09:30:02.000Z',
};

export const healthExample = { status: 'ok' };

/** What the hosted-feed and OPML documents look like, for the responses that are not JSON. */
export const rssExample = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Example Blog</title><link>https://blog.example.com/</link><item><title>Notes on the Analytical Engine</title></item></channel></rss>`;

/** OPML as the OpenAPI document's object form of it (the schema's `xml` keywords say which are attributes). */
export const opmlDocumentExample = {
  version: '2.0',
  head: { title: 'feedmill' },
  body: { outline: [{ text: 'Example Blog', xmlUrl: 'https://blog.example.com/feed.xml' }] },
};

export const opmlExample = `<?xml version="1.0" encoding="UTF-8"?>
<opml version="2.0"><head><title>feedmill</title></head><body><outline text="Computing history"><outline type="rss" text="Example Blog" xmlUrl="https://blog.example.com/feed.xml"/></outline></body></opml>`;

export const sseExample = `id: ${webhookEventExample.id}\nevent: feed_update\ndata: {"id":"${webhookEventExample.id}","type":"feed_update",…}\n\n`;

export { feedId as exampleFeedId, bundleId as exampleBundleId, webhookId as exampleWebhookId };
