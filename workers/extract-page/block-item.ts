import type { ParsedItem } from '../../src/domain/item.js';
import { renderHtml } from '../shared/html.js';
import { linksWithin, primaryLink } from './block-links.js';
import type { PageElement } from './dom.js';
import { findThumbnail } from './images.js';
import type { PageLink } from './links.js';
import { innerHtml } from './serialize.js';
import { findDateInText, parseStatedDate } from './text-dates.js';
import { blockElementBudget, classTokens, textOf, walkElements } from './walk.js';

/** What a block yields before the list it belongs to is judged. */
export interface BlockItem {
  item: ParsedItem;
  root: PageElement;
  inHeading: boolean;
  hasDate: boolean;
  inPageHeader: boolean;
}

const summaryWords =
  /(?:^|[-_])(?:summary|excerpt|description|desc|teaser|dek|snippet|abstract|lead|intro|subtitle|blurb|preview)(?:$|[-_])/;
const dateWords = /(?:^|[-_])(?:date|time|published|posted|pubdate|timestamp|meta|byline)(?:$|[-_])/;
const authorWords = /(?:^|[-_])(?:author|byline|writer|creator)(?:$|[-_])/;

/** Blocks bigger than this are sections, not items; their text is sampled, not read whole. */
const textBudget = 1500;

/** Reads one repeated block into an item; null when it has no link with a title. */
export function readBlock(root: PageElement, links: readonly PageLink[], base: string): BlockItem | null {
  const inside = linksWithin(links, root);
  const primary = primaryLink(inside, root);
  if (primary === null) return null;
  const parts = scanBlock(root, primary.link.element);
  const title = primary.title !== '' ? primary.title : (parts.headingText ?? parts.imageAlt ?? '');
  if (title === '') return null;
  const description = describe(parts.summary, root, title, base);
  const date =
    parseStatedDate(parts.datetime) ??
    (parts.dateText !== null ? findDateInText(parts.dateText) : null) ??
    findDateInText(textOf(root, textBudget));
  return {
    item: {
      url: primary.link.url,
      title,
      description_text: description.text,
      description_html: description.html,
      thumbnail: findThumbnail(root, base),
      authors: parts.author !== null ? [{ name: parts.author }] : [],
      date_published: date,
      categories: [],
      enclosures: [],
    },
    root,
    inHeading: primary.inHeading,
    hasDate: date !== null,
    inPageHeader: primary.link.inPageHeader,
  };
}

interface BlockParts {
  summary: PageElement | null;
  datetime: string | null;
  dateText: string | null;
  author: string | null;
  headingText: string | null;
  imageAlt: string | null;
}

/**
 * Characters (and nodes) the text reads of one block's scan may take together: each read is
 * bounded, and a block of thousands of empty headings would otherwise read each of them.
 */
const scanTextBudget = 4000;

/** One walk over the block for the parts named by markup: summary, time, author, heading. */
function scanBlock(root: PageElement, titleLink: PageElement): BlockParts {
  const parts: BlockParts = { summary: null, datetime: null, dateText: null, author: null, headingText: null, imageAlt: null };
  let textLeft = scanTextBudget;
  const read = (element: PageElement, limit: number): string => {
    if (textLeft <= 0) return '';
    textLeft -= limit;
    return textOf(element, limit);
  };
  walkElements(
    root,
    (element) => {
      if (element === titleLink) return false;
      const tokens = classTokens(element);
      if (element.name === 'time') {
        parts.datetime ??= element.attribs['datetime'] ?? null;
        parts.dateText ??= read(element, 200);
        return false;
      }
      if (
        parts.author === null &&
        (element.attribs['rel'] === 'author' || element.attribs['itemprop'] === 'author' || tokens.some((t) => authorWords.test(t)))
      ) {
        const name =
          read(element, 200)
            .replace(/^by\s+/i, '')
            .split('\n')[0]
            ?.trim() ?? '';
        if (name !== '' && name.length < 80) parts.author = name;
      }
      if (parts.dateText === null && tokens.some((t) => dateWords.test(t))) {
        const text = read(element, 200);
        if (findDateInText(text) !== null) parts.dateText = text;
      }
      if (parts.summary === null && (tokens.some((t) => summaryWords.test(t)) || element.attribs['itemprop'] === 'description')) {
        parts.summary = element;
        return false;
      }
      if (parts.summary === null && element.name === 'p' && read(element, 200).length >= 40) {
        parts.summary = element;
        return false;
      }
      if (parts.headingText === null && /^h[1-6]$/.test(element.name)) parts.headingText = read(element, 400) || null;
      if (parts.imageAlt === null && element.name === 'img') parts.imageAlt = element.attribs['alt']?.trim() || null;
      return undefined;
    },
    blockElementBudget,
  );
  return parts;
}

function describe(summary: PageElement | null, root: PageElement, title: string, base: string): { text: string; html: string } {
  if (summary === null) return { text: '', html: '' };
  const rendered = renderHtml(innerHtml(summary), base);
  if (rendered.text === '' || rendered.text === title || summary === root) return { text: '', html: '' };
  return { text: rendered.text, html: rendered.html };
}
