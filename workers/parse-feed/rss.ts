import type { Author, ParsedFeed, ParsedItem } from '../../src/domain/item.js';
import { addCreators } from './authors.js';
import { collectRssCategories, newRssCategories } from './categories.js';
import { inheritAuthors, titleText } from './item-draft.js';
import { itunesImage, itunesLinkImage } from './itunes.js';
import { linkRelation } from './link-relation.js';
import { vocabulary } from './namespaces.js';
import { childGroups, readerName } from './reader-names.js';
import { readRssItem, rssLink, rssPrimary } from './rss-item.js';
import { webUrl } from '../shared/urls.js';
import { xmlBase } from './xml-base.js';
import { atomText, attribute, elementText, rssText } from './xml-text.js';
import { moveInto, readEach, releaseChildren, type XmlNode } from './xml-tree.js';

/**
 * RSS 0.9x, 1.0 (RDF: items beside the channel) and 2.0 (items inside it). `preRead` holds the
 * items already read while the document was parsed (see item-stream.ts), by their element.
 */
export function readRss(root: XmlNode, documentUrl: string | undefined, preRead?: ReadonlyMap<XmlNode, ParsedItem>): ParsedFeed {
  const feed: ParsedFeed = { title: '', description: '', link: '', icon: '', items: [] };
  const itemNodes: XmlNode[] = [];
  // A `<channel>` written without the `<rss>` around it is its own channel (see cdf.ts, which shares the root name).
  let channel: XmlNode | undefined = readerName(root, rssPrimary) === 'channel' ? root : undefined;
  // RSS 0.90 and 1.0 put the image beside the channel, in the root.
  let rootImage: XmlNode | undefined;
  for (const [name, children] of channel === root ? [] : childGroups(root, rssPrimary)) {
    if (name === 'channel' && children[0] !== undefined) channel = children[0];
    else if (name === 'item') moveInto(itemNodes, children);
    else if (name === 'image') rootImage ??= children[0];
  }
  if (channel !== root) releaseChildren(root);
  const channelBase = rssChannelBase(root, channel, documentUrl);
  const channelAuthors = channel === undefined ? [] : readChannel(channel, channelBase, feed, itemNodes);
  if (feed.icon === '' && rootImage !== undefined) feed.icon = imageUrl(rootImage, channelBase);
  feed.items = readEach(itemNodes, (node) => preRead?.get(node) ?? readRssItem(node, channelBase));
  // The channel's creator (dc:creator, a podcast's itunes:author) wrote every item that names no author.
  inheritAuthors(feed.items, channelAuthors);
  return feed;
}

/**
 * A default namespace on `<rss>` that no vocabulary claims is a publisher's slip, the best known
 * being the specification's own address (`xmlns="https://cyber.harvard.edu/rss/rss.html"`): RSS
 * 0.9x and 2.0 are in no namespace, and the loose readers read such a document as RSS. One that
 * a vocabulary claims keeps its meaning: RSS 1.0's and UserLand's are read as RSS's already, and
 * Atom's makes the elements Atom's, which no `<rss>` holds. A StrayNamespaceRule (xml-tree.ts).
 */
export function strayRssNamespace(root: string, uri: string): boolean {
  return root.toLowerCase() === 'rss' && vocabulary(uri) === undefined;
}

/** The base the channel's items resolve against: the document's, then the root's and the channel's xml:base. */
export function rssChannelBase(root: XmlNode, channel: XmlNode | undefined, documentUrl: string | undefined): string | undefined {
  const rootBase = xmlBase(root, documentUrl);
  return channel === undefined || channel === root ? rootBase : xmlBase(channel, rootBase);
}

/** Fills `feed` from the channel and moves its items into `itemNodes`; returns the channel's authors. */
function readChannel(channel: XmlNode, base: string | undefined, feed: ParsedFeed, itemNodes: XmlNode[]): Author[] {
  const authors: Author[] = [];
  let atomAlternate: string | undefined;
  let dcTitle: string | undefined;
  let atomTitle: string | undefined;
  let fallbackDescription: string | undefined;
  // An Atom icon is the feed's icon proper; a logo is the last resort, after the RSS and iTunes images.
  let atomIcon = '';
  let atomLogo = '';
  const categories = newRssCategories();
  addChannelItems(channel, itemNodes);
  const groups = childGroups(channel, rssPrimary);
  releaseChildren(channel);
  for (const [name, children] of groups) {
    const first = children[0];
    if (first === undefined || collectRssCategories(categories, name, children)) continue;
    switch (name) {
      case 'title':
        feed.title = titleText({ value: rssText(first), html: true });
        break;
      case 'description':
        feed.description = titleText({ value: rssText(first), html: true });
        break;
      case 'link':
        feed.link = rssLink(children, base);
        break;
      case 'atom:link':
        atomAlternate ??= alternateHref(children, base);
        break;
      case 'dc:title':
        dcTitle ??= titleText({ value: rssText(first), html: true });
        break;
      case 'atom:title':
        atomTitle ??= titleText(atomText(first));
        break;
      case 'dc:description':
      case 'itunes:summary':
      case 'itunes:subtitle':
        fallbackDescription ??= titleText({ value: rssText(first), html: true });
        break;
      case 'atom:subtitle':
      case 'atom:tagline':
        fallbackDescription ??= titleText(atomText(first));
        break;
      case 'atom:icon':
        atomIcon ||= webUrl(elementText(first), base);
        break;
      case 'atom:logo':
        atomLogo ||= webUrl(elementText(first), base);
        break;
      case 'image':
        if (feed.icon === '') feed.icon = imageUrl(first, base);
        break;
      case 'itunes:image':
        if (feed.icon === '') feed.icon = itunesImage(first, base);
        break;
      case 'itunes:link':
        if (feed.icon === '') feed.icon = itunesLinkImage(children, base);
        break;
      case 'dc:creator':
      case 'itunes:author':
        if (authors.length === 0) addCreators(authors, children);
        break;
    }
  }
  // gofeed's order for the feed's categories: <category>, itunes:keywords, itunes:category, dc:subject.
  const { own, keywords, itunes, subjects, atom } = categories;
  const all = [...own, ...keywords, ...itunes, ...subjects, ...atom];
  if (all.length > 0) feed.categories = all;
  if (feed.link === '') feed.link = atomAlternate ?? '';
  if (feed.title === '') feed.title = dcTitle ?? atomTitle ?? '';
  if (feed.description === '') feed.description = fallbackDescription ?? '';
  feed.icon = atomIcon || feed.icon || atomLogo;
  return authors;
}

/**
 * The channel's items in document order: its `<item>`s, and those inside a child left unclosed
 * (`<itunes:category text="Technology">` without its end tag holds every item after it, and
 * feedparser and Feedjira still find them).
 */
function addChannelItems(channel: XmlNode, target: XmlNode[]): void {
  for (const child of channel.children) {
    if (readerName(child, rssPrimary) === 'item') target.push(child);
    else for (const inner of child.children) if (readerName(inner, rssPrimary) === 'item') target.push(inner);
  }
}

function alternateHref(links: XmlNode[], base: string | undefined): string | undefined {
  for (const link of links) {
    const href = attribute(link, 'href');
    if (href && linkRelation(link) === 'alternate') return webUrl(href, base) || undefined;
  }
  return undefined;
}

function imageUrl(image: XmlNode, base: string | undefined): string {
  for (const [name, children] of childGroups(image, rssPrimary)) {
    if (name === 'url' && children[0] !== undefined) return webUrl(elementText(children[0]), base);
  }
  return '';
}
