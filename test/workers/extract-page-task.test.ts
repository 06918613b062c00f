import t from 'tap';
import iconv from 'iconv-lite';
import extractPageTask from '../../workers/extract-page-task.js';

const listing = (title1: string, title2: string, head = ''): string =>
  `<html><head>${head}</head><body><ul><li><a href="/1">${title1}</a></li><li><a href="/2">${title2}</a></li></ul></body></html>`;

function titles(result: ReturnType<typeof extractPageTask>): string[] {
  return result.ok ? result.page.items.map((item) => item.title) : [`error ${result.code}`];
}

t.test('the HTTP charset decides the decoding', async (t) => {
  const body = iconv.encode(listing('Новости недели и прочее', 'Ещё одна длинная статья'), 'windows-1251');
  t.same(titles(extractPageTask({ body, url: 'https://ru.example/', contentType: 'text/html; charset=windows-1251' })), [
    'Новости недели и прочее',
    'Ещё одна длинная статья',
  ]);
});

t.test('without a header, <meta charset> decides', async (t) => {
  const body = iconv.encode(listing('日本語のニュース記事です', '二つ目のニュース記事です', '<meta charset="shift_jis">'), 'shift_jis');
  t.same(titles(extractPageTask({ body, url: 'https://jp.example/' })), ['日本語のニュース記事です', '二つ目のニュース記事です']);
});

t.test('<meta http-equiv="content-type"> is read too, and gb2312 is read as gbk', async (t) => {
  const body = iconv.encode(
    listing('中文新闻文章的标题', '第二篇新闻文章标题', '<meta http-equiv="Content-Type" content="text/html; charset=gb2312">'),
    'gbk',
  );
  t.same(titles(extractPageTask({ body, url: 'https://cn.example/' })), ['中文新闻文章的标题', '第二篇新闻文章标题']);
});

t.test('a byte-order mark wins over a wrong label, and UTF-8 is the default', async (t) => {
  const text = listing('Crème brûlée for everyone', 'Smørrebrød on a Tuesday', '<meta charset="windows-1252">');
  const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from(text, 'utf8')]);
  t.same(titles(extractPageTask({ body: withBom, url: 'https://fr.example/' })), ['Crème brûlée for everyone', 'Smørrebrød on a Tuesday']);
  const plain = Buffer.from(listing('Crème brûlée for everyone', 'Smørrebrød on a Tuesday'), 'utf8');
  t.same(titles(extractPageTask({ body: plain, url: 'https://fr.example/' })), ['Crème brûlée for everyone', 'Smørrebrød on a Tuesday']);
});

t.test('failures come back as data with their code', async (t) => {
  const result = extractPageTask({ body: Buffer.from('<p>nothing here</p>'), url: 'https://empty.example/' });
  t.same(result.ok ? 'ok' : result.code, 'no_items_found');
});
