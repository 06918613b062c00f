import type { ListEnvelope } from '../../domain/pagination.js';

/** A use case's page of domain values, each in its REST shape; the envelope's fields unchanged. */
export const toApiList = <T, U>(list: ListEnvelope<T>, toApi: (value: T) => U): ListEnvelope<U> => ({
  ...list,
  data: list.data.map(toApi),
});
