import type { PageElement } from './dom.js';
import type { PageLink } from './links.js';
import { blockElementBudget, classTokens, closest, textOf, walkElements } from './walk.js';

/** The links inside `root`, found by binary search over links sorted in page order. */
export function linksWithin(links: readonly PageLink[], root: PageElement): PageLink[] {
  let low = 0;
  let high = links.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((links[mid] as PageLink).element.order < root.order) low = mid + 1;
    else high = mid;
  }
  const inside: PageLink[] = [];
  for (let i = low; i < links.length; i++) {
    const link = links[i] as PageLink;
    if (link.element.order > root.end) break;
    inside.push(link);
  }
  return inside;
}

const headings = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const titleWords = /(?:^|[-_])(?:title|headline|heading|name)(?:$|[-_])/;

/** Link texts that invite a click rather than name an article. */
const genericText =
  /^(?:read more|more|continue reading|continue|read|weiterlesen|mehr|lire la suite|leer más|details|permalink|link|here|click here|view|»|›|→|\.\.\.|…)\W*$/i;

/** Paths that list things rather than being one: tags, categories, authors, pages of a listing. */
const listingPath =
  /\/(?:tags?|categor(?:y|ies)|topics?|authors?|users?|page|search|labels?|archives?)(?:\/|$)|[?&](?:page|p|tag|cat|category)=/i;

export interface TitledLink {
  link: PageLink;
  title: string;
  inHeading: boolean;
}

/**
 * Links of a block weighed for its title: the first in page order. A block of more is a section,
 * not an item, and nested sections each weighing every link below them cost the square of the page.
 */
const weighedLinks = 50;

/** The link that names the block's article: in a heading or titled, with real words, not "read more". */
export function primaryLink(inside: readonly PageLink[], root: PageElement): TitledLink | null {
  let best: (TitledLink & { score: number }) | null = null;
  for (const link of inside.slice(0, weighedLinks)) {
    const title = linkTitle(link.element);
    const inHeading =
      closest(link.element, (el) => el === root.parent || headings.has(el.name) || classTokens(el).some((t) => titleWords.test(t))) !==
      root.parent;
    const words = title === '' ? 0 : title.split(' ').length;
    let score = Math.min(words, 12) / 3 + (inHeading ? 3 : 0);
    if (title === '') score -= 3;
    if (genericText.test(title)) score -= 4;
    if (listingPath.test(new URL(link.url).pathname + new URL(link.url).search)) score -= 2;
    if (best === null || score > best.score) best = { link, title, inHeading, score };
  }
  return best;
}

/**
 * The words a link shows, or what it says about itself when it only wraps an image. A link that
 * wraps a whole card (position, title, date, duration) gives its heading or titled part, else its
 * longest line.
 */
export function linkTitle(anchor: PageElement): string {
  let title = titles.get(anchor);
  if (title === undefined) {
    title = readLinkTitle(anchor);
    titles.set(anchor, title);
  }
  return title;
}

/**
 * Each anchor's title, read once: a link is weighed by every block around it, and nested blocks
 * weighing the same links read each again (a page of them spent 0.8 s of 1.4 s there). Weak, so
 * a page's titles go with its elements; nothing changes the page while it is read.
 */
const titles = new WeakMap<PageElement, string>();

function readLinkTitle(anchor: PageElement): string {
  const text = textOf(anchor, 600);
  if (text.indexOf('\n') !== -1) {
    const titled = titledPart(anchor);
    if (titled !== '') return titled;
    let longest = '';
    for (const line of text.split('\n')) if (line.length > longest.length) longest = line;
    return longest;
  }
  if (text !== '') return text;
  const own = anchor.attribs['title'] ?? anchor.attribs['aria-label'];
  if (own !== undefined && own.trim() !== '') return own.trim();
  return '';
}

function titledPart(anchor: PageElement): string {
  let found = '';
  walkElements(
    anchor,
    (element) => {
      if (found !== '') return false;
      if (headings.has(element.name) || classTokens(element).some((t) => titleWords.test(t))) {
        found = textOf(element, 400).replace(/\n/g, ' ');
        return false;
      }
      return undefined;
    },
    blockElementBudget,
  );
  return found;
}

export function isListingUrl(url: string): boolean {
  const parsed = new URL(url);
  return listingPath.test(parsed.pathname + parsed.search);
}

export function isGenericText(text: string): boolean {
  return genericText.test(text);
}
