import type { ParsedItem } from '../../src/domain/item.js';
import type { PageElement } from './dom.js';
import { findThumbnail } from './images.js';
import { absoluteUrl } from './urls.js';
import { parseStatedDate } from './text-dates.js';
import { classTokens, textOf, walkElements } from './walk.js';

/**
 * Items marked up as microformats2 `h-entry` (microformats.org/wiki/h-entry): `p-name`, `u-url`,
 * `dt-published`, `p-summary`/`e-content`, `p-author`, `u-photo`. A nested h-entry (a reply or a
 * quoted post) belongs to its parent, so only the outermost entries count.
 */
export function readHEntries(root: PageElement, base: string): { element: PageElement; item: Partial<ParsedItem> }[] {
  const entries: { element: PageElement; item: Partial<ParsedItem> }[] = [];
  walkElements(root, (element) => {
    if (!classTokens(element).includes('h-entry')) return undefined;
    entries.push({ element, item: readEntry(element, base) });
    return false;
  });
  return entries;
}

function readEntry(entry: PageElement, base: string): Partial<ParsedItem> {
  const item: Partial<ParsedItem> = {};
  let summary: string | undefined;
  walkElements(entry, (element) => {
    const tokens = classTokens(element);
    if (tokens.includes('h-entry') || tokens.includes('h-cite')) return false;
    for (const token of tokens) {
      if (token === 'p-name' && item.title === undefined) item.title = textOf(element, 400).replace(/\n/g, ' ');
      else if (token === 'u-url' && item.url === undefined) {
        const url = absoluteUrl(element.attribs['href'] ?? element.attribs['value'] ?? '', base);
        if (url !== null) item.url = url;
      } else if (token === 'dt-published' && item.date_published === undefined) {
        item.date_published = parseStatedDate(
          element.attribs['datetime'] ?? element.attribs['value'] ?? element.attribs['title'] ?? textOf(element, 200),
        );
      } else if ((token === 'p-summary' || token === 'e-content') && summary === undefined) summary = textOf(element, 2000);
      else if (token === 'p-author' && item.authors === undefined) {
        const name = textOf(element, 200).split('\n')[0] ?? '';
        if (name !== '') item.authors = [{ name }];
      } else if ((token === 'u-photo' || token === 'u-featured') && item.thumbnail === undefined)
        item.thumbnail = findThumbnail(element, base);
    }
    return undefined;
  });
  if (summary !== undefined) item.description_text = summary;
  return item;
}
