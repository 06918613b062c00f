import { Parser } from 'htmlparser2';
import t from 'tap';
import { supportedStackUses, withFlatStack } from '../../workers/shared/parser-stack.js';

/**
 * The guard of parser-stack.ts: it stands in for two private arrays of htmlparser2's Parser and
 * answers only the operations Parser performs on them. These tests read Parser's own source, so an
 * htmlparser2 that touches the stacks in a new way (`.at(-1)`, `.push`, `.slice`…) fails here, not
 * in a parse of a deep document in production.
 */

/** Every distinct use of `this.stack` and `this.foreignContext` in Parser's source, normalised. */
function stackUses(): string[] {
  const source = String(Parser);
  const uses = new Set<string>();
  for (const match of source.matchAll(/this\.(stack|foreignContext)\b(\s*\.\s*[A-Za-z_$]+(\s*=(?!=))?|\s*\[[^\]]*\]|\s*=(?!=)|)/g)) {
    const [, field, use = ''] = match;
    const normalised = use.replace(/\s+/g, '').replace(/\[[^\]]*\]/, '[i]');
    uses.add(`${field}${normalised}`);
  }
  return [...uses].sort();
}

t.test('Parser uses its two stacks only in the ways the stand-in answers', async (t) => {
  const uses = stackUses();
  t.ok(uses.includes('stack.unshift'), `the source was read (found ${uses.join(', ')})`);
  t.same(
    uses.filter((use) => !supportedStackUses.includes(use)),
    [],
    'no use of the stacks the stand-in does not answer: if this fails, extend flatStack in parser-stack.ts or drop it',
  );
});

t.test('both stacks are still arrays on a new Parser, and a deep input gets the stand-ins', async (t) => {
  const parser = new Parser({});
  const fields = parser as unknown as Record<string, unknown>;
  t.ok(Array.isArray(fields['stack']), 'Parser#stack is an array');
  t.ok(Array.isArray(fields['foreignContext']), 'Parser#foreignContext is an array');
  const deep = '<div>'.repeat(1000);
  const replaced = new Parser({});
  const before = { ...(replaced as unknown as Record<string, unknown>) };
  const after = withFlatStack(replaced, deep) as unknown as Record<string, unknown>;
  // A Proxy over an array is still an array to `Array.isArray`: identity tells the stand-in.
  t.not(after['stack'], before['stack'], 'the open-element stack was replaced');
  t.not(after['foreignContext'], before['foreignContext'], 'the foreign-context stack was replaced');
});

t.test('with the stand-ins, Parser reports the same events as without', async (t) => {
  const inputs = [
    `${'<div><p>'.repeat(400)}text<form><form>x</form>${'</p></div>'.repeat(400)}`,
    `${'<svg><foreignObject><div>'.repeat(200)}<math><mi>x</mi></math>${'</div></foreignObject></svg>'.repeat(150)}`,
    `${'<table><tbody><tr><td>'.repeat(150)}cell<th>h</td>${'<li>'.repeat(300)}<svg><title>t</title></svg>`,
  ];
  for (const input of inputs) {
    const events = (flat: boolean): string[] => {
      const seen: string[] = [];
      const parser = new Parser({
        onopentag: (name) => seen.push(`<${name}>`),
        onclosetag: (name, implied) => seen.push(`</${name}${implied ? '?' : ''}>`),
        ontext: (text) => seen.push(text),
      });
      (flat ? withFlatStack(parser, input) : parser).end(input);
      return seen;
    };
    t.same(events(true), events(false), input.slice(0, 40));
  }
});
