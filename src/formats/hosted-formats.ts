import { renderAtom } from './atom.js';
import { renderCsv } from './csv.js';
import { renderJsonFeed } from './json-feed.js';
import type { HostedFormat } from '../domain/hosted-urls.js';
import { renderRss, type RenderableFeed } from './rss.js';

/** Every format a hosted feed is served in, by the extension of its address. */
export const hostedFormats = {
  xml: { mediaType: 'application/rss+xml', render: renderRss, name: 'RSS 2.0' },
  atom: { mediaType: 'application/atom+xml', render: renderAtom, name: 'Atom 1.0' },
  json: { mediaType: 'application/feed+json', render: renderJsonFeed, name: 'JSON Feed 1.1' },
  csv: { mediaType: 'text/csv', render: renderCsv, name: 'CSV (RFC 4180)' },
} as const satisfies Record<HostedFormat, { mediaType: string; name: string; render: (feed: RenderableFeed) => string }>;

export const isHostedFormat = (extension: string): extension is HostedFormat => Object.hasOwn(hostedFormats, extension);

/** Media types a reader may ask for, beyond each format's own, and the format that answers them. */
const aliases: Record<string, HostedFormat> = {
  'application/xml': 'xml',
  'text/xml': 'xml',
  'application/json': 'json',
};

const formatOf = (mediaType: string): HostedFormat | undefined =>
  aliases[mediaType] ?? (Object.keys(hostedFormats) as HostedFormat[]).find((format) => hostedFormats[format].mediaType === mediaType);

/**
 * The format the extensionless address answers with, by RFC 9110 §12.5.1 `Accept`: the acceptable
 * format of highest weight, the earlier one on a tie; RSS 2.0 (the `rss_feed_url` format) when the
 * header is absent, names only wildcards, or names nothing we serve (§12.5.1 lets a server
 * disregard the header rather than answer 406, and a reader is better served by a feed).
 */
export function formatForAccept(accept: string | undefined): HostedFormat {
  let best: { format: HostedFormat; q: number } | undefined;
  for (const range of (accept ?? '').split(',')) {
    const [type = '', ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    const q = Number(params.find((param) => param.startsWith('q='))?.slice(2) ?? '1');
    const format = formatOf(type);
    if (!format || !(q > 0)) continue;
    if (!best || q > best.q) best = { format, q };
  }
  return best?.format ?? 'xml';
}
