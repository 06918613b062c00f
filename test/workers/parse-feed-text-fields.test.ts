import t from 'tap';
import { parseFeed } from '../../workers/parse-feed.js';
import { feedFixture } from './feed-fixtures.js';

const feed = () => parseFeed(feedFixture('rss2-markup-in-text.xml'), { url: 'https://example.org/feed.xml' });

t.test('an entity-like query string in a title stays as written; complete entities still decode', async (t) => {
  const parsed = feed();
  t.equal(parsed.title, 'Search ?page=1&copy=2;mode=x & more', '&copy without its ; is not ©');
  t.equal(
    parsed.items[0]?.title,
    'Jobs ?q=rust&not=go & © 2024 edition',
    '&not=go is not ¬=go, but &copy; and &nbsp; are decoded (a no-break space collapses like any space)',
  );
});

t.test('a category wrapped in markup gives its text instead of disappearing', async (t) => {
  t.same(parsed().categories, ['Local news', 'Sport Football', 'plain']);
});

t.test('a guid wrapped in markup gives its text as the id', async (t) => {
  t.equal(parsed().id, 'item-42');
});

function parsed() {
  const item = feed().items[0];
  if (item === undefined) throw new Error('Expected one item in rss2-markup-in-text.xml, got none');
  return item;
}
