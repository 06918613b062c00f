import fc from 'fast-check';
import t from 'tap';
import { resolveUrl } from '../../workers/shared/urls.js';

const bases = [
  'https://Example.ORG:443/a/b',
  'http://example.org:8080/x/',
  'https://user:pw@example.org/',
  'https://bücher.example/p',
  'file:///tmp/feed.xml',
  'https://example.org',
];
const piece = fc.constantFrom(
  '/',
  'a',
  'Z',
  '0',
  '.',
  '..',
  '?',
  '#',
  '%',
  '%41',
  '&',
  '=',
  ':',
  '@',
  '~',
  '+',
  ';',
  "'",
  ' ',
  '"',
  '`',
  '{',
  '\\',
  'é',
  '//',
  '-',
  '_',
);

/** `new URL`'s answer; what it cannot resolve (`//` has no host) stays as written, trimmed. */
function parserResult(reference: string, base: string): string {
  try {
    return new URL(reference.trim(), base).href;
  } catch {
    return reference.trim();
  }
}

t.test('a path-absolute reference resolves exactly as the WHATWG URL parser resolves it, shortcut or not', async (t) => {
  fc.assert(
    fc.property(fc.constantFrom(...bases), fc.array(piece, { maxLength: 12 }), (base, parts) => {
      const reference = `/${parts.join('')}`;
      return resolveUrl(reference, base) === parserResult(reference, base);
    }),
    { numRuns: 5000 },
  );
  t.pass('5000 generated references agree');
});

t.test('the origin shortcut keeps the base’s port, drops its default port and never carries credentials', async (t) => {
  t.equal(resolveUrl('/img/1.jpg?w=2#top', 'https://Example.ORG:443/a/b'), 'https://example.org/img/1.jpg?w=2#top');
  t.equal(resolveUrl('/x', 'http://example.org:8080/feed'), 'http://example.org:8080/x');
  t.equal(resolveUrl('/x', 'https://user:pw@example.org/'), 'https://user:pw@example.org/x', 'credentials stay, as the parser keeps them');
  t.equal(resolveUrl('/a/../b', 'https://example.org/'), 'https://example.org/b', 'dot segments go through the parser');
});
