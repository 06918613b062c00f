import type { ListEnvelope } from '../../domain/pagination.js';

/** A use case's page of domain values, each in its GraphQL shape; the envelope's fields unchanged. */
export const withShapes = <T, U>(list: ListEnvelope<T>, shape: (value: T) => U): ListEnvelope<U> => ({
  ...list,
  data: list.data.map(shape),
});
