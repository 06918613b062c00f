/** `last_added` → `LAST_ADDED`, `well-known` → `WELL_KNOWN`: GraphQL's spelling of a domain value. */
const upperCase = (value: string): string => value.toUpperCase().replaceAll('-', '_');

/**
 * The values of a GraphQL enum in GraphQL's convention (UPPER_CASE names), each standing for the
 * domain's own value, so resolvers return and inputs hand over the domain's strings unchanged.
 */
export const upperCaseValues = <T extends string>(docs: Record<T, string>): Record<string, { value: T; description: string }> =>
  Object.fromEntries(Object.entries<string>(docs).map(([value, description]) => [upperCase(value), { value: value as T, description }]));
