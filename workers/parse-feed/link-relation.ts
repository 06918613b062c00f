import { attribute } from './xml-text.js';
import type { XmlNode } from './xml-tree.js';

/** The IRI prefix under which IANA registers link relations: `…/relation/alternate` is `alternate`. */
const ianaRelations = 'http://www.iana.org/assignments/relation/';

/**
 * The relation of an Atom link (also written in RSS as `atom:link`, or as `itunes:link`):
 * `alternate` when it names none, and a registered relation written as its IANA IRI is the same
 * relation (RFC 4287 §4.2.7.2). Lower case: relation names compare case-insensitively (RFC 8288 §2.1.1).
 */
export function linkRelation(link: XmlNode): string {
  const rel = (attribute(link, 'rel') ?? 'alternate').toLowerCase();
  return rel.startsWith(ianaRelations) ? rel.slice(ianaRelations.length) : rel;
}
