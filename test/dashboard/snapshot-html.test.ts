import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { sanitiseSnapshot, snapshotPolicy } from '../../src/dashboard/snapshot-html.js';
import { repoRoot } from '../fixtures/repo-root.js';

const sanitise = (html: string, contentType = 'text/html; charset=utf-8'): string => sanitiseSnapshot(Buffer.from(html), contentType);

t.test('nothing that runs, redirects, submits or embeds survives', async (t) => {
  const out =
    sanitise(`<html><head><base href="https://elsewhere.example/"><meta http-equiv="refresh" content="0;url=https://elsewhere.example/">
<meta charset="utf-8"><link rel="stylesheet" href="https://elsewhere.example/a.css"><script>alert(1)</script><script src="x.js"></script></head>
<body onload="alert(2)"><p onclick="alert(3)" onmouseover="alert(4)">text</p>
<a href="javascript:alert(5)">js</a><a href=" JaVaScRiPt:alert(6)">js2</a><a href="data:text/html,<script>alert(7)</script>">data</a>
<form action="/post" method="post"><input name="q"><textarea>t</textarea><select><option>o</option></select><button formaction="/x">Go</button></form>
<iframe src="https://elsewhere.example/"></iframe><object data="x.swf"></object><embed src="x.swf"><svg onload="alert(8)"><script>alert(9)</script></svg>
<img src="https://elsewhere.example/i.png" srcset="https://elsewhere.example/i2.png 2x" onerror="alert(10)"><script>unclosed(11)`);
  for (const banned of [
    /<script/i,
    /<base/i,
    /<meta/i,
    /refresh/i,
    /<link/i,
    /<form/i,
    /<input/i,
    /<textarea/i,
    /<select/i,
    /<iframe/i,
    /<object/i,
    /<embed/i,
    /<svg/i,
    /\son\w+=/i,
    /javascript:/i,
    /alert/,
    /unclosed/,
    /elsewhere\.example/,
    /srcset/,
    /formaction/,
  ]) {
    t.notMatch(out, banned, `no ${String(banned)}`);
  }
  t.match(out, '<p>text</p>', 'the text and its element stay');
  t.match(out, '<button>Go</button>', 'a form’s other content stays, the form itself goes');
});

t.test('the structure selectors name stays: classes, ids, data and microdata attributes, dates, styles, inline images', async (t) => {
  const out = sanitise(
    `<div id="list" class="notices"><article class="notice" data-href="/n/1" itemscope itemprop="item"><h2 class="t"><a href="/n/1" target="_blank" rel="x">One</a></h2><time datetime="2024-03-05">5 March</time><img src="data:image/png;base64,iVBORw0KGgo=" alt="x" class="thumb"></article><my-card class="c">custom</my-card></div><style>.notice{color:red}</style>`,
  );
  t.match(out, '<div id="list" class="notices">');
  t.match(out, '<article class="notice" data-href="/n/1" itemscope itemprop="item">');
  t.match(out, '<a href="/n/1">One</a>', 'links keep their address, and nothing that opens windows');
  t.match(out, '<time datetime="2024-03-05">');
  t.match(out, /<img alt="x" class="thumb" src="data:image\/png;base64,iVBORw0KGgo=" \/>/, 'an inline image keeps its source');
  t.match(out, '<my-card class="c">custom</my-card>', 'a page’s own elements stay');
  t.match(out, '<style>.notice{color:red}</style>');
});

t.test('a page in a legacy charset is decoded as the browser would', async (t) => {
  const out = sanitiseSnapshot(Buffer.from('<p>caf\xe9</p>', 'latin1'), 'text/html; charset=windows-1252');
  t.match(out, '<p>café</p>');
});

t.test('the fixture listing keeps its three notices and loses every sentinel', async (t) => {
  const out = sanitise(readFileSync(join(repoRoot, 'test/fixtures/pages/picker-listing.html'), 'utf8'));
  t.equal(out.match(/<article class="notice/g)?.length, 3);
  t.notMatch(out, /sentinel/, 'nothing in it could ask the page’s server for anything');
});

t.test('the snapshot policy sandboxes the document and loads nothing remote', async (t) => {
  const directives = new Map(
    snapshotPolicy.split(';').map((part) => {
      const [name = '', ...values] = part.trim().split(/\s+/);
      return [name, values.join(' ')];
    }),
  );
  t.equal(directives.get('sandbox'), 'allow-same-origin', 'a sandbox that allows no script, form, popup or top navigation');
  t.equal(directives.get('default-src'), "'none'");
  t.equal(directives.get('style-src'), "'unsafe-inline'");
  t.equal(directives.get('img-src'), 'data:');
  t.notOk(directives.has('script-src'), 'no script source at all');
});
