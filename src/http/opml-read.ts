import { Parser } from 'htmlparser2';
import { FeedmillError } from '../domain/errors.js';
import type { OpmlEntry } from '../domain/opml.js';
import { maxXmlDepth } from '../domain/xml-depth.js';

/** @default 1,000 outlines: more is refused (413) rather than imported for minutes. */
export const maxOpmlOutlines = 1_000;
/** Outline groups (bundles) nest at most this deep. */
const maxDepth = 16;

/**
 * Reads OPML 1.0 / 2.0 with htmlparser2 in XML mode (a wire format, so read here where the way in
 * decodes its input; the CLI uses it too). Refused with 400: a document that is not an
 * `<opml>` with a `<body>`, one with a DTD (`<!DOCTYPE … [` / `<!ENTITY`: entity expansion is
 * the classic XML bomb, and OPML needs none), or one whose elements nest deeper than
 * `maxXmlDepth`, anywhere (refused at that element, reading no further: htmlparser2's open-element
 * stack costs O(depth) per tag, so 149k nested elements in a 1 MB upload took 15 s to read);
 * with 413: more than `maxOutlines` outlines.
 */
export function parseOpml(text: string, maxOutlines = maxOpmlOutlines): OpmlEntry[] {
  const refuse = (why: string): never => {
    throw new FeedmillError('validation_failed', `Expected an OPML 1.0 or 2.0 document (<opml> with a <body> of <outline>s), but ${why}`);
  };
  const entries: OpmlEntry[] = [];
  const stack: (string | null)[] = [];
  let root: string | undefined;
  let sawBody = false;
  let outlines = 0;
  let depth = 0;
  let failure: FeedmillError | undefined;
  const parser = new Parser(
    {
      onprocessinginstruction(name, data) {
        if (name.toLowerCase() === '!doctype' && /[[]|<!ENTITY/i.test(data))
          failure ??= new FeedmillError(
            'validation_failed',
            'OPML with a DTD or entity declarations is refused (entity expansion is not supported)',
          );
      },
      onopentag(name, attributes) {
        depth += 1;
        if (depth > maxXmlDepth) refuse(`its elements nest deeper than ${maxXmlDepth} levels`);
        root ??= name;
        if (name === 'body') sawBody = true;
        if (name !== 'outline') return;
        outlines += 1;
        if (outlines > maxOutlines)
          failure ??= new FeedmillError(
            'payload_too_large',
            `Expected at most ${maxOutlines} outlines in one OPML import, got more; split the file`,
          );
        const title = attributes['title'] ?? attributes['text'] ?? '';
        const xmlUrl = attributes['xmlUrl'] ?? attributes['xmlurl'] ?? '';
        if (xmlUrl) entries.push({ xmlUrl: xmlUrl.trim(), title, groups: stack.filter((group): group is string => group !== null) });
        // A group is an outline without xmlUrl; a feed outline's children (rare) stay in the feed's groups.
        stack.push(xmlUrl ? null : title || 'Imported');
        if (stack.length > maxDepth)
          failure ??= new FeedmillError('validation_failed', `Expected outlines nested at most ${maxDepth} deep`);
      },
      onclosetag(name) {
        depth -= 1;
        if (name === 'outline') stack.pop();
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.end(text);
  if (failure) throw failure;
  if (root !== 'opml') refuse(root === undefined ? 'it holds no XML element' : `its root element is <${root}>`);
  if (!sawBody) refuse('it has no <body>');
  return entries;
}
