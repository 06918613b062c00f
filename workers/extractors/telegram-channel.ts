import { FeedmillError } from '../../src/domain/errors.js';
import type { ParsedItem } from '../../src/domain/item.js';
import type { ExtractedPage } from '../extract-page.js';
import { parsePage, type PageElement } from '../extract-page/dom.js';
import { readPageMeta } from '../extract-page/page-meta.js';
import { innerHtml } from '../extract-page/serialize.js';
import { absoluteUrl } from '../extract-page/urls.js';
import { classTokens, textOf, walkElements } from '../extract-page/walk.js';
import { parseDate } from '../shared/dates.js';
import { renderHtml } from '../shared/html.js';

/** A title is the message's first line, cut at a word near this length. */
const titleLength = 100;

const hasClass = (element: PageElement, name: string): boolean => classTokens(element).includes(name);

/** The first element below `root` with the class. */
function first(root: PageElement, name: string): PageElement | undefined {
  let found: PageElement | undefined;
  walkElements(root, (element) => {
    if (found) return false;
    if (hasClass(element, name)) {
      found = element;
      return false;
    }
    return undefined;
  });
  return found;
}

function titleOf(text: string): string {
  const line =
    text
      .split('\n')
      .find((part) => part.trim() !== '')
      ?.trim() ?? '';
  if (line.length <= titleLength) return line;
  const cut = line.lastIndexOf(' ', titleLength);
  return `${line.slice(0, cut > titleLength / 2 ? cut : titleLength)}…`;
}

/** A photo's address: Telegram puts it in the wrapper's `background-image` style. */
function photoOf(message: PageElement, base: string): string | null {
  const wrap = first(message, 'tgme_widget_message_photo_wrap');
  const style = wrap?.attribs['style'] ?? '';
  const href = /background-image:\s*url\(['"]?([^'")]+)['"]?\)/i.exec(style)?.[1];
  const url = href === undefined ? null : absoluteUrl(href, base);
  // Only http(s) addresses leave feedmill (DESIGN.md, security by default).
  return url !== null && /^https?:/.test(url) ? url : null;
}

function itemOf(message: PageElement, pageUrl: string): ParsedItem | undefined {
  const post = message.attribs['data-post'];
  if (post === undefined || !/^[A-Za-z0-9_]+\/\d+$/.test(post)) return undefined;
  const url = absoluteUrl(`/${post}`, pageUrl) ?? pageUrl;
  const textElement = first(message, 'tgme_widget_message_text');
  const rendered = textElement ? renderHtml(innerHtml(textElement), url) : { html: '', text: '', firstImage: null };
  let datetime: string | undefined;
  walkElements(message, (element) => {
    if (datetime !== undefined) return false;
    if (element.name === 'time' && element.attribs['datetime'] !== undefined) datetime = element.attribs['datetime'];
    return undefined;
  });
  const author = first(message, 'tgme_widget_message_owner_name');
  const photo = photoOf(message, url);
  return {
    id: url,
    url,
    title: titleOf(rendered.text) || (photo ? 'Photo' : post),
    description_text: rendered.text,
    description_html: rendered.html,
    thumbnail: photo ?? rendered.firstImage,
    authors: author ? [{ name: textOf(author).trim() }] : [],
    date_published: parseDate(datetime),
    categories: [],
    enclosures: [],
  };
}

/**
 * A public Telegram channel's server-rendered preview (`t.me/s/NAME`) as a feed: one item per
 * `.tgme_widget_message` (its `data-post` is `channel/number`, the message's own address), its text,
 * its `time[datetime]`. The page lists the oldest first; a feed lists the newest first.
 * @throws FeedmillError `no_items_found` when the page holds no message (a private channel or a person).
 */
export function extractTelegramChannel(html: string, meta: { url: string }): ExtractedPage {
  const root = parsePage(html);
  const page = readPageMeta(root, meta.url);
  const messages: PageElement[] = [];
  walkElements(root, (element) => {
    if (!hasClass(element, 'tgme_widget_message') || element.attribs['data-post'] === undefined) return undefined;
    messages.push(element);
    return false;
  });
  const items = messages.flatMap((message) => itemOf(message, meta.url) ?? []).reverse();
  if (items.length === 0) {
    throw new FeedmillError(
      'no_items_found',
      `Expected a public Telegram channel's preview with messages (.tgme_widget_message), got ${meta.url} with none; only public channels have one`,
    );
  }
  const header = first(root, 'tgme_channel_info_header_title');
  const description = first(root, 'tgme_channel_info_description');
  return {
    title: (header ? textOf(header).trim() : '') || page.title,
    description: (description ? textOf(description).trim() : '') || page.description,
    link: meta.url.replace('/s/', '/'),
    icon: page.icon,
    items,
    feedLinks: [],
  };
}
