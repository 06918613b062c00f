import t from 'tap';
import { graphqlFieldPath, graphqlMessage } from '../../src/graphql/field-names.js';

t.test("a field path is spelt in GraphQL's names, segment by segment", async (t) => {
  t.equal(graphqlFieldPath('fetch.basic_auth.username'), 'fetch.basicAuth.username');
  t.equal(graphqlFieldPath('full_text_rules.remove[0]'), 'fullTextRules.remove[0]');
  t.equal(graphqlFieldPath('min_interval'), 'minInterval');
  t.equal(graphqlFieldPath('fetch.headers.X-user_agent'), 'fetch.headers.X-user_agent', "a header's name is the client's own");
});

t.test('a message changes the names between backticks only, and only names in the table', async (t) => {
  t.equal(
    graphqlMessage('Expected `fetch.headers.Authorization` to be absent when `basic_auth` is given (both set `Authorization`), got both'),
    'Expected `fetch.headers.Authorization` to be absent when `basicAuth` is given (both set `Authorization`), got both',
  );
  t.equal(
    graphqlMessage('Expected `filters.keep.any[0].field` to be `title` or `date_published`, got "user_agent"'),
    'Expected `filters.keep.any[0].field` to be `title` or `date_published`, got "user_agent"',
  );
});
