import { Readability } from '@mozilla/readability';

/** Readability's `REGEXPS.tokenize`: words are what lies between runs of non-word characters. */
const nonWord = /\W+/;

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(nonWord)
    .filter((word) => word !== '');
}

/** Readability's own methods this class calls, which its types leave out. */
interface ReadabilityInternals {
  _removeNodes(this: unknown, nodes: ArrayLike<unknown>, keep?: RemovalFilter): void;
}
type RemovalFilter = (this: unknown, node: object, index: number, nodes: ArrayLike<unknown>) => boolean;
const internals = Readability.prototype as unknown as ReadabilityInternals;

/**
 * Mozilla's Readability, with two costs that grew with the square of the page made linear.
 *
 * Its title comparison. Readability compares the article title with every `<h1>` and `<h2>` it
 * walks, until one matches, to drop the heading that repeats it; each comparison split the title
 * into words again and looked every word of the heading up in that list. A page whose title was
 * 166 KB of text, followed by thousands of headings, took 25 s of CPU for 256 KB (the long fuzz
 * run). Here the title's words are split once, into a set, and the answer is the one Readability
 * gives (test/workers/extract-article-pathological.test.ts compares them).
 *
 * Its list check. Before it drops a list it judges bad, Readability reads `node.children` twice
 * for each item, and linkedom builds that list anew on every read (a browser keeps one live
 * collection): a `<ul>` of 1,365 items took 0.6 s of CPU for 30 KB (the long fuzz run), and the
 * element budget (source.ts) allows 8,000 in 256 KB. While one of Readability's removal filters
 * judges a node, the node's `children` is the list read once. None of those filters changes the
 * tree; the removals come after each verdict.
 *
 * Both are Readability's own methods, not in its types: should a release rename one, its override
 * stops applying and a growth check in that test file fails.
 */
export class LinearReadability<T> extends Readability<T> {
  #lastTitle: string | undefined;
  #titleWords = new Set<string>();

  /** 1 when every word of `textB` is in `textA`, less by the share of `textB`'s length not in it, 0 when either has no word. */
  _textSimilarity(textA: string, textB: string): number {
    if (textA !== this.#lastTitle) {
      this.#lastTitle = textA;
      this.#titleWords = new Set(words(textA));
    }
    const wordsB = words(textB);
    if (this.#titleWords.size === 0 || wordsB.length === 0) return 0;
    const unique = wordsB.filter((word) => !this.#titleWords.has(word));
    return 1 - unique.join(' ').length / wordsB.join(' ').length;
  }

  _removeNodes(nodes: ArrayLike<unknown>, keep?: RemovalFilter): void {
    if (keep === undefined) return internals._removeNodes.call(this, nodes);
    internals._removeNodes.call(this, nodes, function (this: unknown, node, index, list) {
      Object.defineProperty(node, 'children', { value: (node as { children: unknown }).children, configurable: true });
      try {
        return keep.call(this, node, index, list);
      } finally {
        // The element's own getter again, for the tree as it will be.
        delete (node as { children?: unknown }).children;
      }
    });
  }
}
