import type { ParsedFeed, ParsedItem } from '../../src/domain/item.js';
import { finishItem, newDraft, titleText } from './item-draft.js';
import { childGroups } from './reader-names.js';
import { nestedBase, webUrl } from '../shared/urls.js';
import { xmlBase } from './xml-base.js';
import { attribute, deferredRssHtml, rssText } from './xml-text.js';
import { moveInto, readEach, type XmlNode } from './xml-tree.js';

/** CDF's elements are in no namespace; no other vocabulary is read inside them. */
const primary = 'cdf';

/**
 * A root `<channel>` is CDF's when written as the note writes it (`<CHANNEL>`) or with CDF's `HREF`;
 * otherwise it is an RSS channel that lost its `<rss>` around it, which rss.ts reads.
 */
export function isCdf(root: XmlNode): boolean {
  return root.local === 'CHANNEL' || cdfAttribute(root, 'href') !== undefined;
}

/**
 * Microsoft's Channel Definition Format (the 1997 W3C note), which feedparser still reads: a
 * `<CHANNEL HREF>` with a `<TITLE>`, an `<ABSTRACT>` and `<ITEM HREF LASTMOD>`s, sub-channels
 * holding more items. The note writes names in upper case; element names are matched in any case
 * already (reader-names.ts), attribute names here.
 */
export function readCdf(root: XmlNode, documentUrl: string | undefined): ParsedFeed {
  const base = channelBase(root, documentUrl);
  const feed: ParsedFeed = { title: '', description: '', link: cdfUrl(root, 'href', base), icon: '', items: [] };
  // Each item with the base of the channel it is in: a sub-channel may name its own BASE.
  const itemNodes: XmlNode[] = [];
  const itemBases = new Map<XmlNode, string | undefined>();
  for (const [name, children] of childGroups(root, primary)) {
    const first = children[0];
    if (first === undefined) continue;
    switch (name) {
      case 'title':
        feed.title = titleText({ value: rssText(first), html: true });
        break;
      case 'abstract':
        feed.description = titleText({ value: rssText(first), html: true });
        break;
      case 'logo':
        feed.icon = logoUrl(children, base);
        break;
      case 'item':
        moveInto(itemNodes, children);
        break;
      case 'channel':
        for (const channel of children) addSubchannelItems(itemNodes, itemBases, channel, base);
        break;
    }
  }
  feed.items = readEach(itemNodes, (node) => readCdfItem(node, itemBases.get(node) ?? base));
  return feed;
}

/** A sub-channel's items, and its own sub-channels' (nesting is bounded by the XML reader's depth cap). */
function addSubchannelItems(
  target: XmlNode[],
  bases: Map<XmlNode, string | undefined>,
  channel: XmlNode,
  parentBase: string | undefined,
): void {
  const base = channelBase(channel, parentBase);
  for (const [name, children] of childGroups(channel, primary)) {
    if (name === 'item') {
      for (const item of children) {
        target.push(item);
        bases.set(item, base);
      }
    } else if (name === 'channel') for (const sub of children) addSubchannelItems(target, bases, sub, base);
  }
}

/** The base a channel's relative HREFs resolve against: its xml:base, then CDF's own BASE attribute. */
function channelBase(channel: XmlNode, parentBase: string | undefined): string | undefined {
  const base = xmlBase(channel, parentBase);
  const cdf = cdfAttribute(channel, 'base');
  return cdf === undefined ? base : nestedBase(cdf, base);
}

function readCdfItem(node: XmlNode, channelBase: string | undefined): ParsedItem {
  const base = xmlBase(node, channelBase);
  const draft = newDraft(base);
  draft.url = cdfUrl(node, 'href', base);
  // LASTMOD says when the page last changed: the item's only date, so the last resort (see item-draft.ts).
  const lastModified = cdfAttribute(node, 'lastmod');
  if (lastModified) draft.modified = lastModified;
  for (const [name, children] of childGroups(node, primary)) {
    const first = children[0];
    if (first === undefined) continue;
    if (name === 'title') draft.title = { value: rssText(first), html: true };
    else if (name === 'abstract') draft.summary = deferredRssHtml(first);
  }
  return finishItem(draft);
}

/** The icon-style logo when the channel has one, else the first logo: CDF's STYLE is ICON, IMAGE or IMAGE-WIDE. */
function logoUrl(logos: XmlNode[], base: string | undefined): string {
  const icon = logos.find((logo) => cdfAttribute(logo, 'style')?.toLowerCase() === 'icon');
  return cdfUrl(icon ?? (logos[0] as XmlNode), 'href', base);
}

function cdfUrl(node: XmlNode, name: string, base: string | undefined): string {
  return webUrl(cdfAttribute(node, name) ?? '', base);
}

/** An attribute by its name in any case: `HREF` as the note writes it, `href` as some generators did. */
function cdfAttribute(node: XmlNode, lowerName: string): string | undefined {
  const written = node.attributes.find((candidate) => candidate.uri === '' && candidate.local.toLowerCase() === lowerName);
  return written === undefined ? undefined : attribute(node, written.local);
}
