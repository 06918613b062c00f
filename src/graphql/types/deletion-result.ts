import type { DeletionResult as Deletion } from '../../app/delete-feed.js';
import { builder } from '../builder.js';

/** Spec "Deletion result". */
export const DeletionResult = builder.objectRef<Deletion>('DeletionResult').implement({
  description: 'What a delete returns: the id, and `deleted: true`.',
  fields: (t) => ({
    id: t.exposeID('id'),
    deleted: t.exposeBoolean('deleted'),
  }),
});
