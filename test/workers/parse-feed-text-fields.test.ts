import t from 'tap';
import { parseFeed } from '../../workers/parse-feed.js';
import { feedFixture } from './feed-fixtures.js';

const feed = () => parseFeed(feedFixture('rss2-markup-in-text.xml'), { url: 'https://example.org/feed.xml' });

t.test('an entity-like query string in a title stays as written; complete entities still decode', async (t) => {
  const parsed = feed();
  t.equal(parsed.title, 'Search ?page=1&copy=2;mode=x & more', '&copy without its ; is not ©');
  t.equal(
    parsed.items[0]?.title,
    'Jobs ?q=rust&not=go & © 2024\u00a0edition',
    '&not=go is not ¬=go, but &copy; and &nbsp; are decoded (the no-break space kept)',
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

t.test('a no-break space in a title is kept as written; other whitespace still collapses and the ends are trimmed', async (t) => {
  const parsed = parseFeed(
    `<rss version="2.0"><channel><title>Feed&#160;name</title>
      <item><title>&#160;10&nbsp;km \t run\u00a0 in <b>Paris</b>&nbsp;</title></item></channel></rss>`,
    { url: 'https://example.org/feed.xml' },
  );
  t.equal(parsed.title, 'Feed\u00a0name', "the feed's title");
  t.equal(parsed.items[0]?.title, '10\u00a0km run\u00a0 in Paris', "an item's");
  const atom = parseFeed(
    '<feed xmlns="http://www.w3.org/2005/Atom"><title type="text">A&#160;B</title><entry><title>x\u00a0\u00a0y\n z</title></entry></feed>',
    { url: 'https://example.org/feed.xml' },
  );
  t.same([atom.title, atom.items[0]?.title], ['A\u00a0B', 'x\u00a0\u00a0y z'], 'Atom plain text');
});
