import t from 'tap';
import { renderCsv } from '../../src/formats/csv.js';
import type { RenderableFeed, RenderableItem } from '../../src/formats/rss.js';

const item = (fields: Partial<RenderableItem>): RenderableItem => ({
  key: 'k1',
  url: 'https://example.com/1',
  title: 'First',
  description_html: '',
  thumbnail: null,
  authors: [],
  date_published: '2024-03-05T06:07:08.000Z',
  categories: [],
  enclosures: [],
  ...fields,
});
const feed = (items: RenderableItem[]): RenderableFeed => ({
  title: 'Example',
  description: '',
  link: 'https://example.com/',
  selfUrl: 'https://feeds.example.org/feeds/AAAAAAAAAAAAAAAA.csv',
  hubUrl: 'https://feeds.example.org/websub',
  icon: '',
  updatedAt: '2024-03-05T12:00:00.000Z',
  items,
});

t.test('a header row, then one CRLF-ended row per item with the documented columns', async (t) => {
  const csv = renderCsv(
    feed([
      item({ authors: [{ name: 'Ada' }, { name: 'Grace' }], categories: ['a', 'b'], enclosures: [{ url: 'https://example.com/a.mp3' }] }),
    ]),
  );
  t.equal(
    csv,
    'id,title,url,date_published,authors,categories,enclosures,content_html\r\nk1,First,https://example.com/1,2024-03-05T06:07:08.000Z,Ada; Grace,a; b,https://example.com/a.mp3,\r\n',
  );
});

t.test('RFC 4180: commas, quotes and line breaks are quoted, quotes doubled', async (t) => {
  const csv = renderCsv(feed([item({ title: 'Tom, "Jerry"', description_html: '<p>one\r\ntwo</p>' })]));
  t.ok(csv.endsWith('\r\nk1,"Tom, ""Jerry""",https://example.com/1,2024-03-05T06:07:08.000Z,,,,"<p>one\r\ntwo</p>"\r\n'));
});

t.test('a cell a spreadsheet would run as a formula is made text with a leading apostrophe', async (t) => {
  for (const title of ['=HYPERLINK("http://evil")', '+1', '-2', '@SUM(A1)']) {
    const row = renderCsv(feed([item({ title })])).split('\r\n')[1] ?? '';
    t.ok(row.startsWith(`k1,"'${title.replace(/"/g, '""')}"`) || row.startsWith(`k1,'${title}`), title);
  }
});

/** Every field a reader splitting on `separator` (and on line breaks, ignoring quotes) would see in these lines. */
const fieldsSplitOn = (lines: string, separator: string): string[] =>
  lines.split(/\r\n|\r|\n/).flatMap((line) => line.split(separator).map((piece) => piece.replace(/^ *"*/, '')));

t.test('no field a spreadsheet may split out of a cell starts a formula, on commas, semicolons or tabs', async (t) => {
  const payloads = [
    'a;=1+1',
    'a,=1+1',
    'a\t=1+1',
    'a; =HYPERLINK("http://evil")',
    'ok;"=1+1',
    "x;-2+3+cmd|' /C calc'!A0",
    'y;+1',
    'z;@SUM(A1)',
    'tab;\t=1',
    'line\n=1+1',
    'cr;\r=1',
  ];
  for (const payload of payloads) {
    const csv = renderCsv(feed([item({ title: payload, authors: [{ name: 'Ada' }, { name: payload }], categories: [payload] })]));
    const data = csv.slice(csv.indexOf('\r\n') + 2);
    for (const separator of [',', ';', '\t']) {
      const formulas = fieldsSplitOn(data, separator).filter(
        (piece) => /^[=+\-@]/.test(piece) || (separator !== '\t' && piece.startsWith('\t')),
      );
      t.same(formulas, [], `${JSON.stringify(payload)} split on ${JSON.stringify(separator)}`);
    }
  }
});

t.test('the apostrophe goes where a field would start, and text without one is left alone', async (t) => {
  const row = (title: string): string => renderCsv(feed([item({ title })])).split('\r\n')[1] ?? '';
  t.ok(row('a;=1+1').startsWith("k1,a;'=1+1,"), 'before the formula after the semicolon');
  t.ok(row('Tom, Jerry; and -friends-').startsWith('k1,"Tom, Jerry; and -friends-",'), 'a dash inside a field is no formula');
  t.ok(row('1-2=3 @home').startsWith('k1,1-2=3 @home,'), 'nor are these characters mid-field');
});
