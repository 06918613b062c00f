import type { Parser } from 'htmlparser2';

/**
 * htmlparser2 10.1 keeps its open-element stack top-first in an array and pushes with `unshift`
 * and pops with `shift`, which are O(depth): a page of 100k nested elements costs ~10^10 moves
 * (seconds of CPU per request). This stack keeps the top last, so both are O(1), and answers the
 * few operations Parser performs on it (`[i]` from the top, `length`, `shift`, `unshift`,
 * `indexOf`). If a later htmlparser2 no longer has an array `stack`, the parser is left as it is.
 */
export function withFlatStack(parser: Parser): Parser {
  const internals = parser as unknown as { stack?: unknown };
  if (!Array.isArray(internals.stack) || internals.stack.length !== 0) return parser;
  const items: string[] = [];
  internals.stack = new Proxy(items, {
    get(_target, property) {
      switch (property) {
        case 'length':
          return items.length;
        case 'shift':
          return () => items.pop();
        case 'unshift':
          return (name: string) => items.push(name);
        case 'indexOf':
          return (name: string) => {
            const at = items.lastIndexOf(name);
            return at === -1 ? -1 : items.length - 1 - at;
          };
        default:
          if (typeof property === 'string' && /^\d+$/.test(property)) return items[items.length - 1 - Number(property)];
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
  return parser;
}
