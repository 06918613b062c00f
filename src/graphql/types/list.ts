import type { ObjectRef } from '@pothos/core';
import type { ListEnvelope, PageQuery } from '../../domain/pagination.js';
import { builder, type BuilderTypes } from '../builder.js';

/** Spec "List envelope", for one element type (`FeedList`, `BundleList`, …). */
export function listEnvelope<T>(name: string, element: ObjectRef<BuilderTypes, T>, what: string): ObjectRef<BuilderTypes, ListEnvelope<T>> {
  return builder.objectRef<ListEnvelope<T>>(name).implement({
    description: `A page of ${what}, newest first (spec "Pagination rules").`,
    fields: (t) => ({
      total: t.exposeInt('total', { description: `How many ${what} there are in all.` }),
      offset: t.exposeInt('offset', { description: 'The starting position used.' }),
      limit: t.exposeInt('limit', { description: 'The limit used.' }),
      data: t.field({ type: [element], description: `The ${what} of this page.`, resolve: (page) => page.data }),
    }),
  });
}

/** `limit` (1 to 100, default 10) and `offset` (default 0), checked by the same use case as REST. */
export const pageArgs = builder.args((t) => ({
  limit: t.int({ required: false, description: 'From 1 to 100.', defaultValue: 10 }),
  offset: t.int({ required: false, description: 'At least 0.', defaultValue: 0 }),
}));

export const pageQuery = (args: { limit?: number | null; offset?: number | null }): PageQuery => ({
  limit: args.limit ?? undefined,
  offset: args.offset ?? undefined,
});
