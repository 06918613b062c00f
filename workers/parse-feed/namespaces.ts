import type { XmlElement } from './xml-tree.js';

/** Namespace URIs we read, by the prefix we use for them whatever prefix the document chose. */
const knownNamespaces: Record<string, string> = {
  'http://www.w3.org/2005/atom': 'atom',
  'http://purl.org/atom/ns#': 'atom',
  'http://purl.org/rss/1.0/': 'rss',
  'http://purl.org/rss/1.0/modules/content/': 'content',
  'http://purl.org/dc/elements/1.1/': 'dc',
  'http://purl.org/dc/terms/': 'dcterms',
  'http://search.yahoo.com/mrss/': 'media',
  'http://search.yahoo.com/mrss': 'media',
  'http://www.itunes.com/dtds/podcast-1.0.dtd': 'itunes',
  'http://www.w3.org/1999/02/22-rdf-syntax-ns#': 'rdf',
  'http://www.w3.org/1999/xhtml': 'xhtml',
};

/**
 * Maps the element names of one document to canonical ones: `dc:creator` stays `dc:creator` even
 * when the document bound Dublin Core to `dublin:`, and elements in the document's own format
 * namespace (`primary`, e.g. `atom` in an Atom feed) lose their prefix.
 */
export class NameMap {
  private readonly prefixes = new Map<string, string>();

  constructor(
    root: XmlElement,
    private readonly primary: string,
  ) {
    for (const key in root) {
      if (!key.startsWith('@xmlns:')) continue;
      const uri = root[key];
      if (typeof uri !== 'string') continue;
      const known = knownNamespaces[uri.trim().toLowerCase()];
      if (known !== undefined) this.prefixes.set(key.slice(7), known === primary ? '' : known);
    }
  }

  canonical(name: string): string {
    const colon = name.indexOf(':');
    if (colon === -1) return name;
    const prefix = name.slice(0, colon);
    const mapped = this.prefixes.get(prefix) ?? (prefix === this.primary ? '' : prefix);
    return mapped === '' ? name.slice(colon + 1) : `${mapped}:${name.slice(colon + 1)}`;
  }
}
