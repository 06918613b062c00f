import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { printSortedSchema } from '../../src/graphql/schema.js';
import { repoRoot } from '../fixtures/repo-root.js';

t.test('the checked-in schema/schema.graphql is the schema the server runs, sorted', async (t) => {
  const checkedIn = readFileSync(join(repoRoot, 'schema', 'schema.graphql'), 'utf8');
  t.equal(checkedIn, printSortedSchema(), 'run `npm run schema` after changing a type');
  t.match(checkedIn, /feedUpdate\(\s*bundleIds: \[ID!\]\s*feedIds: \[ID!\][\s\S]*?since: ID\s*\): FeedUpdateEvent!/);
});
