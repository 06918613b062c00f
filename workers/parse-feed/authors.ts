import type { Author } from '../../src/domain/item.js';
import { htmlToText } from '../shared/html.js';
import { readerName } from './reader-names.js';
import { elementText } from './xml-text.js';
import type { XmlNode } from './xml-tree.js';

const looksLikeEmail = (value: string): boolean => /^[^\s@()<>]+@[^\s@()<>]+$/.test(value);

/**
 * A person from an RSS `<author>` / `dc:creator` string, as gofeed's ParseNameAddress reads it:
 * "jo@example.com (Jo Bloggs)", "Jo Bloggs (jo@example.com)" and "Jo Bloggs <jo@example.com>"
 * give the name; a bare name is the name; a bare address is kept as the name, since it is all
 * we know of the author.
 */
export function personFromString(value: string): Author | undefined {
  const text = value.replace(/\s+/g, ' ').trim();
  if (text === '') return undefined;
  const parenthesised = /^(.+?)\s*\((.+)\)$/.exec(text);
  if (parenthesised?.[1] !== undefined && parenthesised[2] !== undefined) {
    const [, outside, inside] = parenthesised;
    if (looksLikeEmail(outside)) return { name: inside.trim() };
    if (looksLikeEmail(inside.trim())) return { name: outside };
  }
  const angled = /^(.*?)\s*<([^<>\s]+@[^<>\s]+)>$/.exec(text);
  if (angled?.[1]) return { name: angled[1].replace(/^"(.*)"$/, '$1').trim() };
  return { name: text };
}

/** An Atom person construct's name; its email when it has no name (all we know of the author). */
export function personName(author: XmlNode): string {
  // A bare `<author>Jo</author>`: its text may hold escaped markup, as titles do.
  if (author.children.length === 0) return htmlToText(author.text) || elementText(author);
  let email = '';
  for (const child of author.children) {
    // Atom's person elements, in Atom's namespace or in none.
    const name = readerName(child, 'atom');
    if (name === 'name') {
      const value = elementText(child);
      if (value !== '') return value;
    } else if (name === 'email' && email === '') email = elementText(child);
  }
  return email;
}

/** Each Atom person construct's name (see personName), nameless ones left out. */
export function addPersonElements(target: Author[], people: XmlNode[]): void {
  for (const person of people) {
    const name = personName(person);
    if (name !== '') target.push({ name });
  }
}

/**
 * Each person a creator element (RSS's `<author>`, `dc:creator`) names, nameless ones left out: in its text
 * (see personFromString), or, when it holds elements and no text, in a person construct as Atom
 * writes one (`<author><name>Jo</name><title>Editor</title></author>`, a CMS's own schema):
 * its name, else its email (see personName).
 */
export function addCreators(target: Author[], elements: XmlNode[]): void {
  for (const element of elements) {
    const text = elementText(element);
    if (text === '' && element.children.length > 0) addPersonElements(target, [element]);
    else {
      const person = personFromString(text);
      if (person !== undefined) target.push(person);
    }
  }
}
