import { attribute } from './xml-text.js';
import type { XmlChild } from './xml-tree.js';
import { webUrl } from './urls.js';
import { childEntries, asElement } from './xml-tree.js';
import type { NameMap } from './namespaces.js';

/**
 * The first image among Media RSS elements of an item: `media:thumbnail`, or `media:content`
 * whose medium is image or whose type is image/*, including those inside `media:group`.
 */
export function mediaImage(name: string, children: XmlChild[], names: NameMap, base: string | undefined): string | undefined {
  for (const child of children) {
    if (name === 'media:thumbnail') {
      const url = webUrl(attribute(child, 'url') ?? '', base);
      if (url !== '') return url;
    } else if (name === 'media:content') {
      const url = webUrl(attribute(child, 'url') ?? '', base);
      const medium = attribute(child, 'medium') ?? '';
      const type = attribute(child, 'type') ?? '';
      if (url !== '' && (medium.includes('image') || type.includes('image'))) return url;
      const nested = nestedImage(child, names, base);
      if (nested) return nested;
    } else if (name === 'media:group') {
      const nested = nestedImage(child, names, base);
      if (nested) return nested;
    }
  }
  return undefined;
}

function nestedImage(child: XmlChild, names: NameMap, base: string | undefined): string | undefined {
  for (const [rawName, grandchildren] of childEntries(asElement(child))) {
    const image = mediaImage(names.canonical(rawName), grandchildren, names, base);
    if (image) return image;
  }
  return undefined;
}
