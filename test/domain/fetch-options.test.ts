import t from 'tap';
import { isFeedmillError } from '../../src/domain/errors.js';
import { fetchOptionPatterns, parseFetchOptions, summariseFetchOptions } from '../../src/domain/fetch-options.js';

function messageOf(value: unknown): string {
  try {
    parseFetchOptions(value);
  } catch (error) {
    if (isFeedmillError(error) && error.code === 'validation_failed') return error.message;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(value)} to be refused`);
}

function parseRefusal(value: unknown): unknown {
  try {
    parseFetchOptions(value);
  } catch (error) {
    return error;
  }
  return undefined;
}

t.test('valid options come back as given; nothing at all is null', async (t) => {
  const options = parseFetchOptions({
    user_agent: 'Mozilla/5.0 (compatible)',
    headers: { 'X-Api-Key': 'k3y', accept: 'application/json', 'ACCEPT-LANGUAGE': 'de' },
    basic_auth: { username: 'reader', password: 'pässwörd' },
  });
  t.same(options, {
    userAgent: 'Mozilla/5.0 (compatible)',
    headers: { 'X-Api-Key': 'k3y', accept: 'application/json', 'ACCEPT-LANGUAGE': 'de' },
    basicAuth: { username: 'reader', password: 'pässwörd' },
  });
  t.same(summariseFetchOptions(options ?? {}), {
    userAgent: 'Mozilla/5.0 (compatible)',
    headerNames: ['X-Api-Key', 'accept', 'ACCEPT-LANGUAGE'],
    basicAuth: true,
  });
  t.equal(parseFetchOptions(null), null);
  t.equal(parseFetchOptions({}), null);
  t.equal(parseFetchOptions({ headers: {} }), null);
  t.same(parseFetchOptions({ basic_auth: { username: 'token', password: '' } }), {
    basicAuth: { username: 'token', password: '' },
  });
});

t.test('headers may come as a list of name and value', async (t) => {
  t.same(parseFetchOptions({ headers: [{ name: 'Cookie', value: 'session=1' }] }), { headers: { Cookie: 'session=1' } });
});

t.test('a refusal names its field in one spelling, in the message and in details.field', async (t) => {
  const refusal = parseRefusal({ basic_auth: { username: 'a:b', password: '' } });
  t.ok(isFeedmillError(refusal));
  t.match(refusal, {
    code: 'validation_failed',
    details: { field: 'fetch.basic_auth.username' },
    message: /^Expected `fetch\.basic_auth\.username`/,
  });
  t.match(parseRefusal({ user_agent: 'a\nb' }), { details: { field: 'fetch.user_agent' } });
});

t.test('header names come from the allow-list, in any letter case; never Host, hop-by-hop or framing headers', async (t) => {
  for (const name of ['Host', 'Connection', 'Transfer-Encoding', 'Content-Length', 'TE', 'Upgrade', 'Proxy-Authorization', 'Keep-Alive']) {
    t.equal(
      messageOf({ headers: { [name]: 'x' } }),
      `Expected \`fetch.headers.${name}\` to be header names among Accept, Accept-Language, Authorization, Cookie, Referer or X-… (letters, digits and hyphens, at most 64 characters), in any letter case, got a name outside them`,
      name,
    );
  }
  t.match(messageOf({ headers: { 'User-Agent': 'x' } }), /^Expected `fetch\.headers\.User-Agent` .*; set `user_agent` instead$/);
  t.match(
    messageOf({ headers: { 'X-Bad\r\nHost': 'x' } }),
    /^Expected `fetch\.headers` to be header names .*got a name with other characters$/,
  );
  t.match(messageOf({ headers: { X_Under: 'x' } }), /^Expected `fetch\.headers\.X_Under` to be header names/);
  t.equal(
    messageOf({ headers: { 'X-Key': 'a', 'x-key': 'b' } }),
    'Expected `fetch.headers.x-key` to be given once: header names are the same in any letter case, got a second one',
  );
});

t.test('values hold no control characters, and a secret is never quoted back', async (t) => {
  for (const value of ['secret\r\nHost: evil', 'tab\there', ' padded', 'padded ', '', 'nön-ascii']) {
    const message = messageOf({ headers: { 'X-Api-Key': value } });
    t.match(
      message,
      /^Expected `fetch\.headers\.X-Api-Key` to be printable ASCII \(no control characters, no leading or trailing space\) of 1 to 4096 characters, got /,
      JSON.stringify(value),
    );
    if (value.length > 1) t.notOk(message.includes(value), `${JSON.stringify(value)} is not in the message`);
  }
  const password = messageOf({ basic_auth: { username: 'u', password: 'hunter2\n' } });
  t.equal(
    password,
    'Expected `fetch.basic_auth.password` to be text without control characters of 0 to 256 characters, got a value outside those characters',
  );
  t.equal(
    messageOf({ basic_auth: { username: 'a:b', password: 'p' } }),
    'Expected `fetch.basic_auth.username` to be text without control characters or `:` of 1 to 256 characters, got a value outside those characters',
  );
  t.equal(
    messageOf({ basic_auth: { username: 'u' } }),
    'Expected `fetch.basic_auth.password` to be text without control characters of 0 to 256 characters, got nothing',
  );
});

t.test('lengths, counts and the total size are capped', async (t) => {
  t.equal(
    messageOf({ user_agent: 'a'.repeat(257) }),
    'Expected `fetch.user_agent` to be printable ASCII (no control characters, no leading or trailing space) of 1 to 256 characters, got 257 characters',
  );
  t.equal(
    messageOf({ headers: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`X-H${i}`, 'v'])) }),
    'Expected `fetch.headers` to be at most 16 headers, got 17 headers',
  );
  t.match(messageOf({ headers: { 'X-Big': 'v'.repeat(4097) } }), /`fetch\.headers\.X-Big` .* got 4097 characters$/);
  t.equal(
    messageOf({ headers: { 'X-A': 'v'.repeat(4096), 'X-B': 'v'.repeat(4096), 'X-C': 'v' } }),
    'Expected `fetch.headers` to be headers of at most 8192 characters altogether, names and values, got 8202 characters',
  );
  t.match(messageOf({ headers: { [`X-${'n'.repeat(63)}`]: 'v' } }), /to be header names among/);
});

t.test('an Authorization header and basic_auth are not given together', async (t) => {
  t.equal(
    messageOf({ headers: { authorization: 'Bearer x' }, basic_auth: { username: 'u', password: 'p' } }),
    'Expected `fetch.headers.authorization` to be absent when `basic_auth` is given (both set `Authorization`), got both',
  );
  t.ok(parseFetchOptions({ headers: { Authorization: 'Bearer x' } }));
});

t.test('unknown fields and wrong shapes are named', async (t) => {
  t.equal(
    messageOf({ cookies: 'x' }),
    'Expected `fetch.cookies` to be absent: only `user_agent`, `headers` and `basic_auth` are known, got a value',
  );
  t.equal(messageOf('x'), 'Expected `fetch` to be an object with any of `user_agent`, `headers` and `basic_auth`, got "x"');
  t.equal(messageOf({ headers: 'x' }), 'Expected `fetch.headers` to be an object of header names and values, got "x"');
});

t.test('the published patterns state the same rules (the REST schema carries them)', async (t) => {
  const name = new RegExp(fetchOptionPatterns.headerName, 'u');
  for (const ok of ['accept', 'ACCEPT-LANGUAGE', 'Cookie', 'referer', 'AuThOrIzAtIoN', 'x-api-key', 'X-1']) t.ok(name.test(ok), ok);
  for (const bad of ['Host', 'User-Agent', 'X-', 'X_A', 'Accept ', 'Content-Length']) t.notOk(name.test(bad), bad);
  const text = new RegExp(fetchOptionPatterns.headerText, 'u');
  t.ok(text.test('a b'));
  for (const bad of ['', ' a', 'a ', 'a\r\nb', 'ä']) t.notOk(text.test(bad), JSON.stringify(bad));
});
