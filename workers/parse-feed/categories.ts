import { attribute, elementStringValue } from './xml-text.js';
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
