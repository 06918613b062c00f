import t from 'tap';
import { isFeedmillError } from '../../src/domain/errors.js';
import { parsePageSelectors, splitFieldSelector } from '../../src/domain/page-selectors.js';
import { growth } from '../fixtures/growth.js';

function messageOf(value: unknown): string {
  try {
    parsePageSelectors(value);
  } catch (error) {
    if (isFeedmillError(error) && error.code === 'validation_failed') return error.message;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(value)} to be refused`);
}

t.test('selectors as a person writes them come back trimmed', async (t) => {
  t.same(parsePageSelectors({ item: ' .entry ', title: 'h2 a', link: '@data-href', date: 'time@datetime', image: '.pic img@srcset' }), {
    item: '.entry',
    title: 'h2 a',
    link: '@data-href',
    date: 'time@datetime',
    image: '.pic img@srcset',
  });
  t.same(parsePageSelectors({ item: 'article:not(.ad)', summary: 'p:first-of-type', author: '[rel=author]' }), {
    item: 'article:not(.ad)',
    summary: 'p:first-of-type',
    author: '[rel=author]',
  });
});

t.test('a field selector splits into the elements it selects and the attribute it reads', async (t) => {
  t.same(splitFieldSelector('h2 a@title'), { css: 'h2 a', attribute: 'title' });
  t.same(splitFieldSelector(' @href '), { css: null, attribute: 'href' });
  t.same(splitFieldSelector('a[title="x@y"]'), { css: 'a[title="x@y"]', attribute: null });
  t.same(splitFieldSelector('img @data-SRC'), { css: 'img', attribute: 'data-src' });
  t.same(splitFieldSelector('a[data-x="@"]@title'), { css: 'a[data-x="@"]', attribute: 'title' }, 'the last `@` is the one that reads');
  t.same(splitFieldSelector('h2 a @ title'), { css: 'h2 a @ title', attribute: null }, 'a name starts right after its `@`');
});

t.test('a long field of spaces is refused in time linear in its length (fuzz finding)', async (t) => {
  // `||`, 36 KB of spaces, then a selector: the split's pattern backtracked over every run of
  // spaces (0.4 s) before the length check could refuse it. 4x the spaces took 16x the time.
  const field = (spaces: number): string => `||${' '.repeat(spaces)}div.entry:has(> .headline):not`;
  t.match(messageOf({ item: field(36_000) }), /at most 200 characters/);
  const { ratio } = growth(field(20_000), field(80_000), (text) => splitFieldSelector(text), 5);
  t.ok(ratio < 8, `4x the spaces took ${ratio.toFixed(1)}x the time`);
});

t.test('each refusal names its field and says what was expected', async (t) => {
  t.match(messageOf('.entry'), /^Expected `selectors` to be an object with `item`/);
  t.match(
    messageOf({ title: 'h2' }),
    /^Expected `selectors\.item` to be a CSS selector of the element of each item, got `nothing`|^Expected `selectors\.item`/,
  );
  t.match(
    messageOf({ item: 'div[class' }),
    /^Expected `selectors\.item` to be a CSS selector of at most 200 characters .*got `div\[class`$/,
  );
  t.match(messageOf({ item: 'a@href' }), /^Expected `selectors\.item` to be a CSS selector of elements, without `@attribute`/);
  t.match(messageOf({ item: '.entry', title: 'h2 >> a' }), /^Expected `selectors\.title` to be a CSS selector/);
  t.match(messageOf({ item: '.entry', link: '' }), /^Expected `selectors\.link` to be a CSS selector .*optionally ending in `@attribute`/);
  t.match(messageOf({ item: '.entry', date: 5 }), /^Expected `selectors\.date` to be/);
  t.match(
    messageOf({ item: '.entry', image: 'img::before' }),
    /^Expected `selectors\.image` to be a selector of elements, with no pseudo-element/,
  );
  t.match(
    messageOf({ item: '.entry', author: 'a:hover' }),
    /^Expected `selectors\.author` to be a selector whose pseudo-classes are among/,
  );
  t.match(messageOf({ item: '.entry', summary: '(' }), /^Expected `selectors\.summary` to be a CSS selector/);
  t.match(messageOf({ item: '.entry', body: 'p' }), /^Expected `selectors\.body` to be absent: only `item`, `title`/);
});

t.test('length and complexity are capped', async (t) => {
  t.match(messageOf({ item: `.${'a'.repeat(200)}` }), /`selectors\.item` to be a CSS selector of at most 200 characters/);
  t.match(
    messageOf({ item: '.entry', title: `.${'a'.repeat(200)}@title` }),
    /`selectors\.title` to be a CSS selector of at most 200 characters/,
  );
  t.match(
    messageOf({ item: Array.from({ length: 11 }, (_, i) => `.x${i}`).join(',') }),
    /`selectors\.item` to be a selector of at most 10 comma-separated alternatives/,
  );
  t.match(
    messageOf({ item: Array.from({ length: 33 }, () => 'div').join(' > ') }),
    /`selectors\.item` to be a selector of at most 32 simple selectors/,
  );
  t.match(messageOf({ item: 'a:not(:is(:has(b)))' }), /`selectors\.item` to be a selector with pseudo-classes nested at most 2 deep/);
});

t.test('a namespace, which the engine cannot compile, is refused (fuzz finding)', async (t) => {
  t.match(messageOf({ item: '|=main .board' }), /`selectors\.item` to be a selector without namespaces/);
  t.match(messageOf({ item: '.entry', link: 'svg|a@href' }), /`selectors\.link` to be a selector without namespaces/);
  t.match(messageOf({ item: '[xlink|href]' }), /`selectors\.item` to be a selector without namespaces/);
});
