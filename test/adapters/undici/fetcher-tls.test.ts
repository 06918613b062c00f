import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';
import t from 'tap';
import { createUndiciFetcher } from '../../../src/adapters/undici/fetcher.js';

t.test('an untrusted certificate makes the source unreachable, and SNI still names the host', async (t) => {
  const pems = await generate([{ name: 'commonName', value: 'feeds.example.test' }], { keySize: 2048 });
  const sniSeen: string[] = [];
  let requests = 0;
  const server = createServer(
    {
      key: pems.private,
      cert: pems.cert,
      SNICallback: (servername, done) => {
        sniSeen.push(servername);
        done(null);
      },
    },
    (_req, res) => {
      requests++;
      res.end('<rss/>');
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  const { port } = server.address() as AddressInfo;
  const fetcher = createUndiciFetcher({
    allowPrivateNetworks: true,
    lookup: async () => [{ address: '127.0.0.1', family: 4 }],
    timeoutMs: 2000,
  });
  t.teardown(() => fetcher.close());

  const error = await fetcher.fetch({ url: `https://feeds.example.test:${port}/feed.xml` }).catch((e: unknown) => e);
  t.match(error, { code: 'source_unreachable', message: /TLS handshake failed \(DEPTH_ZERO_SELF_SIGNED_CERT/ });
  t.same(sniSeen, ['feeds.example.test'], 'the socket went to the checked address, the handshake named the host');
  t.equal(requests, 0, 'no request was sent over the untrusted connection');
});
