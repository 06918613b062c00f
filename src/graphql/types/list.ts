import type { ObjectRef } from '@pothos/core';
import { parsePage, type ListEnvelope, type PageQuery } from '../../domain/pagination.js';
import { builder, type BuilderTypes } from '../builder.js';

const pageDoc = 'Lists that grow come in pages: `limit` and `offset` choose the page, `totalCount` and `hasMore` say what is left.';

/** The one page type of the schema (`FeedPage`, `BundlePage`, …), over the use cases' list envelope. */
export function pageType<T>(name: string, element: ObjectRef<BuilderTypes, T>, what: string): ObjectRef<BuilderTypes, ListEnvelope<T>> {
  return builder.objectRef<ListEnvelope<T>>(name).implement({
    description: `A page of ${what}. ${pageDoc}`,
    fields: (t) => ({
      nodes: t.field({ type: [element], description: `The ${what} of this page.`, resolve: (page) => page.data }),
      totalCount: t.exposeInt('total', { description: `How many ${what} there are in all.` }),
      hasMore: t.boolean({
        description: 'True when more follow this page: ask again with `offset` moved on by `limit`.',
        resolve: (page) => page.offset + page.data.length < page.total,
      }),
    }),
  });
}

/** `limit` (1 to 100, default 10) and `offset` (default 0), checked by the same rule as REST (domain/pagination.ts). */
export const pageArgs = builder.args((t) => ({
  limit: t.int({ required: false, description: 'How many to return, from 1 to 100.', defaultValue: 10 }),
  offset: t.int({ required: false, description: 'How many to skip, at least 0.', defaultValue: 0 }),
}));

export const pageQuery = (args: { limit?: number | null; offset?: number | null }): PageQuery => ({
  limit: args.limit ?? undefined,
  offset: args.offset ?? undefined,
});

/** A page of a list a use case read whole (a feed's or bundle's newest items). */
export function pageOf<T>(all: T[], args: { limit?: number | null; offset?: number | null }): ListEnvelope<T> {
  const { limit, offset } = parsePage(pageQuery(args));
  return { total: all.length, offset, limit, data: all.slice(offset, offset + limit) };
}
