import { detached } from '../shared/detach.js';
import { vocabulary } from './namespaces.js';
import type { XmlNode } from './xml-tree.js';

/**
 * The name a format reader matches an element by: its local name when it is in no namespace or
 * in the format's own (`primary`, e.g. `atom` in an Atom feed), `label:local` in a known
 * vocabulary, and a name no reader matches otherwise. Local names are matched whatever their
 * case, as gofeed and feedparser match them: feeds write `<pubdate>`, `<Item>` and
 * `itunes:Summary`, and a reader that missed them would drop the item or its date. So every name
 * a reader gives is in lower case (`pubdate`, `feedburner:origlink`).
 */
export function readerName(node: XmlNode, primary: string): string {
  // Most names are written in lower case already, and `toLowerCase` then gives back the same string.
  if (node.uri === '') return node.local.toLowerCase();
  const label = vocabulary(node.uri);
  if (label === primary) return node.local.toLowerCase();
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
    name = `${label}:${local.toLowerCase()}`;
    // Copies: as cache entries, views into the document would keep it alive (see namespaces.ts).
    if (byLocal.size < maxNamesPerLabel) byLocal.set(detached(local), detached(name));
  }
  return name;
}

const qualifiedNames = new Map<string, Map<string, string>>();
const maxNamesPerLabel = 500;

/**
 * An element's children grouped by `readerName`, in the order each name first appears: the
 * readers take the first of a kind where a format allows one, and every one where it allows many.
 * An item has a dozen names or so: they are found by a scan of the groups so far, and a Map (with
 * its table, and the entry pairs spreading it allocates) is built only for an element with more
 * names than `scannedNames`, so a channel of 100k distinct names stays linear.
 */
export function childGroups(node: XmlNode, primary: string): [string, XmlNode[]][] {
  const groups: [string, XmlNode[]][] = [];
  let byName: Map<string, XmlNode[]> | undefined;
  for (const child of node.children) {
    const name = readerName(child, primary);
    const group = byName === undefined ? scan(groups, name) : byName.get(name);
    if (group !== undefined) {
      group.push(child);
      continue;
    }
    const created: [string, XmlNode[]] = [name, [child]];
    groups.push(created);
    if (byName !== undefined) byName.set(name, created[1]);
    else if (groups.length > scannedNames) byName = new Map(groups);
  }
  return groups;
}

const scannedNames = 32;

function scan(groups: [string, XmlNode[]][], name: string): XmlNode[] | undefined {
  for (let i = 0; i < groups.length; i++) {
    const group = groups[i] as [string, XmlNode[]];
    if (group[0] === name) return group[1];
  }
  return undefined;
}
