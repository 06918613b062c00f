import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import extractPageTask from '../../../workers/extract-page-task.js';
import { extractTelegramChannel } from '../../../workers/extractors/telegram-channel.js';
import { repoRoot } from '../../fixtures/repo-root.js';

// A page reproducing t.me/s's structure: .tgme_widget_message blocks with data-post, text, time[datetime].
const fixture = readFileSync(join(repoRoot, 'test', 'fixtures', 'pages', 'telegram', 's-feedmill_news.html'), 'utf8');
const url = 'https://t.me/s/feedmill_news';

t.test("a public channel's preview is a feed of its messages, newest first", async (t) => {
  const page = extractTelegramChannel(fixture, { url });
  t.equal(page.title, 'Feedmill News');
  t.equal(page.description, 'Releases and notes from the feedmill project.');
  t.equal(page.link, 'https://t.me/feedmill_news');
  t.same(
    page.items.map((item) => [item.url, item.title, item.date_published, item.thumbnail, item.authors]),
    [
      [
        'https://t.me/feedmill_news/42',
        'A second message that is long enough that its title has to be cut somewhere near a hundred…',
        '2026-11-21T18:05:00.000Z',
        null,
        [{ name: 'Feedmill News' }],
      ],
      [
        'https://t.me/feedmill_news/41',
        'Version 1.0 is out',
        '2026-11-20T09:30:00.000Z',
        'https://cdn4.telesco.pe/file/release-banner.jpg',
        [{ name: 'Feedmill News' }],
      ],
    ],
  );
});

t.test("a message's text keeps its markup and links, sanitised", async (t) => {
  const release = extractTelegramChannel(fixture, { url }).items[1];
  t.match(release?.description_html ?? '', /<b>platform pages<\/b>/);
  t.match(release?.description_html ?? '', /href="https:\/\/example\.org\/notes\/1\.0"/);
  t.notMatch(release?.description_html ?? '', /onclick/, 'script attributes are dropped');
  t.match(release?.description_text ?? '', /Version 1\.0 is out\nIt reads platform pages now/);
});

t.test('a page without messages (a private channel, a person) has no items', async (t) => {
  t.throws(() => extractTelegramChannel('<html><body><div class="tgme_page">Join</div></body></html>', { url }), {
    code: 'no_items_found',
  });
});

t.test('the pool task runs the extractor a platform rule names instead of the heuristics', async (t) => {
  const result = extractPageTask({
    body: Buffer.from(fixture),
    url,
    contentType: 'text/html; charset=utf-8',
    extractor: 'telegram-channel',
  });
  t.ok(result.ok);
  if (result.ok) t.equal(result.page.items[0]?.url, 'https://t.me/feedmill_news/42');
});
