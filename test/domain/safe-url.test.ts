import t from 'tap';
import { isFeedmillError } from '../../src/domain/errors.js';
import { safeUrl, userIcon } from '../../src/domain/safe-url.js';

const base = 'https://example.org/blog/post';

t.test('http(s) URLs pass, absolute ones as written', async (t) => {
  t.equal(safeUrl('https://Example.org/a/../b?q=1#f'), 'https://Example.org/a/../b?q=1#f');
  t.equal(safeUrl('  HTTP://example.org/x  '), 'HTTP://example.org/x', 'trimmed, its spelling kept');
  t.equal(safeUrl('/img.png', base), 'https://example.org/img.png', 'relative ones resolved against the base');
  t.equal(safeUrl('//cdn.example.net/x', base), 'https://cdn.example.net/x');
  t.equal(safeUrl('ht\ttp://example.org/x'), 'http://example.org/x', 'a tab inside the scheme is read as a browser reads it');
});

// Found by the fuzzer (test/fuzz/seeds/parse-feed/empty-host.xml): an item linking to `http://`
// came out with that as its URL, which no reader can open.
t.test('an http(s) URL with no host, an empty one or one no parser accepts is refused', async (t) => {
  for (const url of [
    'http://',
    'https://',
    'http://:80/',
    'https://?q',
    'http://#top',
    'http://1.2.3.999/',
    'http://[::1/',
    'http://exa%mple.org/',
  ])
    t.equal(safeUrl(url), null, url);
  t.equal(safeUrl('http://', base), null, 'a base does not rescue it');
});

t.test('every other scheme is refused, however it is spelled', async (t) => {
  const spellings = [
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' \t\n javascript:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    'java\rscript:alert(1)',
    '\u0001javascript:alert(1)',
    'javascript\t:alert(1)',
    'vbscript:msgbox(1)',
    'data:text/html,<script>alert(1)</script>',
    'data:image/svg+xml;base64,PHN2Zz4=',
    'data:image/png;base64,iVBOR',
    'file:///etc/passwd',
    'blob:https://example.org/x',
    'ftp://example.org/f',
    'tel:+100',
    'mailto:a@example.org',
  ];
  for (const spelling of spellings) {
    t.equal(safeUrl(spelling, base), null, JSON.stringify(spelling));
  }
});

t.test('mailto: is allowed for links only', async (t) => {
  t.equal(safeUrl('mailto:a@example.org', base, 'link'), 'mailto:a@example.org');
  t.equal(safeUrl('MAILTO:a@example.org', base, 'resource'), null);
  t.equal(safeUrl('javascript:alert(1)', base, 'link'), null);
});

t.test('a relative reference with no base, or a base that is not a web address, is refused', async (t) => {
  t.equal(safeUrl('/x'), null);
  t.equal(safeUrl('//evil.example/x'), null);
  t.equal(safeUrl('x', 'javascript:alert(1)'), null);
  t.equal(safeUrl('x', 'data:text/html,hi'), null);
  t.equal(safeUrl(''), null);
  t.equal(safeUrl('http://exa mple.org/'), null, 'what does not parse is refused');
});

t.test('a user’s icon is an absolute http(s) URL or nothing', async (t) => {
  t.equal(userIcon('https://example.org/i.png'), 'https://example.org/i.png');
  t.equal(userIcon(''), '', 'an empty icon removes it');
  for (const bad of ['javascript:alert(1)', 'data:image/png;base64,iVBOR', '/relative.png', 'example.org/i.png', 'mailto:a@example.org']) {
    try {
      userIcon(bad);
      t.fail(`${bad} was accepted`);
    } catch (error) {
      t.ok(isFeedmillError(error) && error.code === 'invalid_url', bad);
      t.match((error as Error).message, /Expected `icon` to be an absolute http or https URL/);
    }
  }
});
