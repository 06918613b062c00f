import iconv from 'iconv-lite';
import t from 'tap';
import { parseFeed } from '../../workers/parse-feed.js';
import { decodeBytes, encodingForLabel } from '../../workers/shared/charset.js';

const meta = { url: 'https://example.org/feed.xml' };
const feed = (declared?: string): string =>
  `${declared === undefined ? '' : `<?xml version="1.0" encoding="${declared}"?>`}<rss version="2.0"><channel><title>Zoë ✓ 𝄞</title></channel></rss>`;
const bom = {
  'utf-8': [0xef, 0xbb, 0xbf],
  'utf-16le': [0xff, 0xfe],
  'utf-16be': [0xfe, 0xff],
  'utf-32le': [0xff, 0xfe, 0, 0],
  'utf-32be': [0, 0, 0xfe, 0xff],
} as const;

function encoded(text: string, encoding: keyof typeof bom, withBom: boolean): Uint8Array {
  // iconv-lite writes no BOM unless asked (addBOM), so the one under test is ours.
  const body = iconv.encode(text, encoding, { addBOM: false });
  return withBom ? Buffer.concat([Buffer.from(bom[encoding]), body]) : body;
}

t.test('UTF-8, UTF-16 and UTF-32 in both byte orders are read with a BOM and without one', async (t) => {
  for (const encoding of Object.keys(bom) as (keyof typeof bom)[]) {
    for (const withBom of [true, false]) {
      for (const declared of [undefined, encoding.toUpperCase()]) {
        const title = parseFeed(encoded(feed(declared), encoding, withBom), meta).title;
        t.equal(title, 'Zoë ✓ 𝄞', `${encoding}, ${withBom ? 'BOM' : 'no BOM'}, ${declared === undefined ? 'no declaration' : 'declared'}`);
      }
    }
  }
});

t.test('precedence: the BOM, then wide bytes, then the HTTP charset, then the XML declaration, then UTF-8', async (t) => {
  const latin = iconv.encode(feed('windows-1252').replace('✓ 𝄞', '€'), 'windows-1252');
  t.equal(parseFeed(latin, meta).title, 'Zoë €', 'the declaration, when the header names no charset');
  t.equal(
    parseFeed(latin, { ...meta, contentType: 'application/rss+xml; charset=iso-8859-1' }).title,
    'Zoë €',
    'iso-8859-1 is read as windows-1252',
  );
  const utf8 = Buffer.from(feed('windows-1252'), 'utf8');
  t.equal(parseFeed(utf8, { ...meta, contentType: 'text/xml; charset=utf-8' }).title, 'Zoë ✓ 𝄞', 'the header wins over the declaration');
  t.equal(
    parseFeed(encoded(feed(), 'utf-8', true), { ...meta, contentType: 'text/xml; charset=iso-8859-1' }).title,
    'Zoë ✓ 𝄞',
    'the BOM wins over the header',
  );
  t.equal(
    parseFeed(encoded(feed(), 'utf-16le', false), { ...meta, contentType: 'text/xml; charset=utf-8' }).title,
    'Zoë ✓ 𝄞',
    'wide bytes win over an ASCII-compatible header',
  );
  t.equal(parseFeed(Buffer.from(feed('UTF-16'), 'utf8'), meta).title, 'Zoë ✓ 𝄞', 'a UTF-16 declaration in bytes read as ASCII means UTF-8');
  t.equal(parseFeed(Buffer.from(feed('no-such-charset'), 'utf8'), meta).title, 'Zoë ✓ 𝄞', 'an unknown label means UTF-8');
});

t.test('pages use the same table: <meta> after the header, UTF-16 in a meta tag means UTF-8', async (t) => {
  const page = (charset: string): string => `<html><head><meta charset="${charset}"></head><body>café</body></html>`;
  t.match(decodeBytes(iconv.encode(page('latin1'), 'windows-1252'), undefined, 'html'), /café/);
  t.match(decodeBytes(Buffer.from(page('utf-16'), 'utf8'), undefined, 'html'), /café/);
  t.match(decodeBytes(iconv.encode(page('utf-8'), 'windows-1252'), 'text/html; charset=windows-1252', 'html'), /café/);
  t.equal(encodingForLabel('GB2312', false), 'gbk');
  t.equal(encodingForLabel('x-sjis', true), 'shift_jis');
});
