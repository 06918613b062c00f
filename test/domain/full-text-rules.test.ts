import t from 'tap';
import { isFeedmillError } from '../../src/domain/errors.js';
import { validateFullTextRules } from '../../src/domain/full-text-rules.js';

function messageOf(value: unknown): string {
  try {
    validateFullTextRules(value);
  } catch (error) {
    if (isFeedmillError(error) && error.code === 'validation_failed') return error.message;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(value)} to be rejected`);
}

t.test('valid rules come back trimmed', async (t) => {
  t.same(validateFullTextRules({ content: ' article .body ', remove: ['.share', 'aside, .promo', 'p:not(.lede):has(> a)'] }), {
    content: 'article .body',
    remove: ['.share', 'aside, .promo', 'p:not(.lede):has(> a)'],
  });
  t.same(validateFullTextRules({}), {});
});

t.test('a selector the CSS parser rejects is named by its path', async (t) => {
  t.match(
    messageOf({ remove: ['.ok', 'nav', 'div[class'] }),
    /^Expected `full_text_rules\.remove\[2\]` to be a CSS selector of at most 200 characters .*got `div\[class`$/,
  );
  t.match(messageOf({ content: 'a >> b' }), /^Expected `full_text_rules\.content` to be a CSS selector/);
  t.match(messageOf({ content: '' }), /`full_text_rules\.content`/);
});

t.test('length, count and complexity are capped', async (t) => {
  t.match(messageOf({ content: `.${'a'.repeat(200)}` }), /`full_text_rules\.content` to be a CSS selector of at most 200 characters/);
  t.match(
    messageOf({ remove: Array.from({ length: 11 }, (_, i) => `.x${i}`) }),
    /`full_text_rules\.remove` to be a list of at most 10 selectors, got `11 selectors`/,
  );
  t.match(
    messageOf({ remove: [Array.from({ length: 11 }, (_, i) => `.x${i}`).join(',')] }),
    /`full_text_rules\.remove\[0\]` to be a selector of at most 10 comma-separated alternatives/,
  );
  t.match(messageOf({ content: 'a '.repeat(20) }), /at most 32 simple selectors and combinators/);
  t.match(messageOf({ content: 'div:not(:has(:is(p)))' }), /nested at most 2 deep/);
});

t.test('selectors that select no element on a static page are refused', async (t) => {
  t.match(messageOf({ content: 'p::first-line' }), /no pseudo-element/);
  t.match(messageOf({ remove: ['a:hover'] }), /`full_text_rules\.remove\[0\]` to be a selector whose pseudo-classes are among/);
});

t.test('wrong shapes say what was expected', async (t) => {
  t.match(messageOf('article'), /^Expected `full_text_rules` to be an object/);
  t.match(messageOf({ remove: '.share' }), /^Expected `full_text_rules\.remove` to be a list of CSS selectors, got `\.share`/);
  t.match(messageOf({ remove: [42] }), /`full_text_rules\.remove\[0\]` to be a CSS selector.*got `42`/);
  t.match(messageOf({ contents: 'article' }), /`full_text_rules\.contents` to be absent/);
});
