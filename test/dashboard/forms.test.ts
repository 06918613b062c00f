import t from 'tap';
import { FeedmillError, fieldRefusal } from '../../src/domain/errors.js';
import { validateFullTextRules } from '../../src/domain/full-text-rules.js';
import { parseFetchOptions } from '../../src/domain/fetch-options.js';
import { parseFilter } from '../../src/domain/item-filter.js';
import { parseRegion } from '../../src/domain/keyword-source.js';
import { parseSourceUrl } from '../../src/domain/source-url.js';
import { fieldErrorOf } from '../../src/dashboard/forms.js';

const refusalOf = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a refusal');
};

t.test('the parsers name the refused field in details.field, as the client wrote it', async (t) => {
  const cases: [string, () => unknown][] = [
    ['region', () => parseRegion('nowhere')],
    ['url', () => parseSourceUrl('ftp://example.com/')],
    ['target', () => parseSourceUrl('not a url', 'target')],
    ['filters.any[0].op', () => parseFilter({ any: [{ field: 'title', op: 'resembles', value: 'x' }] })],
    ['full_text_rules.remove[1]', () => validateFullTextRules({ remove: ['p', 'a[['] })],
    ['fetch.headers.Host', () => parseFetchOptions({ headers: { Host: 'elsewhere.example' } })],
    ['fetch.basic_auth.password', () => parseFetchOptions({ basic_auth: { username: 'u', password: 'a\nb' } })],
  ];
  for (const [field, run] of cases) {
    const error = refusalOf(run);
    t.ok(error instanceof FeedmillError, `${field}: a FeedmillError`);
    t.equal((error as FeedmillError).details.field, field, `${field}: named in details`);
  }
});

t.test('a subject in words names no field', async (t) => {
  t.same(fieldRefusal({ whole: 'the request body' }, 'Expected the request body to be JSON').details, {});
  t.equal(fieldRefusal('url', 'bad', 'invalid_url').code, 'invalid_url');
});

t.test('a form ties a refusal to its input by the field named, not by the words of the message', async (t) => {
  const inputs = { min_interval: 'minInterval', 'full_text_rules.remove': 'fullTextRemove', region: 'region' };
  t.same(fieldErrorOf(fieldRefusal('min_interval', 'Expected a number'), 'customAuthor', inputs), {
    field: 'minInterval',
    message: 'Expected a number',
  });
  t.equal(fieldErrorOf(fieldRefusal('full_text_rules.remove[2]', 'm'), 'customAuthor', inputs).field, 'fullTextRemove', 'a sub-field');
  // A message that mentions another field's name in its words still goes by details.field.
  t.equal(fieldErrorOf(fieldRefusal('keyword', 'Expected `keyword`, not a `region`'), 'keyword', inputs).field, 'keyword');
  t.equal(fieldErrorOf(new FeedmillError('feed_not_found', 'no such feed'), 'scope', inputs).field, 'scope', 'no field: the fallback');
  t.equal(fieldErrorOf(fieldRefusal('regions', 'm'), 'keyword', inputs).field, 'keyword', 'a longer name is another field');
  t.throws(() => fieldErrorOf(new FeedmillError('store_unavailable', 'down'), 'url'), 'not a refusal of the input: the error page');
});
