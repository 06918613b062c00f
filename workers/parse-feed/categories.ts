import { readerName } from './reader-names.js';
import { attribute, elementStringValue, elementText } from './xml-text.js';
import type { XmlNode } from './xml-tree.js';

/**
 * Atom categories by their human-readable label, else their term, as gofeed's translator names
 * them; else the element's text, which some feeds write instead of either attribute.
 */
export function addAtomCategories(target: string[], categories: XmlNode[]): void {
  for (const category of categories) {
    const name = attribute(category, 'label') || attribute(category, 'term') || elementStringValue(category);
    if (name !== '') target.push(name);
  }
}

/** Each element's text (its string value when it wraps markup: `<category><p>News</p></category>`), empty ones left out. */
export function addTexts(target: string[], elements: XmlNode[]): void {
  for (const element of elements) {
    const text = elementStringValue(element);
    if (text !== '') target.push(text);
  }
}

/**
 * The categories an RSS channel or item names, kept apart by the element that names them: the
 * channel and the item list them in different orders (see rss.ts and rss-item.ts).
 */
export interface RssCategories {
  /** `<category>` */
  own: string[];
  /** `itunes:keywords`, split at commas */
  keywords: string[];
  /** `itunes:category`, subcategories after their parent */
  itunes: string[];
  /** `dc:subject` */
  subjects: string[];
  /** `atom:category` */
  atom: string[];
}

export function newRssCategories(): RssCategories {
  return { own: [], keywords: [], itunes: [], subjects: [], atom: [] };
}

/** Adds what the elements named `name` say when they name categories; false when they don't. */
export function collectRssCategories(target: RssCategories, name: string, elements: XmlNode[]): boolean {
  switch (name) {
    case 'category':
      addTexts(target.own, elements);
      return true;
    case 'itunes:keywords':
      for (const element of elements) target.keywords.push(...splitKeywords(elementText(element)));
      return true;
    case 'itunes:category':
      addItunesCategories(target.itunes, elements);
      return true;
    case 'dc:subject':
      addTexts(target.subjects, elements);
      return true;
    case 'atom:category':
      addAtomCategories(target.atom, elements);
      return true;
    default:
      return false;
  }
}

function splitKeywords(text: string): string[] {
  return text
    .split(',')
    .map((keyword) => keyword.trim())
    .filter((keyword) => keyword !== '');
}

/**
 * `<itunes:category text="A"><itunes:category text="B"/></itunes:category>`: each category, then
 * the subcategories inside it, as gofeed lists them (A, B). Apple's directory nests one level.
 */
function addItunesCategories(target: string[], elements: XmlNode[]): void {
  for (const element of elements) {
    const text = attribute(element, 'text');
    if (text) target.push(text);
    for (const sub of element.children) {
      const subText = readerName(sub, 'rss') === 'itunes:category' ? attribute(sub, 'text') : undefined;
      if (subText) target.push(subText);
    }
  }
}
