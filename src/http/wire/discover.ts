import type { Discovery } from '../../app/discover-feeds.js';
import type { FeedCandidate } from '../../domain/platforms/feed-candidate.js';

export interface ApiFeedCandidate {
  url: string;
  title: string | null;
  format: FeedCandidate['format'];
  source: FeedCandidate['source'];
  platform?: string;
  confirmed: boolean;
}

export interface ApiDiscovery {
  candidates: ApiFeedCandidate[];
  page_error: { code: string; message: string } | null;
}

export function toApiDiscovery(discovery: Discovery): ApiDiscovery {
  return {
    candidates: discovery.candidates.map(({ url, title, format, source, platform, confirmed }) => ({
      url,
      title,
      format,
      source,
      ...(platform === undefined ? {} : { platform }),
      confirmed,
    })),
    page_error: discovery.pageError && { code: discovery.pageError.code, message: discovery.pageError.message },
  };
}
