/**
 * The fields whose GraphQL name differs from the one the domain's refusals use (the spec's words,
 * snake_case). A refusal's message and `details.field` are spelt in GraphQL's names here, and
 * only here (`toGraphqlError`), so a GraphQL client reads back the names it sent.
 */
const graphqlNames: Readonly<Record<string, string>> = {
  user_agent: 'userAgent',
  basic_auth: 'basicAuth',
  min_interval: 'minInterval',
  full_text: 'fullText',
  full_text_rules: 'fullTextRules',
};

/** `fetch.basic_auth.username` → `fetch.basicAuth.username`; a segment not in the table (a header's name, `any[0]`) stays as it is. */
export const graphqlFieldPath = (path: string): string =>
  path.replace(/(?<=^|\.)[a-z][a-z0-9_]*(?=$|[.[])/g, (segment) => graphqlNames[segment] ?? segment);

/**
 * A refusal's message with every field it names between backticks in GraphQL's names. Only whole
 * names in the table change, so values quoted back (a filter's `date_published`) are left alone.
 */
export const graphqlMessage = (message: string): string =>
  message.replace(/`([^`]+)`/g, (_quoted, inner: string) => `\`${graphqlFieldPath(inner)}\``);
