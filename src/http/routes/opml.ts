import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../app/deps.js';
import { exportOpml, getOpmlImport, startOpmlImport, type OpmlImport } from '../../app/opml.js';
import { parseOpml } from '../opml-read.js';
import { tag } from '../openapi-tags.js';
import { principalOf } from '../plugins/auth.js';
import { errorResponses, IdParams } from '../schemas/common.js';
import { opmlExample } from '../schemas/examples.js';
import { ImportStatus, OpmlDocument } from '../schemas/opml.js';

/** The largest OPML accepted: a few thousand subscriptions fit in far less. */
const maxOpmlBytes = 1024 * 1024;
const opmlTypes = ['text/x-opml', 'application/xml', 'text/xml'];

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
      schema: {
        operationId: 'exportOpml',
        summary: 'Export feeds as OPML',
        description: "The account's feeds as OPML 2.0, each bundle a group outline.",
        tags: [tag.opml],
        response: {
          200: { description: 'OPML 2.0', content: { 'text/x-opml': { schema: Type.String(), example: opmlExample } } },
          ...errorResponses,
        },
      },
    },
    async (request, reply) =>
      reply
        .type('text/x-opml; charset=utf-8')
        .header('content-disposition', 'attachment; filename="feedmill.opml"')
        .send(await exportOpml(deps, principalOf(request))),
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
        operationId: 'importOpml',
        summary: 'Import an OPML document',
        description:
          'Starts creating the feeds (and, from group outlines, bundles) of the document; the answer (202) and the `Location` header tell where to follow its progress.',
        tags: [tag.opml],
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
      return reply
        .status(202)
        .header('location', `${request.url.replace(/\/?(\?.*)?$/, '')}/imports/${job.id}`)
        .send(wire(job));
    },
  );

  app.get(
    '/imports/:id',
    {
      config: { scope: 'read' },
      schema: {
        operationId: 'getOpmlImport',
        summary: "Retrieve an OPML import's progress",
        description: 'What the import has done so far, one outcome per feed outline.',
        tags: [tag.opml],
        params: IdParams,
        response: { 200: ImportStatus, ...errorResponses },
      },
    },
    async (request) => wire(await getOpmlImport(deps, principalOf(request), request.params.id)),
  );
};
