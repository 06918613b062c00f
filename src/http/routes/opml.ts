import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../app/deps.js';
import { exportOpml, getOpmlImport, startOpmlImport, type OpmlImport } from '../../app/opml.js';
import { parseOpml } from '../opml-read.js';
import { principalOf } from '../plugins/auth.js';
import { errorResponses, IdParams } from '../schemas/common.js';

/** The largest OPML accepted: a few thousand subscriptions fit in far less. */
const maxOpmlBytes = 1024 * 1024;
const opmlTypes = ['text/x-opml', 'application/xml', 'text/xml'];

const Outcome = Type.Object(
  {
    xml_url: Type.String(),
    title: Type.String(),
    outcome: Type.Union([Type.Literal('created'), Type.Literal('existing'), Type.Literal('failed')]),
    feed_id: Type.Union([Type.String(), Type.Null()]),
    bundle: Type.Union([Type.String(), Type.Null()], { description: 'The group outline (bundle) it was in.' }),
    error: Type.Union([Type.Object({ code: Type.String(), message: Type.String() }), Type.Null()]),
  },
  { additionalProperties: false },
);

const ImportStatus = Type.Object(
  {
    id: Type.String(),
    status: Type.Union([Type.Literal('running'), Type.Literal('finished')]),
    total: Type.Integer({ description: 'Feed outlines in the document.' }),
    done: Type.Integer(),
    outcomes: Type.Array(Outcome, { description: 'One per feed outline handled so far, in document order.' }),
    started_at: Type.String(),
    finished_at: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);

const attribute = (description: string) => Type.String({ maxLength: 2_000, description, xml: { attribute: true } });

/**
 * The document's shape, for OpenAPI readers and generators: OpenAPI's `xml` keyword names the
 * elements and marks attributes. It is not what validates a request (see the route).
 */
const OpmlDocument = Type.Object(
  {
    version: Type.Optional(Type.Union([Type.Literal('1.0'), Type.Literal('2.0')], { xml: { attribute: true } })),
    head: Type.Optional(Type.Object({ title: Type.Optional(Type.String({ maxLength: 200 })) })),
    body: Type.Object({
      outline: Type.Optional(
        Type.Array(
          Type.Object({ text: attribute('The title.'), xmlUrl: Type.Optional(attribute('The feed address; an outline without it is a group (a bundle).')) }),
          { maxItems: 1_000, xml: { name: 'outline' } },
        ),
      ),
    }),
  },
  { xml: { name: 'opml' }, description: 'An OPML 1.0 or 2.0 document, at most 1 MiB and 1,000 outlines; groups of outlines nest.' },
);

const wire = (job: OpmlImport) => ({
  id: job.id,
  status: job.status,
  total: job.total,
  done: job.done,
  outcomes: job.outcomes,
  started_at: job.startedAt,
  finished_at: job.finishedAt,
});

/**
 * `GET /v1/opml` exports, `POST /v1/opml` queues an import as a job, `GET /v1/opml/imports/:id` tells its
 * progress from the import store, on whichever API replica is asked.
 */
export const opmlRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  app.addContentTypeParser(opmlTypes, { parseAs: 'string', bodyLimit: maxOpmlBytes }, (_request, body, done) => done(null, body));

  app.get(
    '/',
    {
      config: { scope: 'read' },
      schema: { response: { 200: { description: 'OPML 2.0', content: { 'text/x-opml': { schema: Type.String() } } }, ...errorResponses } },
    },
    async (request, reply) => reply.type('text/x-opml; charset=utf-8').header('content-disposition', 'attachment; filename="feedmill.opml"').send(await exportOpml(deps, principalOf(request))),
  );

  app.post(
    '/',
    {
      bodyLimit: maxOpmlBytes,
      config: { scope: 'write' },
      // The body arrives as text and is read by parseOpml, which refuses what is not OPML with a
      // message saying why; the schema above describes the document, so it validates nothing here.
      validatorCompiler: () => () => true,
      schema: {
        // text/x-opml is accepted too (the parser above) but not listed: OpenAPI tools serialize an
        // unknown media type as JSON, and OPML readers send it as XML either way.
        consumes: ['application/xml', 'text/xml'],
        body: OpmlDocument,
        response: { 202: ImportStatus, ...errorResponses },
      },
    },
    async (request, reply) => {
      // Read whole before anything is created: a refused document (400/413) imports nothing.
      // Text, from the content-type parser above; typed as the documented shape only.
      const job = await startOpmlImport(deps, principalOf(request), parseOpml(request.body as unknown as string));
      return reply.status(202).header('location', `${request.url.replace(/\/?(\?.*)?$/, '')}/imports/${job.id}`).send(wire(job));
    },
  );

  app.get(
    '/imports/:id',
    { config: { scope: 'read' }, schema: { params: IdParams, response: { 200: ImportStatus, ...errorResponses } } },
    async (request) => wire(await getOpmlImport(deps, principalOf(request), request.params.id)),
  );
};
