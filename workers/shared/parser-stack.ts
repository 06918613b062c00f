import type { Parser } from 'htmlparser2';

/**
 * htmlparser2 (12.0 as 10.1) keeps two private stacks top-first in arrays, pushing with `unshift`
 * and popping with `shift`, which are O(depth): its open elements (`stack`) and, for `<svg>`,
 * `<math>` and their HTML islands (`<desc>`, `<title>`, `<foreignObject>`…), `foreignContext`.
 * These stand-ins keep the top last, so both are O(1), and answer the few operations Parser
 * performs on them (`supportedStackUses`).
 *
 * Parser's public API has no way to change how it keeps its stack (no option, and the methods that
 * touch it are private), so this stays: without it 100k nested elements cost 8.2 s of CPU against
 * 0.13 s with it, with htmlparser2 12.0 (bench/README.md, "htmlparser2 12"), a denial of service
 * from one item. The guard is test/workers/parser-stack.test.ts: it reads Parser's source and fails
 * when Parser uses either stack in a way the stand-in does not answer, or when they stop being
 * arrays; test/workers/parse-feed-nesting.test.ts checks the time stays linear in the nesting.
 */
export function withFlatStack(parser: Parser, input: string): Parser {
  // The stand-ins cost a proxy trap per stack access: for the usual item fragment, with a few dozen
  // tags, that was more than the moves they save.
  if (fewerTagsThan(input, shallowTagLimit)) return parser;
  const internals = parser as unknown as Record<string, unknown>;
  for (const field of ['stack', 'foreignContext']) {
    const current = internals[field];
    if (Array.isArray(current)) internals[field] = flatStack(current.slice().reverse());
  }
  return parser;
}

/**
 * Each use of the two stacks in Parser's source that `flatStack` answers, as
 * test/workers/parser-stack.test.ts reads them off htmlparser2's code (`[i]` is any index).
 */
export const supportedStackUses: readonly string[] = ['stack', 'foreignContext'].flatMap((field) =>
  // `=` is the constructor's assignment of the array that withFlatStack later swaps.
  ['=', '[i]', '.length', '.length=', '.shift', '.unshift', '.indexOf', '.includes'].map((use) => `${field}${use}`),
);

/** Input with fewer `<` than this cannot nest deep enough for the O(depth) stacks to matter (at most ~125k moves). */
const shallowTagLimit = 500;

/** Whether `input` has fewer than `limit` `<`: counted only up to `limit`, so a long page costs little. */
export function fewerTagsThan(input: string, limit: number): boolean {
  // Every tag takes a `<` and a name character: short input needs no count.
  if (input.length < limit * 2) return true;
  let at = -1;
  for (let count = 0; count < limit; count++) {
    at = input.indexOf('<', at + 1);
    if (at === -1) return true;
  }
  return false;
}

/** An array-like stack, top-first to its reader, held top-last in `items`. */
function flatStack<T>(items: T[]): unknown {
  // Made once: Parser reads a method on every tag, and a closure per read was garbage per tag.
  const shift = (): T | undefined => items.pop();
  const unshift = (value: T): number => items.push(value);
  const indexOf = (value: T): number => {
    const at = items.lastIndexOf(value);
    return at === -1 ? -1 : items.length - 1 - at;
  };
  const includes = (value: T): boolean => items.includes(value);
  return new Proxy(items, {
    get(_target, property) {
      switch (property) {
        case 'length':
          return items.length;
        case 'shift':
          return shift;
        case 'unshift':
          return unshift;
        case 'indexOf':
          return indexOf;
        case 'includes':
          return includes;
        default:
          // Parser reads `stack[0]` on every tag: a digit check, not a regex, tells an index.
          if (typeof property === 'string' && isIndex(property)) return items[items.length - 1 - Number(property)];
          return undefined;
      }
    },
    set(_target, property, value) {
      if (property === 'length' && value === 0) {
        items.length = 0;
        return true;
      }
      return false;
    },
  });
}

function isIndex(property: string): boolean {
  if (property.length === 0) return false;
  for (let i = 0; i < property.length; i++) {
    const code = property.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}
