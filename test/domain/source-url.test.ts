import t from 'tap';
import { maxUrlLength, parseSourceUrl, parseWebUrl } from '../../src/domain/source-url.js';

const refusal = (fn: () => unknown): { code?: string; message?: string } => {
  try {
    fn();
  } catch (error) {
    return error as { code?: string; message?: string };
  }
  return {};
};

t.test('a web URL is an absolute http(s) URL without credentials, or a reference resolved against a base', async (t) => {
  t.equal(parseWebUrl(' https://example.org/a ', 'url').href, 'https://example.org/a');
  t.equal(parseWebUrl('/moved?x=1', { whole: 'the redirect' }, new URL('https://example.org/a/b')).href, 'https://example.org/moved?x=1');
  t.equal(parseWebUrl('http://2130706433/', 'url').hostname, '127.0.0.1', 'odd IPv4 spellings normalised for the address rule');
  t.match(
    refusal(() => parseWebUrl('ftp://example.org/', { whole: 'the source' })),
    {
      code: 'invalid_url',
      message: 'Expected the source to be an http or https URL, got a `ftp:` URL',
    },
  );
  t.match(
    refusal(() => parseWebUrl('example.org', 'hub.callback')),
    {
      code: 'invalid_url',
      message: 'Expected `hub.callback` to be an absolute http or https URL, got "example.org"',
    },
  );
  const credentials = refusal(() => parseWebUrl('https://jo:hunter2@example.org/', 'url'));
  t.match(credentials, { code: 'invalid_url', message: /without a user name or password, got one with credentials/ });
  t.notMatch(credentials.message ?? '', /hunter2/, 'the password is never repeated');
});

t.test('a URL a person gives is also held to the length limit; one the fetcher meets is not', async (t) => {
  const long = `https://example.org/${'a'.repeat(maxUrlLength)}`;
  t.match(
    refusal(() => parseSourceUrl(long)),
    {
      code: 'invalid_url',
      message: `Expected \`url\` to be a URL of at most ${maxUrlLength} characters, got ${long.length} characters`,
    },
  );
  t.equal(parseWebUrl(long, { whole: 'the redirect' }).href, long, 'a long redirect or item address is still fetched');
  t.match(
    refusal(() => parseSourceUrl('mailto:jo@example.org', 'hub.callback')),
    { message: /^Expected `hub\.callback` to be/ },
  );
});
