import t from 'tap';
import { parseBearer, parseScopes } from '../../src/domain/api-key.js';

t.test('a Bearer header carries the key and the secret', async (t) => {
  t.same(parseBearer('Bearer fmk_AAAAAAAAAAAAAAAA:s3cr3t'), { keyId: 'fmk_AAAAAAAAAAAAAAAA', secret: 's3cr3t' });
  t.same(parseBearer('bearer k:s'), { keyId: 'k', secret: 's' }, 'the scheme is case-insensitive (RFC 9110 §11.1)');
  t.same(parseBearer('Bearer   k:s  '), { keyId: 'k', secret: 's' }, 'extra spaces around the credentials');
});

t.test('a secret may itself contain colons; the key ends at the first one', async (t) => {
  t.same(parseBearer('Bearer key:sec:ret'), { keyId: 'key', secret: 'sec:ret' });
});

t.test('headers that are not a key and secret pair are refused', async (t) => {
  const refused = [
    undefined,
    '',
    'Bearer',
    'Bearer ',
    'Bearer key',
    'Bearer key:',
    'Bearer :secret',
    'Bearer key: secret',
    'Bearer key:sec ret',
    'Basic a2V5OnNlY3JldA==',
    'Basic key:secret',
    'Bearerkey:secret',
    'Token key:secret',
    ' Bearer key:secret',
  ];
  for (const header of refused) t.equal(parseBearer(header), null, JSON.stringify(header));
});

t.test('scopes are read from a comma-separated list', async (t) => {
  t.same(parseScopes('read'), ['read']);
  t.same(parseScopes('read,write'), ['read', 'write']);
  t.same(parseScopes(' write , read '), ['write', 'read']);
  t.same(parseScopes('read,read,write'), ['read', 'write'], 'a repeated scope counts once');
  t.same(parseScopes('read,,write,'), ['read', 'write'], 'empty entries are ignored');
});

t.test('an unknown or empty scope list is refused', async (t) => {
  t.equal(parseScopes(''), null);
  t.equal(parseScopes(' , '), null);
  t.equal(parseScopes('admin'), null);
  t.equal(parseScopes('read,admin'), null, 'one unknown scope refuses the whole list');
  t.equal(parseScopes('READ'), null, 'scopes are lower-case');
});
