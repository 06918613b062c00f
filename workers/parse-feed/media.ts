import { readerName } from './reader-names.js';
import { webUrl } from '../shared/urls.js';
import { attribute } from './xml-text.js';
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
