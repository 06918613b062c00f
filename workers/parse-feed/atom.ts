import type { Author, ParsedFeed, ParsedItem } from '../../src/domain/item.js';
import { finishItem, inheritAuthors, newDraft, titleText, type ItemDraft } from './item-draft.js';
import { addPersonElements, addCreators } from './authors.js';
import { addAtomCategories, addTexts } from './categories.js';
import { itunesImage } from './itunes.js';
import { linkRelation } from './link-relation.js';
import { collectMediaText, mediaImage, type MediaText } from './media.js';
import { childGroups } from './reader-names.js';
import { resolveUrl, webUrl } from '../shared/urls.js';
import { xmlBase } from './xml-base.js';
import { atomText, attribute, deferredAtomText, elementText, type TextValue } from './xml-text.js';
import { innerSource, moveInto, readEach, releaseChildren, type XmlNode } from './xml-tree.js';

/** Atom's own elements: in Atom 1.0's or 0.3's namespace, or in none (see namespaces.ts). */
const primary = 'atom';

/** Atom 1.0 (RFC 4287) and Atom 0.3. `preRead`: the entries read while parsing (see item-stream.ts). */
export function readAtom(root: XmlNode, documentUrl: string | undefined, preRead?: ReadonlyMap<XmlNode, ParsedItem>): ParsedFeed {
  const base = xmlBase(root, documentUrl);
  const feed: ParsedFeed = { title: '', description: '', link: '', icon: '', items: [] };
  let logo = '';
  let dcTitle = '';
  let dcDescription = '';
  const categories: string[] = [];
  const subjects: string[] = [];
  const authors: Author[] = [];
  const entries: XmlNode[] = [];
  const groups = childGroups(root, primary);
  releaseChildren(root);
  for (const [name, children] of groups) {
    const first = children[0];
    if (first === undefined) continue;
    switch (name) {
      case 'title':
        feed.title = titleText(atomText(first));
        break;
      case 'subtitle':
      case 'tagline':
        feed.description = titleText(atomText(first));
        break;
      case 'dc:title':
        dcTitle ||= titleText({ value: elementText(first), html: false });
        break;
      case 'dc:description':
        dcDescription ||= titleText({ value: elementText(first), html: false });
        break;
      case 'link':
        if (feed.link === '') feed.link = alternateLink(children, base) ?? '';
        break;
      case 'icon':
        feed.icon = webUrl(elementText(first), xmlBase(first, base));
        break;
      case 'logo':
        logo = webUrl(elementText(first), xmlBase(first, base));
        break;
      case 'entry':
        moveInto(entries, children);
        break;
      case 'author':
        addPersonElements(authors, children);
        break;
      case 'category':
        addAtomCategories(categories, children);
        break;
      case 'dc:subject':
        addTexts(subjects, children);
        break;
    }
  }
  categories.push(...subjects);
  if (categories.length > 0) feed.categories = categories;
  feed.title ||= dcTitle;
  feed.description ||= dcDescription;
  if (feed.icon === '') feed.icon = logo;
  feed.items = readEach(entries, (entry) => preRead?.get(entry) ?? readEntry(entry, base));
  inheritAuthors(feed.items, authors);
  return feed;
}

/**
 * An Atom Entry Document (RFC 4287 §4.1.2): one `<entry>` as the root, as an AtomPub server
 * serves a single post. It is a feed of that one entry, with no feed fields of its own.
 */
export function readAtomEntryDocument(root: XmlNode, documentUrl: string | undefined): ParsedFeed {
  return { title: '', description: '', link: '', icon: '', items: [readEntry(root, documentUrl)] };
}

export function readEntry(entry: XmlNode, feedBase: string | undefined): ParsedItem {
  const base = xmlBase(entry, feedBase);
  const draft = newDraft(base);
  let summaryBase = base;
  let contentBase = base;
  const media: MediaText = { categories: [] };
  const sourceAuthors: Author[] = [];
  let published: string | undefined;
  let issued: string | undefined;
  let created: string | undefined;
  // Dublin Core, where Atom's own elements are missing.
  let dcIdentifier: string | undefined;
  let dcTitle: TextValue | undefined;
  let dcDescription: TextValue | undefined;
  const subjects: string[] = [];
  for (const [name, children] of childGroups(entry, primary)) {
    const first = children[0];
    if (first === undefined) continue;
    switch (name) {
      case 'id':
        // gofeed resolves a relative atom:id against xml:base like any IRI; absolute ids are untouched.
        draft.id = resolveUrl(elementText(first), xmlBase(first, base));
        draft.permalink = draft.id;
        break;
      case 'dc:identifier':
        dcIdentifier ??= elementText(first);
        break;
      case 'dc:title':
        dcTitle ??= { value: elementText(first), html: false };
        break;
      case 'dc:description':
        dcDescription ??= { value: elementText(first), html: false };
        break;
      case 'dc:subject':
        addTexts(subjects, children);
        break;
      case 'title':
        draft.title = atomText(first);
        break;
      case 'link':
        readLinks(draft, children, base);
        break;
      case 'feedburner:origlink':
        draft.originalUrl = webUrl(elementText(first), base);
        break;
      case 'summary':
        draft.summary = deferredAtomText(first);
        summaryBase = xmlBase(first, base);
        break;
      case 'content':
        draft.content = atomText(first);
        contentBase = xmlBase(first, base);
        break;
      // Atom 1.0's `published`, then Atom 0.3's `issued` and `created`, whichever order the document wrote them in.
      case 'published':
        published = elementText(first);
        break;
      case 'issued':
        issued ??= elementText(first);
        break;
      case 'created':
        created ??= elementText(first);
        break;
      case 'updated':
      case 'modified':
        draft.publishedFallback ??= elementText(first);
        break;
      case 'dc:date':
      case 'dcterms:issued':
      case 'dcterms:created':
      case 'dcterms:date':
      case 'dcterms:modified':
        draft.modified ??= elementText(first);
        break;
      case 'author':
        addPersonElements(draft.authors, children);
        break;
      case 'source':
        // The feed an entry was copied from: its authors are the entry's when the entry names none (RFC 4287 §4.2.1).
        for (const [sourceName, sourceChildren] of childGroups(first, primary))
          if (sourceName === 'author') addPersonElements(sourceAuthors, sourceChildren);
        break;
      case 'dc:creator':
        addCreators(draft.fallbackAuthors, children);
        break;
      case 'category':
        addAtomCategories(draft.categories, children);
        break;
      case 'itunes:image':
        draft.itunesImage ??= itunesImage(first, base) || undefined;
        break;
      default:
        if (name.startsWith('media:')) {
          draft.mediaImage ??= mediaImage(name, children, base);
          collectMediaText(name, children, media);
        }
    }
  }
  const publishedAt = published ?? issued ?? created;
  if (publishedAt !== undefined) draft.published = publishedAt;
  if (draft.id === undefined && dcIdentifier) draft.id = dcIdentifier;
  draft.title ??= dcTitle ?? media.title;
  draft.summary ??= dcDescription ?? media.description;
  draft.categories.push(...subjects);
  if (draft.categories.length === 0) draft.categories.push(...media.categories);
  if (draft.authors.length === 0) draft.authors.push(...sourceAuthors);
  // Relative URLs in the HTML resolve against the xml:base in scope on the element they came from.
  draft.base = draft.content !== undefined && draft.content.value !== '' ? contentBase : summaryBase;
  draft.sourceText = innerSource(entry);
  return finishItem(draft);
}

function readLinks(draft: ItemDraft, links: XmlNode[], base: string | undefined): void {
  let urlIsPage = false;
  for (const link of links) {
    const href = attribute(link, 'href');
    if (href === undefined) continue;
    const rel = linkRelation(link);
    const url = webUrl(href, xmlBase(link, base));
    if (url === '') continue;
    if (rel === 'alternate') {
      // The first alternate, unless a later one is a web page and it is not (RFC 4287 §4.2.7.2).
      const isPage = isWebPageType(attribute(link, 'type'));
      if (draft.url === '' || (isPage && !urlIsPage)) {
        draft.url = url;
        urlIsPage = isPage;
      }
    } else if (rel === 'enclosure') {
      const type = attribute(link, 'type');
      const length = Number(attribute(link, 'length'));
      draft.enclosures.push({ url, ...(type ? { type } : {}), ...(Number.isFinite(length) && length > 0 ? { length } : {}) });
    }
  }
}

function alternateLink(links: XmlNode[], base: string | undefined): string | undefined {
  for (const link of links) {
    const href = attribute(link, 'href');
    const url = href !== undefined && linkRelation(link) === 'alternate' ? webUrl(href, xmlBase(link, base)) : '';
    if (url !== '') return url;
  }
  return undefined;
}

/** The base a feed's entries resolve against: the document's, then the feed element's xml:base. */
export function atomFeedBase(root: XmlNode, documentUrl: string | undefined): string | undefined {
  return xmlBase(root, documentUrl);
}

/** A link with no type, or an HTML one, leads to a page; an alternate in another type (audio, a PDF) does not. */
function isWebPageType(type: string | undefined): boolean {
  if (type === undefined || type === '') return true;
  const lower = type.toLowerCase();
  return lower.startsWith('text/html') || lower.startsWith('application/xhtml+xml');
}
