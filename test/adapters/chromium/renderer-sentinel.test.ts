import { createSocket } from 'node:dgram';
import { createServer } from 'node:net';
import t from 'tap';
import type { Fetcher } from '../../../src/ports/fetcher.js';
import { chromiumExecutable } from '../../fixtures/browser.js';
import { fetcherAllowing, serveOn, testRenderer } from './render-fixtures.js';

const chromium = chromiumExecutable();

/**
 * A sentinel on 127.0.0.1: a TCP listener and a UDP socket on the same port, counting every
 * connection and datagram. The page is served from 127.0.0.2, the only address the rule allows.
 */
async function startSentinel() {
  const seen: string[] = [];
  const tcp = createServer((socket) => {
    seen.push(`tcp from ${socket.remoteAddress ?? '?'}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', () => resolve()));
  const port = (tcp.address() as { port: number }).port;
  const udp = createSocket('udp4');
  udp.on('message', (_message, from) => seen.push(`udp from ${from.address}`));
  await new Promise<void>((resolve) => udp.bind(port, '127.0.0.1', () => resolve()));
  return {
    port,
    seen,
    close: async () => {
      udp.close();
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
    },
  };
}

/** Every way a page's script or markup could make the browser reach `target` on its own. */
function hostilePage(target: string, wsTarget: string, port: number): string {
  return `<!doctype html>
<html><head><title>Escapes</title>
<link rel="preconnect" href="${target}/">
<link rel="dns-prefetch" href="${target}/">
<link rel="prefetch" href="${target}/prefetch">
<link rel="preload" as="fetch" href="${target}/preload">
<link rel="stylesheet" href="${target}/style.css">
<script src="${target}/script.js"></script>
</head><body>
<img src="${target}/image.png">
<iframe src="${target}/frame"></iframe>
<a id="pinger" href="${target}/popup-link" ping="${target}/ping" target="_blank">ping</a>
<ul id="list"></ul>
<script>
  const tries = [];
  const attempt = (name, action) => { try { const r = action(); if (r && r.catch) r.catch(() => {}); } catch (e) { tries.push(name + ': ' + e.message); } };
  attempt('fetch', () => fetch('${target}/fetch'));
  attempt('fetch localhost', () => fetch('http://localhost:${port}/fetch'));
  attempt('fetch post', () => fetch('${target}/post', { method: 'POST', body: 'x' }));
  attempt('metadata', () => fetch('http://169.254.169.254/latest/meta-data/'));
  attempt('xhr', () => { const x = new XMLHttpRequest(); x.open('GET', '${target}/xhr'); x.send(); });
  attempt('beacon', () => navigator.sendBeacon('${target}/beacon', 'x'));
  attempt('websocket', () => new WebSocket('${wsTarget}/ws'));
  attempt('eventsource', () => new EventSource('${target}/events'));
  attempt('webrtc', () => {
    const Peer = window.RTCPeerConnection || window.webkitRTCPeerConnection;
    const peer = new Peer({ iceServers: [{ urls: 'stun:127.0.0.1:${port}' }, { urls: 'turn:127.0.0.1:${port}?transport=tcp', username: 'u', credential: 'c' }] });
    peer.createDataChannel('x');
    return peer.createOffer().then((offer) => peer.setLocalDescription(offer));
  });
  attempt('popup', () => window.open('${target}/popup'));
  attempt('ping', () => document.getElementById('pinger').click());
  attempt('image', () => { new Image().src = '${target}/image2.png'; });
  for (const title of ['First', 'Second', 'Third']) {
    const li = document.createElement('li');
    li.innerHTML = '<a href="/post/' + title.toLowerCase() + '">' + title + ' post</a>';
    document.getElementById('list').append(li);
  }
  document.title = 'Rendered';
</script>
</body></html>`;
}

/** The fetcher, recording what the page asked of it and how each ask ended. */
function recording(fetcher: Fetcher) {
  const asked: { url: string; outcome: string }[] = [];
  const wrapped: Fetcher = {
    async fetch(request) {
      try {
        const result = await fetcher.fetch(request);
        asked.push({ url: request.url, outcome: String(result.status) });
        return result;
      } catch (error) {
        asked.push({ url: request.url, outcome: (error as { code?: string }).code ?? 'error' });
        throw error;
      }
    },
    close: () => fetcher.close(),
  };
  return { fetcher: wrapped, asked };
}

t.test(
  'a rendered page reaches nothing the address rule refuses, by any path',
  { skip: 'skip' in chromium ? chromium.skip : false },
  async (t) => {
    if (!('path' in chromium)) return;
    const sentinel = await startSentinel();
    t.teardown(sentinel.close);
    const target = `http://127.0.0.1:${sentinel.port}`;
    const page = await serveOn('127.0.0.2', (_request, response) => {
      response.setHeader('content-type', 'text/html; charset=utf-8');
      response.end(hostilePage(target, `ws://127.0.0.1:${sentinel.port}`, sentinel.port));
    });
    t.teardown(page.close);
    const { fetcher, asked } = recording(fetcherAllowing('127.0.0.2'));
    t.teardown(() => fetcher.close());
    const renderer = testRenderer(chromium.path, fetcher);
    t.teardown(() => renderer.close());

    const rendered = await renderer.render({ url: `${page.origin}/` });
    const html = Buffer.from(rendered.body).toString('utf8');
    t.match(html, /<title>Rendered<\/title>/, 'the page script ran to its end');
    t.match(html, /Third post/, 'the list the script built is in the rendered HTML');

    // Whatever the browser might still open after the page was read has had time to arrive.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    t.same(sentinel.seen, [], 'the sentinel saw no connection and no datagram');
    const reached = asked.filter((entry) => !entry.url.startsWith(page.origin));
    t.ok(reached.length > 0, 'the page did ask for the sentinel through the fetcher');
    t.ok(
      reached.every((entry) => entry.outcome === 'address_not_allowed'),
      `every request off the page's own address was refused by the address rule: ${JSON.stringify(reached)}`,
    );
    t.ok(
      asked.some((entry) => entry.url.startsWith('http://169.254.169.254/') && entry.outcome === 'address_not_allowed'),
      'the metadata address was refused',
    );
    t.notOk(
      asked.some((entry) => /\/(post|beacon|ping)$/.test(entry.url)),
      'no POST, beacon or ping was made on the page’s behalf',
    );
  },
);
