import type { Author, ParsedFeed, ParsedItem } from '../../src/domain/item.js';
import { personFromString, personName } from './authors.js';
import { finishItem, inheritAuthors, newDraft, titleText, type ItemDraft } from './item-draft.js';
import { addAtomCategories, addTexts } from './categories.js';
import { itunesImage, itunesLinkImage } from './itunes.js';
import { linkRelation } from './link-relation.js';
import { collectMediaText, mediaImage, type MediaText } from './media.js';
import { rdfNamespace, xmlNamespace } from './namespaces.js';
import { childGroups, readerName } from './reader-names.js';
import { resolveUrl, webUrl } from '../shared/urls.js';
import {
  atomText,
  attribute,
  deferredAtomText,
  deferredRssHtml,
  elementStringValue,
  elementText,
  inlineXhtml,
  rssText,
  type TextValue,
} from './xml-text.js';
import { moveInto, readEach, releaseChildren, type XmlNode } from './xml-tree.js';

/** RSS's own elements: in no namespace (0.9x, 2.0) or in RSS 1.0's (see namespaces.ts). */
const primary = 'rss';

/**
 * RSS 0.9x, 1.0 (RDF: items beside the channel) and 2.0 (items inside it). `preRead` holds the
 * items already read while the document was parsed (see item-stream.ts), by their element.
 */
export function readRss(root: XmlNode, documentUrl: string | undefined, preRead?: ReadonlyMap<XmlNode, ParsedItem>): ParsedFeed {
  const rootBase = xmlBase(root, documentUrl);
  const feed: ParsedFeed = { title: '', description: '', link: '', icon: '', items: [] };
  const itemNodes: XmlNode[] = [];
  let channel: XmlNode | undefined;
  // RSS 0.90 and 1.0 put the image beside the channel, in the root.
  let rootImage: XmlNode | undefined;
  for (const [name, children] of childGroups(root, primary)) {
    if (name === 'channel' && children[0] !== undefined) channel = children[0];
    else if (name === 'item') moveInto(itemNodes, children);
    else if (name === 'image') rootImage ??= children[0];
  }
  releaseChildren(root);
  const channelBase = channel === undefined ? rootBase : xmlBase(channel, rootBase);
  const channelAuthors = channel === undefined ? [] : readChannel(channel, channelBase, feed, itemNodes);
  if (feed.icon === '' && rootImage !== undefined) feed.icon = imageUrl(rootImage, channelBase);
  feed.items = readEach(itemNodes, (node) => preRead?.get(node) ?? readRssItem(node, channelBase));
  // The channel's creator (dc:creator, a podcast's itunes:author) wrote every item that names no author.
  inheritAuthors(feed.items, channelAuthors);
  return feed;
}

/** The base the channel's items resolve against: the document's, then the root's and the channel's xml:base. */
export function rssChannelBase(root: XmlNode, channel: XmlNode | undefined, documentUrl: string | undefined): string | undefined {
  const rootBase = xmlBase(root, documentUrl);
  return channel === undefined ? rootBase : xmlBase(channel, rootBase);
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
  // gofeed's order for the feed's categories: <category>, itunes:keywords, itunes:category, dc:subject.
  const categories: string[] = [];
  const keywords: string[] = [];
  const itunesCategories: string[] = [];
  const subjects: string[] = [];
  const atomCategories: string[] = [];
  const groups = childGroups(channel, primary);
  releaseChildren(channel);
  for (const [name, children] of groups) {
    const first = children[0];
    if (first === undefined) continue;
    switch (name) {
      case 'title':
        feed.title = titleText({ value: rssText(first), html: true });
        break;
      case 'description':
        feed.description = titleText({ value: rssText(first), html: true });
        break;
      case 'link':
        feed.link = channelLink(children, base);
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
      case 'item':
        moveInto(itemNodes, children);
        break;
      case 'category':
        addTexts(categories, children);
        break;
      case 'itunes:keywords':
        for (const child of children) keywords.push(...splitKeywords(elementText(child)));
        break;
      case 'itunes:category':
        addItunesCategories(itunesCategories, children);
        break;
      case 'dc:subject':
        addTexts(subjects, children);
        break;
      case 'atom:category':
        addAtomCategories(atomCategories, children);
        break;
      case 'dc:creator':
      case 'itunes:author':
        if (authors.length === 0) addPeople(authors, children);
        break;
    }
  }
  const all = [...categories, ...keywords, ...itunesCategories, ...subjects, ...atomCategories];
  if (all.length > 0) feed.categories = all;
  if (feed.link === '') feed.link = atomAlternate ?? '';
  if (feed.title === '') feed.title = dcTitle ?? atomTitle ?? '';
  if (feed.description === '') feed.description = fallbackDescription ?? '';
  feed.icon = atomIcon || feed.icon || atomLogo;
  return authors;
}

/**
 * The first `<link>`, except that a `<link href>` (an Atom link written without its namespace)
 * wins over text links, as in gofeed.
 */
function channelLink(links: XmlNode[], base: string | undefined): string {
  let text = '';
  for (const link of links) {
    const href = attribute(link, 'href');
    if (href) return webUrl(href, base);
    if (text === '') text = elementText(link);
  }
  return webUrl(text, base);
}

function alternateHref(links: XmlNode[], base: string | undefined): string | undefined {
  for (const link of links) {
    const href = attribute(link, 'href');
    if (href && linkRelation(link) === 'alternate') return webUrl(href, base) || undefined;
  }
  return undefined;
}

function imageUrl(image: XmlNode, base: string | undefined): string {
  for (const [name, children] of childGroups(image, primary)) {
    if (name === 'url' && children[0] !== undefined) return webUrl(elementText(children[0]), base);
  }
  return '';
}

export function readRssItem(node: XmlNode, channelBase: string | undefined): ParsedItem {
  const base = xmlBase(node, channelBase);
  const draft = newDraft(base);
  let permalinkGuid: string | undefined;
  // gofeed's order for the description: <description>, then dc:description, then itunes:summary.
  let fallbackSummary: TextValue | undefined;
  let dcTitle: TextValue | undefined;
  let atomTitle: TextValue | undefined;
  // The id when there is no guid: Atom's, then Dublin Core's.
  let atomId: string | undefined;
  let dcIdentifier: string | undefined;
  // gofeed's category order: <category>, itunes:keywords, dc:subject, atom:category; then
  // itunes:category, which Apple defines for the channel only and a few podcasts write on items.
  const keywords: string[] = [];
  const itunesCategories: string[] = [];
  const subjects: string[] = [];
  const atomCategories: string[] = [];
  let itunesSummary: TextValue | undefined;
  let itunesSubtitle: TextValue | undefined;
  const media: MediaText = { categories: [] };
  for (const [name, children] of childGroups(node, primary)) {
    const first = children[0];
    if (first === undefined) continue;
    switch (name) {
      case 'title':
        draft.title = { value: rssText(first), html: true };
        break;
      case 'dc:title':
        dcTitle ??= { value: rssText(first), html: true };
        break;
      case 'atom:title':
        atomTitle ??= atomText(first);
        break;
      case 'atom:id':
        atomId ??= elementText(first);
        break;
      case 'dc:identifier':
        dcIdentifier ??= elementText(first);
        break;
      case 'link':
        draft.url = channelLink(children, base);
        break;
      case 'feedburner:origlink':
        draft.originalUrl = webUrl(elementText(first), base);
        break;
      case 'guid':
        draft.id = elementStringValue(first);
        if (attribute(first, 'isPermaLink')?.toLowerCase() !== 'false') permalinkGuid = draft.id;
        break;
      case 'description':
        draft.summary = deferredRssHtml(first);
        break;
      case 'content:encoded':
        draft.content = { value: rssText(first), html: true };
        break;
      case 'atom:content':
        draft.content ??= atomText(first);
        break;
      // The full text as inline XHTML (UserLand's `xhtml:body`, also written without its namespace), or escaped (`fullitem`).
      case 'xhtml:body':
      case 'body':
        draft.content ??= inlineXhtml(first);
        break;
      case 'fullitem':
        draft.content ??= { value: rssText(first), html: true };
        break;
      case 'dc:description':
        fallbackSummary ??= deferredRssHtml(first);
        break;
      case 'atom:summary':
        fallbackSummary ??= deferredAtomText(first);
        break;
      case 'itunes:summary':
        itunesSummary ??= deferredRssHtml(first);
        break;
      case 'pubdate':
        draft.published = elementText(first);
        break;
      case 'dc:date':
      case 'dcterms:issued':
      case 'dcterms:created':
      case 'dcterms:date':
      case 'atom:published':
      case 'atom:issued':
      case 'atom:created':
        draft.publishedFallback ??= elementText(first);
        break;
      case 'dcterms:modified':
      case 'atom:updated':
      case 'atom:modified':
        draft.modified ??= elementText(first);
        break;
      case 'itunes:subtitle':
        itunesSubtitle ??= deferredRssHtml(first);
        break;
      case 'atom:author':
        for (const author of children) {
          const name = personName(author);
          if (name !== '') draft.authors.push({ name });
        }
        break;
      case 'author':
        addPeople(draft.authors, children);
        break;
      case 'dc:creator':
      case 'dc:author':
      case 'itunes:author':
        if (draft.fallbackAuthors.length === 0) addPeople(draft.fallbackAuthors, children);
        break;
      case 'category':
        addTexts(draft.categories, children);
        break;
      case 'itunes:keywords':
        for (const child of children) keywords.push(...splitKeywords(elementText(child)));
        break;
      case 'dc:subject':
        addTexts(subjects, children);
        break;
      case 'atom:category':
        addAtomCategories(atomCategories, children);
        break;
      case 'enclosure':
        readEnclosures(draft, children, base);
        break;
      case 'itunes:image':
        draft.itunesImage ??= itunesImage(first, base) || undefined;
        break;
      case 'itunes:link':
        draft.itunesImage ??= itunesLinkImage(children, base) || undefined;
        break;
      case 'itunes:category':
        addItunesCategories(itunesCategories, children);
        break;
      case 'atom:link':
        readAtomLink(draft, children, base);
        break;
      default:
        if (name.startsWith('media:')) {
          draft.mediaImage ??= mediaImage(name, children, base);
          collectMediaText(name, children, media);
        }
    }
  }
  // The item's own elements first, then Dublin Core, iTunes, and Media RSS last.
  draft.summary ??= fallbackSummary ?? itunesSummary ?? itunesSubtitle ?? media.description;
  draft.title ??= dcTitle ?? atomTitle ?? media.title;
  draft.categories.push(...keywords, ...subjects, ...atomCategories, ...itunesCategories);
  if (draft.categories.length === 0) draft.categories.push(...media.categories);
  // Without a guid: an atom:id, a dc:identifier, else (RSS 1.0) the item's rdf:about, its URI.
  if (draft.id === undefined) {
    const about = attribute(node, 'about', rdfNamespace);
    draft.id = atomId || dcIdentifier || about || undefined;
  }
  if (draft.url === '' && permalinkGuid !== undefined && /^https?:\/\//i.test(permalinkGuid)) draft.url = webUrl(permalinkGuid, undefined);
  return finishItem(draft);
}

function splitKeywords(text: string): string[] {
  return text
    .split(',')
    .map((keyword) => keyword.trim())
    .filter((keyword) => keyword !== '');
}

/**
 * `<itunes:category text="A"><itunes:category text="B"/></itunes:category>`: each category, then
 * the subcategories inside it, as gofeed lists them (A, B). Apple's directory nests one level.
 */
function addItunesCategories(target: string[], children: XmlNode[]): void {
  for (const child of children) {
    const text = attribute(child, 'text');
    if (text) target.push(text);
    for (const sub of child.children) {
      const subText = readerName(sub, primary) === 'itunes:category' ? attribute(sub, 'text') : undefined;
      if (subText) target.push(subText);
    }
  }
}

function addPeople(target: ItemDraft['authors'], children: XmlNode[]): void {
  for (const child of children) {
    const person = personFromString(elementText(child));
    if (person !== undefined) target.push(person);
  }
}

function readEnclosures(draft: ItemDraft, children: XmlNode[], base: string | undefined): void {
  for (const child of children) {
    const url = webUrl(attribute(child, 'url') ?? '', base);
    if (url === '') continue;
    const type = attribute(child, 'type');
    const length = Number(attribute(child, 'length'));
    draft.enclosures.push({
      url,
      ...(type ? { type } : {}),
      ...(Number.isFinite(length) && length > 0 ? { length } : {}),
    });
  }
}

function readAtomLink(draft: ItemDraft, children: XmlNode[], base: string | undefined): void {
  if (draft.url !== '') return;
  for (const child of children) {
    const rel = linkRelation(child);
    const href = attribute(child, 'href');
    const url = rel === 'alternate' && href ? webUrl(href, base) : '';
    if (url !== '') {
      draft.url = url;
      return;
    }
  }
}

function xmlBase(element: XmlNode, parent: string | undefined): string | undefined {
  const base = attribute(element, 'base', xmlNamespace);
  return base === undefined ? parent : resolveUrl(base, parent);
}
