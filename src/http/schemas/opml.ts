import { Type } from 'typebox';
import { opmlDocumentExample, opmlImportExample } from './examples.js';

export const OpmlOutcome = Type.Object(
  {
    xml_url: Type.String(),
    title: Type.String(),
    outcome: Type.Union([Type.Literal('created'), Type.Literal('existing'), Type.Literal('failed')]),
    feed_id: Type.Union([Type.String(), Type.Null()]),
    bundle: Type.Union([Type.String(), Type.Null()], { description: 'The group outline (bundle) it was in.' }),
    error: Type.Union([Type.Object({ code: Type.String(), message: Type.String() }), Type.Null()], {
      description: 'Why it failed; null unless `outcome` is `failed`.',
    }),
  },
  { additionalProperties: false, description: 'What the import did with one feed outline.' },
);

export const ImportStatus = Type.Object(
  {
    id: Type.String(),
    status: Type.Union([Type.Literal('running'), Type.Literal('finished')]),
    total: Type.Integer({ description: 'Feed outlines in the document.' }),
    done: Type.Integer(),
    outcomes: Type.Array(OpmlOutcome, { description: 'One per feed outline handled so far, in document order.' }),
    started_at: Type.String(),
    finished_at: Type.Union([Type.String(), Type.Null()]),
  },
  {
    additionalProperties: false,
    description: "An OPML import's progress; poll it until `status` is `finished`.",
    examples: [opmlImportExample],
  },
);

// No length limit of its own: the import judges each outline and reports the ones it cannot take
// (an address too long to be a source is that outline's `failed` outcome), so the document's only
// limits are the ones the route enforces (1 MiB, 1,000 outlines, 100 levels).
const attribute = (description: string) => Type.String({ description, xml: { attribute: true } });

/**
 * The document's shape, for OpenAPI readers and generators: OpenAPI's `xml` keyword names the
 * elements and marks attributes. It is not what validates a request (see the route).
 */
export const OpmlDocument = Type.Object(
  {
    version: Type.Optional(Type.Union([Type.Literal('1.0'), Type.Literal('2.0')], { xml: { attribute: true } })),
    head: Type.Optional(Type.Object({ title: Type.Optional(Type.String({ maxLength: 200 })) })),
    body: Type.Object({
      outline: Type.Optional(
        Type.Array(
          Type.Object({
            // OPML 2.0 requires it; the import takes an outline without one all the same, titled by
            // `title` or by its feed, so the schema does not claim a refusal the route never makes.
            text: Type.Optional(attribute('The title.')),
            xmlUrl: Type.Optional(attribute('The feed address; an outline without it is a group (a bundle).')),
          }),
          { maxItems: 1_000, xml: { name: 'outline' } },
        ),
      ),
    }),
  },
  {
    xml: { name: 'opml' },
    description: 'An OPML 1.0 or 2.0 document, at most 1 MiB and 1,000 outlines; groups of outlines nest.',
    examples: [opmlDocumentExample],
  },
);
