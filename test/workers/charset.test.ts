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
  t.equal(parseFeed(Buffer.from(feed('no-such-charset'), 'utf8'), meta).title, 'Zoë ✓ 𝄞', 'an unknown label over UTF-8 bytes: UTF-8');
  t.equal(
    parseFeed(iconv.encode(feed('dbcs').replace('✓ 𝄞', '€ “naïve” café'), 'windows-1252'), meta).title,
    'Zoë € “naïve” café',
    'an unknown label over other bytes counts as none: the detector reads them',
  );
  t.equal(encodingForLabel('no-such-charset', false), undefined);
  // Python's codec names: 0x80 is Ç in Icelandic DOS (cp861) and Ä in Mac Central European.
  const byte80 = (label: string): string => `<?xml version="1.0" encoding="${label}"?><rss><channel><title>\x80</title></channel></rss>`;
  const pythonNames: [string, string][] = [
    ['cp_is', 'Ç'],
    ['maccentraleurope', 'Ä'],
    ['mac_latin2', 'Ä'],
  ];
  for (const [label, expected] of pythonNames) {
    t.equal(parseFeed(Buffer.from(byte80(label), 'latin1'), meta).title, expected, `a document declared ${label}`);
  }
  // Short Cyrillic text the detector would read as Latin-1: only the declaration can say what it is.
  const cyrillic = iconv.encode(feed('windows-1251').replace('Zoë ✓ 𝄞', 'Новости'), 'windows-1251');
  t.equal(
    parseFeed(cyrillic, { ...meta, contentType: 'application/rss+xml; charset=no-such-charset' }).title,
    'Новости',
    'an unknown header charset gives way to the declaration',
  );
});

t.test('a document no label describes: UTF-8 when its bytes are, else what the detector reads them as', async (t) => {
  const news = (title: string, text: string): string =>
    `<rss version="2.0"><channel><title>${title}</title><item><title>${title}</title><description>${text}</description></item></channel></rss>`;
  const unlabelled: [string, string, string][] = [
    ['shift_jis', '日本語のニュース', '今日のニュースは天気とスポーツです。経済と政治も。'],
    ['euc-kr', '한국어 뉴스', '오늘의 뉴스는 날씨와 스포츠입니다'],
    ['gb18030', '中文新闻', '今天的新闻是天气和体育，还有经济和政治。'],
    ['big5', '中文新聞', '今天的新聞是天氣和體育，還有經濟和政治。'],
    // Single-byte Cyrillic needs a few sentences to tell from Latin-1: a statistical reading, not a rule.
    [
      'koi8-r',
      'Новости дня',
      'Сегодня в новостях: погода и спорт, экономика и политика. Правительство объявило о новых мерах поддержки малого бизнеса и семей с детьми.',
    ],
    ['windows-1252', 'Café — “naïve”', 'Résumé of the day’s news, à la carte, déjà vu'],
  ];
  for (const [encoding, title, text] of unlabelled) {
    const parsed = parseFeed(iconv.encode(news(title, text), encoding), meta);
    t.same([parsed.title, parsed.items[0]?.description_text], [title, text], `${encoding} without a label`);
  }
  const valid = Buffer.from(news('Zoë ✓', 'Ünïcödé '.repeat(20).trim()), 'utf8');
  const stray = Buffer.concat([valid.subarray(0, 60), Buffer.from([0xe9]), valid.subarray(60)]);
  t.equal(parseFeed(stray, meta).items[0]?.description_text, 'Ünïcödé '.repeat(20).trim(), 'UTF-8 with one stray byte stays UTF-8');
  const sjis = iconv.encode(news('日本語', '今日のニュース'), 'shift_jis');
  t.not(
    parseFeed(sjis, { ...meta, contentType: 'text/xml; charset=utf-8' }).title,
    '日本語',
    'a label is never second-guessed: the detector reads only what nothing labels',
  );
  t.match(
    decodeBytes(
      iconv.encode('<html><body><p>今日のニュースは天気とスポーツです。経済と政治も。</p></body></html>', 'shift_jis'),
      undefined,
      'html',
    ),
    /天気/,
    'pages too',
  );
});

t.test('pages use the same table: <meta> after the header, UTF-16 in a meta tag means UTF-8', async (t) => {
  const page = (charset: string): string => `<html><head><meta charset="${charset}"></head><body>café</body></html>`;
  t.match(decodeBytes(iconv.encode(page('latin1'), 'windows-1252'), undefined, 'html'), /café/);
  t.match(decodeBytes(Buffer.from(page('utf-16'), 'utf8'), undefined, 'html'), /café/);
  t.match(decodeBytes(iconv.encode(page('utf-8'), 'windows-1252'), 'text/html; charset=windows-1252', 'html'), /café/);
  t.equal(encodingForLabel('GB2312', false), 'gbk');
  t.equal(encodingForLabel('x-sjis', true), 'shift_jis');
});

t.test('C1 control characters in a Unicode document are read as the Windows-1252 characters they stand for', async (t) => {
  // `don\u0092t`: Windows-1252 text converted to Unicode as if it were Latin-1, as feedparser's demoronize tests have it.
  const text =
    '<rss version="2.0"><channel><title>don\u0092t \u0080 \u0081</title><item><description><![CDATA[\u0093q\u0094]]></description></item></channel></rss>';
  for (const encoding of ['utf-8', 'utf-16le', 'utf-32be'] as const) {
    const feed = parseFeed(encoded(text, encoding, encoding !== 'utf-8'), meta);
    t.equal(feed.title, 'don\u2019t \u20ac \u0081', `${encoding}: 0x92 and 0x80 mapped, 0x81 (undefined in Windows-1252) left`);
    t.equal(feed.items[0]?.description_html, '\u201cq\u201d', `${encoding}: inside CDATA too`);
  }
  t.equal(
    decodeBytes(iconv.encode('\u010daj \u0092', 'iso-8859-2'), 'text/xml; charset=iso-8859-2', 'xml'),
    '\u010daj \u0092',
    'a single-byte charset that defines 0x80-0x9F as controls is left as its table says',
  );
  t.equal(
    decodeBytes(Buffer.from('plain \u00a0 text \u00e9', 'utf8'), undefined, 'xml'),
    'plain \u00a0 text \u00e9',
    'other Latin-1 characters untouched',
  );
});
