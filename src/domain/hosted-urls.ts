/** DESIGN.md: `rss_feed_url` = `{FEEDMILL_PUBLIC_URL}/feeds/{id}.xml`; bundles the same under their `_` id. */
export const hostedFeedUrl = (publicUrl: string, feedId: string, extension = 'xml'): string =>
  `${publicUrl.replace(/\/+$/, '')}/feeds/${feedId}.${extension}`;

/** The WebSub hub every hosted document advertises (rel="hub"). */
export const hostedHubUrl = (publicUrl: string): string => `${publicUrl.replace(/\/+$/, '')}/websub`;

/**
 * The extensions a hosted feed is served under, one per format. The domain names them (WebSub topics
 * and stores carry them); src/formats builds the documents.
 */
export type HostedFormat = 'xml' | 'atom' | 'json' | 'csv';
