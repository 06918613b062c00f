import fc from 'fast-check';
import t from 'tap';
import { FeedmillError } from '../../src/domain/errors.js';
import { extractPage } from '../../workers/extract-page.js';

/**
 * Pages glued from the pieces article listings, structured data and broken markup are made of:
 * extraction returns items or says `no_items_found`, never anything else.
 */
const piece = fc.constantFrom(
  '<ul>',
  '</ul>',
  '<li>',
  '</li>',
  '<article>',
  '</article>',
  '<h2>',
  '</h2>',
  '<a href="/post/1">',
  '<a href="https://x.example/p">',
  '</a>',
  '<img src="/i.jpg" srcset="/a.jpg 1x, /b.jpg 2x">',
  '<picture><source srcset="/c.webp">',
  '</picture>',
  '<time datetime="2026-01-02T03:04:05Z">',
  '</time>',
  '<nav>',
  '</nav>',
  '<footer>',
  '<div class="post">',
  '</div>',
  '<p>',
  'Story title here',
  'Jan 2, 2026',
  ' ',
  '\n',
  '<',
  '>',
  '"',
  '&amp;',
  '&#',
  '<script type="application/ld+json">',
  '</script>',
  '{"@type":"ItemList","itemListElement":[',
  '{"@type":"BlogPosting","headline":',
  '"x"',
  '1',
  'null',
  '[',
  ']',
  '{',
  '}',
  ',',
  '<div class="h-entry">',
  '<a class="u-url p-name" href="/e">',
  '<meta property="og:image" content="/og.png">',
  '<link rel="icon" href="/f.ico">',
  '<title>',
  '</title>',
);
const junk = fc.array(piece, { maxLength: 6 }).map((pieces) => pieces.join(''));
/** A listing entry, with junk (broken markup included) wherever it may land. */
const block = fc
  .tuple(fc.nat(1000), junk, junk, fc.boolean())
  .map(
    ([n, before, after, image]) =>
      `<li class="post">${before}<h2><a href="/post/${n}">Story number ${n}</a></h2>${image ? `<img src="/i/${n}.jpg">` : ''}${after}<p>Summary of story ${n}</p></li>`,
  );
const listing = fc
  .tuple(junk, fc.array(block, { maxLength: 8 }), junk)
  .map(([head, blocks, tail]) => `${head}<ul>${blocks.join('')}</ul>${tail}`);
/** Structured data whose every field may have any JSON type. */
const anyValue = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 4 }), { maxLength: 2 }),
  fc.dictionary(fc.constantFrom('@type', 'url', 'name', '@id'), fc.string({ maxLength: 6 }), { maxKeys: 2 }),
);
const thing = fc.dictionary(
  fc.constantFrom(
    '@type',
    '@context',
    '@graph',
    'itemListElement',
    'item',
    'url',
    'headline',
    'name',
    'image',
    'datePublished',
    'author',
    'description',
    'mainEntity',
    '__proto__',
  ),
  fc.oneof(anyValue, fc.constantFrom('ItemList', 'ListItem', 'BlogPosting', 'NewsArticle', 'Article', ['Article', 'X'])),
  { maxKeys: 6 },
);
const structured = fc
  .array(thing, { maxLength: 4 })
  .map((things) => things.map((t) => `<script type="application/ld+json">${JSON.stringify(t)}</script>`).join(''));
const page = fc
  .tuple(junk, listing, structured, junk)
  .map(([a, b, c, d]) => `<html><head><title>Blog</title></head><body>${a}${b}${c}${d}</body></html>`);

t.test('extractPage returns items or refuses with no_items_found on any arrangement of page pieces', async (t) => {
  let withItems = 0;
  fc.assert(
    fc.property(page, (html) => {
      try {
        const extracted = extractPage(html, { url: 'https://example.org/blog/' });
        if (extracted.items.length > 0) withItems += 1;
        return (
          Array.isArray(extracted.items) && extracted.items.every((item) => typeof item.url === 'string' && typeof item.title === 'string')
        );
      } catch (error) {
        return error instanceof FeedmillError && error.code === 'no_items_found';
      }
    }),
    { numRuns: 3_000 },
  );
  // Otherwise the pages would only ever exercise the refusal.
  t.ok(withItems > 600, `${withItems} of 3000 generated pages gave items`);
});
