import t from 'tap';
import { createFeedmillClient } from '../../src/client/index.js';

t.test('the client sends the key pair as a bearer token, to the path the operation names', async (t) => {
  const sent: Request[] = [];
  const feedmill = createFeedmillClient({
    baseUrl: 'https://feeds.example.org/',
    key: 'fmk_abc',
    secret: 's3cret',
    fetch: async (request) => {
      sent.push(request);
      return new Response(JSON.stringify({ id: 'Vw3kQ9xZpL2mRt7a', deleted: true }), { headers: { 'content-type': 'application/json' } });
    },
  });
  const { data } = await feedmill.DELETE('/v1/feeds/{id}', { params: { path: { id: 'Vw3kQ9xZpL2mRt7a' } } });
  t.same(data, { id: 'Vw3kQ9xZpL2mRt7a', deleted: true });
  t.equal(sent[0]?.url, 'https://feeds.example.org/v1/feeds/Vw3kQ9xZpL2mRt7a');
  t.equal(sent[0]?.method, 'DELETE');
  t.equal(sent[0]?.headers.get('authorization'), 'Bearer fmk_abc:s3cret');
});

t.test("an error answer arrives as `error`, in feedmill's shape", async (t) => {
  const body = { message: 'No such feed', statusCode: 404, errors: [{ title: 'No such feed', code: 'feed_not_found' }] };
  const feedmill = createFeedmillClient({
    baseUrl: 'https://feeds.example.org',
    key: 'k',
    secret: 's',
    fetch: async () => new Response(JSON.stringify(body), { status: 404, headers: { 'content-type': 'application/json' } }),
  });
  const { data, error, response } = await feedmill.GET('/v1/feeds/{id}', { params: { path: { id: 'gone' } } });
  t.equal(data, undefined);
  t.equal(response.status, 404);
  t.same(error, body);
});

t.test('package.json exports the client as feedmill/client', async (t) => {
  // A name the compiler does not resolve: dist/ need not exist when the tests are type-checked.
  const specifier: string = 'feedmill/client';
  const exported = (await import(specifier)) as { createFeedmillClient?: unknown };
  t.equal(exported.createFeedmillClient, createFeedmillClient, 'the same module as src/client, compiled');
});
