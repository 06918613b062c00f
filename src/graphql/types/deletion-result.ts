import type { DeletionResult as Deletion } from '../../app/delete-feed.js';
import { builder } from '../builder.js';

/** Spec "Deletion result". */
export const DeletionResult = builder.objectRef<Deletion>('DeletionResult').implement({
  description: 'What a delete returns: the id, and `deleted: true`.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The id of what was deleted.' }),
    deleted: t.exposeBoolean('deleted', { description: 'Always true: a delete that fails answers an error instead.' }),
  }),
});
