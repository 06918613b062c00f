import { readerName } from './reader-names.js';
import { webUrl } from '../shared/urls.js';
import { attribute, elementText, rssText, type TextValue } from './xml-text.js';
import type { XmlNode } from './xml-tree.js';

/**
 * The first image among Media RSS elements of an item: `media:thumbnail`, or `media:content`
 * whose medium is image or whose type is image/*, including those inside `media:group`.
 */
export function mediaImage(name: string, children: XmlNode[], base: string | undefined): string | undefined {
  for (const child of children) {
    if (name === 'media:thumbnail') {
      const url = webUrl(attribute(child, 'url') ?? '', base);
      if (url !== '') return url;
    } else if (name === 'media:content') {
      const url = webUrl(attribute(child, 'url') ?? '', base);
      const medium = attribute(child, 'medium') ?? '';
      const type = attribute(child, 'type') ?? '';
      if (url !== '' && (medium.includes('image') || type.includes('image'))) return url;
      const nested = nestedImage(child, base);
      if (nested) return nested;
    } else if (name === 'media:group') {
      const nested = nestedImage(child, base);
      if (nested) return nested;
    }
  }
  return undefined;
}

function nestedImage(child: XmlNode, base: string | undefined): string | undefined {
  for (const grandchild of child.children) {
    const image = mediaImage(readerName(grandchild, ''), [grandchild], base);
    if (image) return image;
  }
  return undefined;
}

/** Media RSS text an item falls back on when its own elements are missing. */
export interface MediaText {
  title?: TextValue;
  description?: TextValue;
  categories: string[];
}

/**
 * Collects `media:title`, `media:description` and `media:category` of an item, and of its
 * `media:group`s and `media:content`s, the item's own level first (Media RSS §5: an element at a
 * lower level overrides the one above it only for that content, so for the item the outer one wins).
 */
export function collectMediaText(name: string, children: XmlNode[], into: MediaText): void {
  for (const child of children) {
    switch (name) {
      case 'media:title':
        into.title ??= mediaTextValue(child);
        break;
      case 'media:description':
        into.description ??= mediaTextValue(child);
        break;
      case 'media:category': {
        const category = elementText(child);
        if (category !== '') into.categories.push(category);
        break;
      }
      case 'media:group':
      case 'media:content':
        for (const grandchild of child.children) collectMediaText(readerName(grandchild, ''), [grandchild], into);
        break;
    }
  }
}

/** Media RSS text is plain unless `type="html"`. */
function mediaTextValue(node: XmlNode): TextValue {
  return { value: rssText(node), html: (attribute(node, 'type') ?? '').toLowerCase() === 'html' };
}
