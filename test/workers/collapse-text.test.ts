import fc from 'fast-check';
import t from 'tap';
import { collapseText } from '../../workers/shared/html.js';
import { comparableText } from '../../src/domain/comparable-text.js';

/** The rule written the slow, obvious way: split into words and gaps, then join. */
function reference(text: string): string {
  const parts = text.split(/([ \t\f\r\u00a0\n]+)/);
  let out = '';
  for (let i = 0; i < parts.length; i += 2) {
    const word = parts[i] ?? '';
    if (word === '') continue;
    if (out !== '') out += (parts[i - 1] ?? '').includes('\n') ? '\n' : ' ';
    out += word;
  }
  return out;
}

t.test('spaces fold to one space, runs with a line break to one line break, the ends are trimmed', async (t) => {
  t.equal(collapseText('  a \t b\u00a0\u00a0c  '), 'a b c');
  t.equal(collapseText('a \r\n \n b\n\nc'), 'a\nb\nc');
  t.equal(collapseText('\n \t\n'), '');
  t.equal(collapseText('a\u2003b'), 'a\u2003b', 'other Unicode spaces are text, as before');
});

t.test('collapseText agrees with the reference rule on any mix of words and whitespace', async (t) => {
  const piece = fc.constantFrom(' ', '\t', '\n', '\r', '\f', '\u00a0', 'a', 'bc', 'é', '\u2003', '<');
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
      const text = pieces.join('');
      return collapseText(text) === reference(text);
    }),
    { numRuns: 2000 },
  );
  t.pass('2000 generated texts agree');
});

t.test('with noBreak keep, a no-break space inside is text; at the ends it is trimmed', async (t) => {
  t.equal(collapseText('\u00a0 10\u00a0km \t run\u00a0\u00a0 \n y \n\u00a0', 'keep'), '10\u00a0km run\u00a0\u00a0\ny');
  t.equal(collapseText('a \u00a0 b', 'keep'), 'a \u00a0 b');
});

t.test('a kept text reads as the folded one wherever texts are compared (comparableText)', async (t) => {
  const piece = fc.constantFrom(' ', '\t', '\n', '\r', '\f', '\u00a0', 'a', 'bc', 'é', '\u2003', '<');
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
      const text = pieces.join('');
      return comparableText(collapseText(text, 'keep')) === collapseText(text);
    }),
    { numRuns: 2000 },
  );
  t.pass('2000 generated texts agree');
});
