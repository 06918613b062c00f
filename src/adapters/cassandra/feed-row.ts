import { types } from 'cassandra-driver';
import { feedSettingsOf, type Feed, type FeedSettings, type FetchState } from '../../domain/feed.js';
import { optionalText, text, timeUuid } from './row.js';

/** The columns of `feeds` every read selects (never `*`: prepared statements pin their columns). */
export const feedColumns =
  'id, account_id, title, description, icon, source_url, fetch_url, link, created_at, updated_at, deleted_at, listed_at, settings, fetch_state';

export interface FeedRow {
  feed: Feed;
  deletedAt: string | null;
  listedAt: types.TimeUuid;
}

export function toFeedRow(row: types.Row): FeedRow {
  return {
    feed: {
      id: text(row, 'id'),
      accountId: text(row, 'account_id'),
      title: text(row, 'title'),
      description: text(row, 'description'),
      icon: text(row, 'icon'),
      sourceUrl: text(row, 'source_url'),
      fetchUrl: text(row, 'fetch_url'),
      link: text(row, 'link'),
      createdAt: text(row, 'created_at'),
      updatedAt: text(row, 'updated_at'),
      settings: feedSettingsOf(JSON.parse(text(row, 'settings')) as Partial<FeedSettings>),
      fetch: JSON.parse(text(row, 'fetch_state')) as FetchState,
    },
    deletedAt: optionalText(row, 'deleted_at'),
    listedAt: timeUuid(row, 'listed_at'),
  };
}

/** The values of an INSERT listing feedColumns, in order; deleted_at unset (null would write a tombstone). */
export function feedValues(feed: Feed, listedAt: types.TimeUuid): unknown[] {
  return [
    feed.id,
    feed.accountId,
    feed.title,
    feed.description,
    feed.icon,
    feed.sourceUrl,
    feed.fetchUrl,
    feed.link,
    feed.createdAt,
    feed.updatedAt,
    types.unset,
    listedAt,
    JSON.stringify(feed.settings),
    JSON.stringify(feed.fetch),
  ];
}
