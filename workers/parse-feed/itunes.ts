import { webUrl } from '../shared/urls.js';
import { linkRelation } from './link-relation.js';
import { attribute, elementText } from './xml-text.js';
import type { XmlNode } from './xml-tree.js';

/**
 * The image of an `itunes:image` element, absolute, or '' when it names none. Apple's attribute is
 * `href`; podcasts also write `url`, as RSS's own `<image>` does, or put the address in the text.
 */
export function itunesImage(image: XmlNode, base: string | undefined): string {
  return webUrl(attribute(image, 'href') || attribute(image, 'url') || elementText(image), base);
}

/** `<itunes:link rel="image" href="…">`, the image as Apple's first podcast specification gave it; '' when none is. */
export function itunesLinkImage(links: XmlNode[], base: string | undefined): string {
  for (const link of links) {
    if (linkRelation(link) !== 'image') continue;
    const url = webUrl(attribute(link, 'href') ?? '', base);
    if (url !== '') return url;
  }
  return '';
}
