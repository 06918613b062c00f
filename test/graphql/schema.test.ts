import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getNamedType, getNullableType, isInputObjectType, parse, validate } from 'graphql';
import t from 'tap';
import { printSortedSchema, schema } from '../../src/graphql/schema.js';
import { repoRoot } from '../fixtures/repo-root.js';

t.test('the checked-in schema/schema.graphql is the schema the server runs, sorted', async (t) => {
  const checkedIn = readFileSync(join(repoRoot, 'schema', 'schema.graphql'), 'utf8');
  t.equal(checkedIn, printSortedSchema(), 'run `npm run schema` after changing a type');
  t.match(checkedIn, /feedUpdate\(\s*"""[^"]*"""\s*bundleIds: \[ID!\][\s\S]*?feedIds: \[ID!\][\s\S]*?since: ID\s*\): FeedUpdateEvent!/);
});

t.test('every mutation takes ids as arguments and what it writes in one required input object', async (t) => {
  const mutations = Object.values(schema.getMutationType()?.getFields() ?? {});
  const shapes = Object.fromEntries(
    mutations.map((field) => [field.name, field.args.map((arg) => `${arg.name}: ${String(arg.type)}`).join(', ')]),
  );
  for (const field of mutations) {
    for (const arg of field.args) {
      if (arg.name === 'input') {
        t.ok(
          isInputObjectType(getNullableType(arg.type)) && arg.type !== getNullableType(arg.type),
          `${field.name}(input:) is a required input object`,
        );
      } else t.equal(getNamedType(arg.type).name, 'ID', `${field.name}(${arg.name}:) is an id`);
    }
  }
  t.same(
    Object.fromEntries(
      [
        'createFeed',
        'updateFeed',
        'updateFeedSettings',
        'createBundle',
        'updateBundle',
        'updateBundleSettings',
        'createWebhook',
        'updateWebhook',
      ].map((name) => [name, shapes[name]]),
    ),
    {
      createFeed: 'input: CreateFeedInput!',
      updateFeed: 'id: ID!, input: UpdateFeedInput!',
      updateFeedSettings: 'feedId: ID!, input: UpdateFeedSettingsInput!',
      createBundle: 'input: CreateBundleInput!',
      updateBundle: 'id: ID!, input: UpdateBundleInput!',
      updateBundleSettings: 'bundleId: ID!, input: UpdateBundleSettingsInput!',
      createWebhook: 'input: CreateWebhookInput!',
      updateWebhook: 'id: ID!, input: UpdateWebhookInput!',
    },
  );
});

t.test("the README's GraphQL examples are valid against the schema", async (t) => {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const examples = [...readme.matchAll(/```graphql\n([\s\S]*?)```/g), ...readme.matchAll(/"query":"((?:[^"\\]|\\.)*)"/g)].map(
    (match) => match[1] ?? '',
  );
  t.ok(examples.length >= 2, 'the README shows a query and a mutation');
  for (const example of examples)
    t.same(
      validate(schema, parse(example)).map((error) => error.message),
      [],
      example.slice(0, 60),
    );
});
