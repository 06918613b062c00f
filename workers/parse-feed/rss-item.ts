import type { ParsedItem } from '../../src/domain/item.js';
import { addPersonElements, addCreators } from './authors.js';
import { collectRssCategories, newRssCategories } from './categories.js';
import { finishItem, newDraft, type ItemDraft } from './item-draft.js';
import { itunesImage, itunesLinkImage } from './itunes.js';
import { linkRelation } from './link-relation.js';
import { collectMediaText, mediaImage, type MediaText } from './media.js';
import { rdfNamespace } from './namespaces.js';
import { childGroups } from './reader-names.js';
import { webUrl } from '../shared/urls.js';
import { xmlBase } from './xml-base.js';
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
import { innerSource, type XmlNode } from './xml-tree.js';

/** RSS's own elements: in no namespace (0.9x, 2.0) or in RSS 1.0's (see namespaces.ts). */
export const rssPrimary = 'rss';

/** One `<item>` of any RSS version; `channelBase` is the base its channel resolves against. */
export function readRssItem(node: XmlNode, channelBase: string | undefined): ParsedItem {
  const base = xmlBase(node, channelBase);
  const draft = newDraft(base);
  // gofeed's order for the description: <description>, then dc:description, then itunes:summary.
  let fallbackSummary: TextValue | undefined;
  let dcTitle: TextValue | undefined;
  let atomTitle: TextValue | undefined;
  // The id when there is no guid: Atom's, then Dublin Core's.
  let atomId: string | undefined;
  let dcIdentifier: string | undefined;
  const categories = newRssCategories();
  let itunesSummary: TextValue | undefined;
  let itunesSubtitle: TextValue | undefined;
  const media: MediaText = { categories: [] };
  for (const [name, children] of childGroups(node, rssPrimary)) {
    const first = children[0];
    if (first === undefined || collectRssCategories(categories, name, children)) continue;
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
        draft.url = rssLink(children, base);
        break;
      case 'feedburner:origlink':
        draft.originalUrl = webUrl(elementText(first), base);
        break;
      case 'guid':
        draft.id = elementStringValue(first);
        if (attribute(first, 'isPermaLink')?.toLowerCase() !== 'false') draft.permalink = draft.id;
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
        addPersonElements(draft.authors, children);
        break;
      case 'author':
        addCreators(draft.authors, children);
        break;
      case 'dc:creator':
      case 'dc:author':
      case 'itunes:author':
        if (draft.fallbackAuthors.length === 0) addCreators(draft.fallbackAuthors, children);
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
  // gofeed's category order: <category>, itunes:keywords, dc:subject, atom:category; then
  // itunes:category, which Apple defines for the channel only and a few podcasts write on items.
  const { own, keywords, subjects, atom, itunes } = categories;
  draft.categories.push(...own, ...keywords, ...subjects, ...atom, ...itunes);
  if (draft.categories.length === 0) draft.categories.push(...media.categories);
  // Without a guid: an atom:id, a dc:identifier, else (RSS 1.0) the item's rdf:about, its URI.
  if (draft.id === undefined) {
    const about = attribute(node, 'about', rdfNamespace);
    draft.id = atomId || dcIdentifier || about || undefined;
  }
  draft.sourceText = innerSource(node);
  return finishItem(draft);
}

/**
 * The first `<link>`, except that a `<link href>` (an Atom link written without its namespace)
 * wins over text links, as in gofeed.
 */
export function rssLink(links: XmlNode[], base: string | undefined): string {
  let text = '';
  for (const link of links) {
    const href = attribute(link, 'href');
    if (href) return webUrl(href, base);
    if (text === '') text = elementText(link);
  }
  return webUrl(text, base);
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
