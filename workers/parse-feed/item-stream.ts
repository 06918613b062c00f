import type { ParsedItem } from '../../src/domain/item.js';
import { atomFeedBase, readEntry } from './atom.js';
import { readerName } from './reader-names.js';
import { rssChannelBase } from './rss.js';
import { readRssItem } from './rss-item.js';
import { release, type CloseHook, type XmlNode } from './xml-tree.js';

/**
 * Reads each RSS item and Atom entry the moment its element closes (a CloseHook), then releases
 * the element, so the tree never holds every item at once. Only the items the format readers
 * would read anyway are taken, with the same base they would give them: an RSS item in the
 * root's first channel or beside it in the root (RDF), an Atom entry in the root. An RDF item
 * that comes before the channel (whose xml:base it needs) is left in the tree; so is any element
 * this stream does not know, and the readers read those at the end as before. The readers take
 * the streamed results by element (`read`), in document order.
 */
export class ItemStream {
  /** The items read so far, by the element they were read from. */
  readonly read = new Map<XmlNode, ParsedItem>();
  private format: 'rss' | 'atom' | 'other' | undefined;
  private channel: XmlNode | undefined;
  /** Root children already looked at for the first channel (RDF items are root children too). */
  private scanned = 0;
  private base: string | undefined;
  private baseKnown = false;

  readonly onClose: CloseHook = (node, parent, root) => {
    // Told of every element of the document: most are not items, and their length says so at once.
    const length = node.local.length;
    if (length !== 4 && length !== 5) return;
    this.format ??= formatOf(root);
    if (this.format === 'rss') this.rssClosed(node, parent, root);
    else if (this.format === 'atom' && parent === root && readerName(node, 'atom') === 'entry')
      this.take(node, readEntry(node, this.atomBase(root)));
  };

  constructor(private readonly documentUrl: string | undefined) {}

  private rssClosed(node: XmlNode, parent: XmlNode, root: XmlNode): void {
    if (readerName(node, 'rss') !== 'item') return;
    const channel = this.firstChannel(root);
    // Items in the first channel, or in the root once that channel is known; others wait for the readers.
    if (channel === undefined || (parent !== channel && parent !== root)) return;
    if (!this.baseKnown) {
      this.base = rssChannelBase(root, channel, this.documentUrl);
      this.baseKnown = true;
    }
    this.take(node, readRssItem(node, this.base));
  }

  private firstChannel(root: XmlNode): XmlNode | undefined {
    const children = root.children;
    for (; this.channel === undefined && this.scanned < children.length; this.scanned++) {
      const child = children[this.scanned] as XmlNode;
      if (readerName(child, 'rss') === 'channel') this.channel = child;
    }
    return this.channel;
  }

  private atomBase(root: XmlNode): string | undefined {
    if (!this.baseKnown) {
      this.base = atomFeedBase(root, this.documentUrl);
      this.baseKnown = true;
    }
    return this.base;
  }

  /** Lets go of every element, once the readers have taken the items: see parseFeed. */
  release(): void {
    this.read.clear();
    this.channel = undefined;
  }

  private take(node: XmlNode, item: ParsedItem): void {
    this.read.set(node, item);
    release(node);
  }
}

/** The reader parseFeed picks for a document element (see its switch). */
function formatOf(root: XmlNode): 'rss' | 'atom' | 'other' {
  const local = root.local.toLowerCase();
  if (local === 'rss' || local === 'rdf') return 'rss';
  return local === 'feed' ? 'atom' : 'other';
}
