import { selectAll } from 'css-select';
import fc from 'fast-check';
import { parseDocument } from 'htmlparser2';
import t from 'tap';
import { checkCssSelector } from '../../src/domain/css-selector.js';
import { isFeedmillError } from '../../src/domain/errors.js';

// A selector checkCssSelector accepts is run on every page of its feed by css-select; one the
// engine cannot compile would fail every refresh. css-what, which the check reads selectors with,
// accepts pseudo-classes with arguments css-select refuses (the page-selectors fuzz target found
// `:not` alone), so what each pseudo-class takes is checked too.

const page = parseDocument('<main><div class="entry"><h2 class="headline"><a href="/a">A</a></h2><p>Read more</p></div></main>');

/** The engine's verdict: does the selector compile and run? */
function compiles(selector: string): boolean {
  try {
    selectAll(selector, page);
    return true;
  } catch {
    return false;
  }
}

function accepted(selector: string): boolean {
  try {
    checkCssSelector(selector, 'selectors.item');
    return true;
  } catch (error) {
    if (isFeedmillError(error) && error.code === 'validation_failed') return false;
    throw error;
  }
}

t.test('pseudo-classes with the wrong arguments are refused, naming what they take', async (t) => {
  const cases: [string, RegExp][] = [
    ['div.entry:has(> .headline):not', /`:not` with selectors in parentheses/],
    ['li:nth-child', /`:nth-child` with an `An\+B` formula/],
    ['li:nth-child(foo)', /`:nth-child` with an `An\+B` formula/],
    ['p:contains', /`:contains` with text in parentheses/],
    ['div:empty(x)', /`:empty` with no parentheses/],
    ['li:first-child(2)', /`:first-child` with no parentheses/],
    ['||', /without the column combinator/],
    ['col || td', /without the column combinator/],
  ];
  for (const [selector, message] of cases) {
    // `:contains` alone compiles, and matches as if it asked for the text "null".
    if (!selector.includes(':contains')) t.notOk(compiles(selector), `${selector}: css-select refuses it`);
    t.throws(() => checkCssSelector(selector, 'selectors.item'), { code: 'validation_failed', message }, selector);
  }
});

t.test('their right forms are accepted and run', async (t) => {
  for (const selector of [
    'div:not(.ad)',
    'li:nth-child(2n+1)',
    'li:nth-of-type( -n + 3 )',
    'li:nth-last-child(odd)',
    'li:nth-child(+5)',
    'p:contains(Read more)',
    'div:empty',
    'div.entry:has(> .headline):first-child',
  ]) {
    t.ok(accepted(selector), `${selector}: accepted`);
    t.ok(compiles(selector), `${selector}: runs`);
  }
});

t.test('every selector the check accepts, css-select compiles', async (t) => {
  const name = fc.constantFrom('not', 'is', 'has', 'contains', 'nth-child', 'nth-of-type', 'empty', 'first-child', 'root', 'link');
  const argument = fc.oneof(
    fc.constant(''),
    fc.constantFrom('(.a)', '(> p)', '(2n+1)', '(odd)', '(-n+3)', '( 3 )', '(n)', '(x)', '(2n+)', '(+ n)', '(- 5)', '(1 2)', '(text)'),
    fc.string({ maxLength: 6 }).map((text) => `(${text})`),
  );
  const part = fc
    .tuple(fc.constantFrom('div', 'p', '.entry', 'a', '*'), name, argument)
    .map(([base, pseudo, args]) => `${base}:${pseudo}${args}`);
  const combinator = fc.constantFrom(' ', ' > ', ' + ', ' ~ ', ' || ', '||');
  const selector = fc
    .tuple(fc.constantFrom('', '> ', '|| '), part, fc.array(fc.tuple(combinator, part), { maxLength: 2 }))
    .map(([lead, first, rest]) => lead + first + rest.map(([joint, next]) => joint + next).join(''));
  let acceptedCount = 0;
  fc.assert(
    fc.property(selector, (candidate) => {
      if (!accepted(candidate)) return true;
      acceptedCount++;
      return compiles(candidate);
    }),
    { numRuns: 3_000, seed: 20261128 },
  );
  t.ok(acceptedCount > 100, `the property saw ${acceptedCount} accepted selectors`);
});
