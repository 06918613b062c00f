import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isObjectType,
  parse,
  validate,
  type GraphQLNamedType,
} from 'graphql';
import t from 'tap';
import { printSortedSchema, schema } from '../../src/graphql/schema.js';
import { repoRoot } from '../fixtures/repo-root.js';

t.test('the checked-in schema/schema.graphql is the schema the server runs, sorted', async (t) => {
  const checkedIn = readFileSync(join(repoRoot, 'schema', 'schema.graphql'), 'utf8');
  t.equal(checkedIn, printSortedSchema(), 'run `npm run schema` after changing a type');
  t.match(checkedIn, /feedUpdate\(\s*"""[^"]*"""\s*bundleIds: \[ID!\][\s\S]*?feedIds: \[ID!\][\s\S]*?since: ID\s*\): FeedUpdateEvent!/);
});

t.test("GraphQL's conventions: camelCase fields and arguments, UPPER_CASE enum values, inputs named …Input, one page type", async (t) => {
  const ours = Object.values(schema.getTypeMap()).filter((type: GraphQLNamedType) => !type.name.startsWith('__'));
  const camel = /^[a-z][A-Za-z0-9]*$/;
  const misnamed: string[] = [];
  for (const type of ours) {
    if (isObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        if (!camel.test(field.name)) misnamed.push(`${type.name}.${field.name}`);
        for (const arg of field.args) if (!camel.test(arg.name)) misnamed.push(`${type.name}.${field.name}(${arg.name})`);
      }
    }
    if (isInputObjectType(type)) {
      if (!type.name.endsWith('Input')) misnamed.push(`input ${type.name}`);
      for (const field of Object.values(type.getFields())) if (!camel.test(field.name)) misnamed.push(`${type.name}.${field.name}`);
    }
    if (isEnumType(type))
      for (const value of type.getValues()) if (!/^[A-Z][A-Z0-9_]*$/.test(value.name)) misnamed.push(`${type.name}.${value.name}`);
  }
  t.same(misnamed, [], 'no REST snake_case, no lower-case enum value, no input without the suffix');
  const pages = ours.filter((type) => isObjectType(type) && type.name.endsWith('Page'));
  t.ok(pages.length >= 5, 'feeds, bundles, webhooks, deliveries and items come in pages');
  for (const page of pages)
    if (isObjectType(page))
      t.same(Object.keys(page.getFields()).sort(), ['hasMore', 'nodes', 'totalCount'], `${page.name} is the one page shape`);
  const lists = ours.filter((type) => isObjectType(type) && type.name.endsWith('List'));
  t.same(
    lists.map((type) => type.name),
    [],
    'no second list shape',
  );
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

t.test("docs/graphql.md's examples are valid against the schema", async (t) => {
  const page = readFileSync(join(repoRoot, 'docs', 'graphql.md'), 'utf8');
  const examples = [...page.matchAll(/```graphql\n([\s\S]*?)```/g), ...page.matchAll(/"query":"((?:[^"\\]|\\.)*)"/g)].map(
    (match) => match[1] ?? '',
  );
  t.ok(examples.length >= 2, 'the GraphQL page shows a query and a mutation');
  for (const example of examples)
    t.same(
      validate(schema, parse(example)).map((error) => error.message),
      [],
      example.slice(0, 60),
    );
});
