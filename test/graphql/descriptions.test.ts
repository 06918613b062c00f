import {
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isSpecifiedScalarType,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';
import t from 'tap';
import { schema } from '../../src/graphql/schema.js';

type Kind = 'types' | 'fields' | 'arguments' | 'input fields' | 'enum values';

/** Every place a GraphQL client reads a description, with where it is and whether it has one. */
function* describables(of: GraphQLSchema): Generator<{ kind: Kind; where: string; described: boolean }> {
  const has = (text: string | null | undefined): boolean => (text ?? '').trim().length > 0;
  // graphql's own introspection types and scalars (String, ID, …) are described by the spec, not by us.
  const ours = Object.values(of.getTypeMap()).filter(
    (type: GraphQLNamedType) => !type.name.startsWith('__') && !isSpecifiedScalarType(type),
  );
  for (const type of ours) {
    yield { kind: 'types', where: type.name, described: has(type.description) };
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) {
        yield { kind: 'fields', where: `${type.name}.${field.name}`, described: has(field.description) };
        for (const arg of field.args)
          yield { kind: 'arguments', where: `${type.name}.${field.name}(${arg.name})`, described: has(arg.description) };
      }
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields()))
        yield { kind: 'input fields', where: `${type.name}.${field.name}`, described: has(field.description) };
    } else if (isEnumType(type)) {
      for (const value of type.getValues())
        yield { kind: 'enum values', where: `${type.name}.${value.name}`, described: has(value.description) };
    }
  }
}

t.test('every type, field, argument, input field and enum value of the schema has a description', async (t) => {
  const all = [...describables(schema)];
  const coverage = Object.fromEntries(
    (['types', 'fields', 'arguments', 'input fields', 'enum values'] as const).map((kind) => {
      const ofKind = all.filter((entry) => entry.kind === kind);
      return [kind, `${ofKind.filter((entry) => entry.described).length}/${ofKind.length}`];
    }),
  );
  t.comment(`described: ${JSON.stringify(coverage)}`);
  t.same(
    all.filter((entry) => !entry.described).map((entry) => entry.where),
    [],
    'GraphQL clients show these descriptions (IDE hints, generated docs); add one where it is missing',
  );
  t.ok(all.length > 100, 'the walk reached the schema');
});
