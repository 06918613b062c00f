import { Readability } from '@mozilla/readability';

/** Readability's `REGEXPS.tokenize`: words are what lies between runs of non-word characters. */
const nonWord = /\W+/;

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(nonWord)
    .filter((word) => word !== '');
}

/**
 * Mozilla's Readability, with its title comparison made linear. Readability compares the article
 * title with every `<h1>` and `<h2>` it walks, until one matches, to drop the heading that repeats
 * it; each comparison split the title into words again and looked every word of the heading up in
 * that list. A page whose title was 166 KB of text, followed by thousands of headings, took 25 s of
 * CPU for 256 KB (the long fuzz run). Here the title's words are split once, into a set, and the
 * answer is the one Readability gives (test/workers/extract-article-pathological.test.ts compares
 * them). `_textSimilarity` is Readability's own method, not in its types: should a release rename
 * it, this override stops applying and that test's growth check fails.
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
}
