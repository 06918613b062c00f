import t from 'tap';
import { renderCsv } from '../../src/domain/render/csv.js';
import type { RenderableFeed, RenderableItem } from '../../src/domain/render/rss.js';

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
