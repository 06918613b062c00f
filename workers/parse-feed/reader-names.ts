import { vocabulary } from './namespaces.js';
import type { XmlNode } from './xml-tree.js';

/**
 * The name a format reader matches an element by: its local name when it is in no namespace or
 * in the format's own (`primary`, e.g. `atom` in an Atom feed), `label:local` in a known
 * vocabulary, and a name no reader matches otherwise.
 */
export function readerName(node: XmlNode, primary: string): string {
  if (node.uri === '') return node.local;
  const label = vocabulary(node.uri);
  if (label === primary) return node.local;
  if (label === undefined) return `{${node.uri}}${node.local}`;
  return labelled(label, node.local);
}

/**
 * `label:local`, made once per name and kept: the readers ask for the name of every element, and
 * a fresh string each time was garbage and a fresh hash for the Map of childGroups. Bounded, since
 * documents choose their local names.
 */
function labelled(label: string, local: string): string {
  let byLocal = qualifiedNames.get(label);
  if (byLocal === undefined) qualifiedNames.set(label, (byLocal = new Map<string, string>()));
  let name = byLocal.get(local);
  if (name === undefined) {
    // iTunes' element names are matched whatever their case: podcasts write itunes:Summary too.
    name = label === 'itunes' ? `itunes:${local.toLowerCase()}` : `${label}:${local}`;
    if (byLocal.size < maxNamesPerLabel) byLocal.set(local, name);
  }
  return name;
}

const qualifiedNames = new Map<string, Map<string, string>>();
const maxNamesPerLabel = 500;

/**
 * An element's children grouped by `readerName`, in the order each name first appears: the
 * readers take the first of a kind where a format allows one, and every one where it allows many.
 */
export function childGroups(node: XmlNode, primary: string): [string, XmlNode[]][] {
  const groups = new Map<string, XmlNode[]>();
  for (const child of node.children) {
    const name = readerName(child, primary);
    const group = groups.get(name);
    if (group === undefined) groups.set(name, [child]);
    else group.push(child);
  }
  return [...groups];
}
