import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHTML } from 'linkedom';
import t from 'tap';
import { pickField, pickItems, relativeSelector, type PickElement } from '../../../src/dashboard/client/pick-selectors.js';
import { repoRoot } from '../../fixtures/repo-root.js';

/** A page's DOM as the picker's frame holds it; elements found by their text. */
function pageOf(html: string) {
  const { document } = parseHTML(html);
  const byText = (selector: string, text: string): PickElement => {
    const found = [...document.querySelectorAll(selector)].find((element) => (element.textContent ?? '').trim() === text);
    if (!found) throw new Error(`no ${selector} reads ${text}`);
    return found;
  };
  return { document, byText };
}

const listing = readFileSync(join(repoRoot, 'test/fixtures/pages/picker-listing.html'), 'utf8');

t.test('a click on a title gives the repeated block as the item, and the title’s place in it', async (t) => {
  const page = pageOf(listing);
  const picked = pickItems(page.byText('a', 'Pier works this week'));
  t.same(picked, { item: 'article.notice', title: 'h2.notice-title a' });
  t.equal(page.document.querySelectorAll(picked?.item ?? '').length, 3, 'the item names every notice, the featured one too');
});

t.test('a click on the heading rather than its link works alike', async (t) => {
  const page = pageOf(listing);
  t.same(pickItems(page.byText('h2', 'Lost buoy found')), { item: 'article.notice', title: 'h2.notice-title' });
});

t.test('the date and the image are found inside the item, a <time> taken whole', async (t) => {
  const page = pageOf(listing);
  t.equal(pickField('article.notice', page.byText('time', '4 March 2024')), 'p.meta time', 'a class on the way is named');
  const image = page.document.querySelectorAll('img')[1] as unknown as PickElement;
  t.equal(pickField('article.notice', image), 'img.thumb');
  const { document } = parseHTML(
    '<ul class="l"><li><a href="/1">A <time datetime="2024-01-01"><b>1 Jan</b></time></a></li><li><a href="/2">B</a></li></ul>',
  );
  t.equal(pickField('ul.l li', document.querySelector('b') as unknown as PickElement), 'time', 'a click inside a <time> picks the <time>');
});

t.test('a click outside every item picks no field', async (t) => {
  const page = pageOf(listing);
  t.equal(pickField('article.notice', page.byText('a', 'About')), null);
});

t.test('classless rows of a table: the row is the item, not the cell', async (t) => {
  const { document } = parseHTML(
    '<table id="news"><tr><td>1.</td><td><a href="/a">First story</a> <a href="/a#c">comments</a></td></tr><tr><td>2.</td><td><a href="/b">Second story</a> <a href="/b#c">comments</a></td></tr></table>',
  );
  const link = [...document.querySelectorAll('a')].find((a) => a.textContent === 'Second story') as unknown as PickElement;
  const picked = pickItems(link);
  t.equal(picked?.title, 'a', 'the first link of the row');
  t.match(picked?.item ?? '', /^#news tr$/, 'scoped by the table, past any tbody the browser adds');
});

t.test('items whose classes are not all shared keep the shared one; a list of alike links in a nav is not picked', async (t) => {
  const { document } = parseHTML(
    '<nav><a href="/">Home</a><a href="/x">X</a></nav><ul class="posts"><li class="post hot"><h3><a href="/1">One</a></h3></li><li class="post"><h3><a href="/2">Two</a></h3></li></ul>',
  );
  const two = [...document.querySelectorAll('a')].find((a) => a.textContent === 'Two') as unknown as PickElement;
  t.same(pickItems(two), { item: 'li.post', title: 'a' });
  const home = [...document.querySelectorAll('a')].find((a) => a.textContent === 'Home') as unknown as PickElement;
  t.equal(pickItems(home), null, 'links side by side are pieces of a block, not blocks: nothing repeats around them');
});

t.test('alike pieces inside an item are told apart by their position', async (t) => {
  const { document } = parseHTML(
    '<div class="c"><div class="x"><span>a</span><span>b</span></div><div class="x"><span>c</span><span>d</span></div></div>',
  );
  const item = document.querySelectorAll('div.x')[1] as unknown as PickElement;
  const second = document.querySelectorAll('span')[3] as unknown as PickElement;
  t.equal(relativeSelector(item, second), 'span:nth-of-type(2)');
});
