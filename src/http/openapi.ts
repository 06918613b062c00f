import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { openApiTags } from './openapi-tags.js';
import { ErrorBody, errorStatuses } from './schemas/common.js';
import { namedSchemas } from './schemas/components.js';

/** Variants the spec allows (`/api/v1`, `/v1/feed`, `/v1/bundled`) work, but are documented once. */
const isVariant = (url: string): boolean => url.startsWith('/api/') || /^\/v1\/(feed|bundled)(\/|$)/.test(url);

const componentPath = '#/components/schemas/';
const named = Object.entries(namedSchemas);
const nameOf = new Map<unknown, string>(named.map(([name, schema]) => [schema, name]));

/** TypeBox's `Type.Optional(schema)` is a shallow copy (its mark is not enumerable): the same schema, named the same. */
const sameKeysAndValues = (a: object, b: object): boolean => {
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((key) => Object.is((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
  );
};
const nameFor = (node: object): string | undefined => nameOf.get(node) ?? named.find(([, schema]) => sameKeysAndValues(node, schema))?.[0];

/**
 * A copy of a route schema (or of a part of one) for the document, in which each named schema
 * (schemas/components.ts) is a `$ref` to its component. Found by identity, so a schema is named only
 * where a route uses that very object; the route's own schema is left as it is, so validation and
 * serialization do not change. `$id` and `$schema` belong to the standalone JSON Schema files.
 */
function referenced(node: unknown, root?: unknown): unknown {
  if (Array.isArray(node)) return node.map((entry) => referenced(entry));
  if (typeof node !== 'object' || node === null) return node;
  const name = node === root ? undefined : nameFor(node);
  // The description rides along for @fastify/swagger, which describes a response by its schema's.
  if (name !== undefined) return { $ref: `${componentPath}${name}`, ...('description' in node ? { description: node.description } : {}) };
  return Object.fromEntries(
    Object.entries(node).flatMap(([key, value]) => (key === '$id' || key === '$schema' ? [] : [[key, referenced(value)]])),
  );
}

type Json = Record<string, unknown>;
const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The component a media object's schema names, if it is a bare `$ref`. */
const componentOf = (media: Json, components: Json): Json | undefined => {
  const ref = isJson(media.schema) ? media.schema.$ref : undefined;
  const component = typeof ref === 'string' && ref.startsWith(componentPath) ? components[ref.slice(componentPath.length)] : undefined;
  return isJson(component) ? component : undefined;
};

const errorName = nameFor(ErrorBody) ?? 'Error';

/** Each error status as a named response (`components.responses`): its meaning and a typical body. */
const errorResponseComponents = Object.fromEntries(
  Object.entries(errorStatuses).map(([status, { name, description, code, message }]) => [
    name,
    {
      description,
      content: {
        'application/json': {
          schema: { $ref: `${componentPath}${errorName}` },
          example: { message, statusCode: Number(status), errors: [{ title: message, code }] },
        },
      },
    },
  ]),
);

/**
 * Every request and response body shows an example (a named schema's own, `examples` beside it in
 * schemas/examples.ts), and every error answer refers to the named response of its status.
 */
function exemplify(document: Json): Json {
  const components = isJson(document.components) ? document.components : {};
  const schemas = isJson(components.schemas) ? components.schemas : {};
  const operations = Object.values(isJson(document.paths) ? document.paths : {}).flatMap((item) =>
    isJson(item) ? Object.values(item).filter(isJson) : [],
  );
  const fill = (media: Json): void => {
    const examples: unknown = componentOf(media, schemas)?.examples;
    if ('example' in media || 'examples' in media || !Array.isArray(examples)) return;
    if (examples.length === 1) media.example = examples[0];
    else media.examples = Object.fromEntries(examples.map((value: unknown, i) => [`example${i + 1}`, { value }]));
  };
  for (const operation of operations) {
    const body = isJson(operation.requestBody) && isJson(operation.requestBody.content) ? operation.requestBody.content : {};
    for (const media of Object.values(body).filter(isJson)) fill(media);
    const responses = isJson(operation.responses) ? operation.responses : {};
    for (const [status, response] of Object.entries(responses)) {
      const media = isJson(response) && isJson(response.content) ? Object.values(response.content).filter(isJson) : [];
      const error = errorStatuses[Number(status)];
      if (error !== undefined && media.length === 1 && media[0] && componentOf(media[0], schemas) === schemas[errorName]) {
        responses[status] = { $ref: `#/components/responses/${error.name}` };
      } else media.forEach(fill);
    }
  }
  components.responses = errorResponseComponents;
  return document;
}

/**
 * OpenAPI 3.1 from the route schemas themselves (STYLE.md habit 8): the schema that validates a
 * request and whitelists a response is the one published, so the document cannot drift. Its named
 * schemas are components, each operation has an id, a summary and a tag, and every body an example,
 * so a generator (openapi-typescript, src/client) makes a usable client of it; Redocly's recommended
 * rules check it (`npm run lint:openapi`).
 */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'feedmill',
        version,
        description:
          'Feed aggregation service: feeds from native feeds, bundles, settings. Every path also works under `/api/v1`; `/v1/feed` equals `/v1/feeds` and `/v1/bundled` equals `/v1/bundles`. Errors are `{message, statusCode, errors: [{title, code}]}`; the codes are listed in docs/errors.md.',
        license: { name: 'MIT', identifier: 'MIT' },
        contact: { name: 'feedmill', url: 'https://feedmill.dev' },
      },
      servers: [
        {
          url: 'https://{host}',
          description: 'Your feedmill: the address of FEEDMILL_PUBLIC_URL (HTTPS only).',
          variables: { host: { default: 'localhost:8443', description: 'Host and port; 8443 is FEEDMILL_PORT by default.' } },
        },
      ],
      tags: openApiTags,
      components: {
        securitySchemes: {
          apiKey: { type: 'http', scheme: 'bearer', description: '`Authorization: Bearer <API_KEY>:<API_SECRET>`' },
        },
        schemas: Object.fromEntries(Object.entries(namedSchemas).map(([name, schema]) => [name, referenced(schema, schema)])) as Record<
          string,
          Json
        >,
      },
    },
    transform: ({ schema, url, route }) => {
      // A route without a schema (`/graphql`, which documents itself by introspection) is not part of the REST contract.
      if ((schema as typeof schema | undefined) === undefined) return { schema: { hide: true }, url };
      const scope = route.config?.scope;
      const documented = { ...(referenced(schema) as typeof schema), hide: isVariant(url) || schema.hide === true };
      // A prefix's `/` route answers with and without the slash; the spec writes it without.
      const path = url.length > 1 ? url.replace(/\/$/, '') : url;
      // Hosted feeds, the WebSub hub and the probes take no key: `security: []` says so.
      return { schema: { ...documented, security: scope ? [{ apiKey: [] }] : [] }, url: path };
    },
    transformObject: (document) => ('openapiObject' in document ? exemplify(document.openapiObject as Json) : document.swaggerObject),
  });
}
