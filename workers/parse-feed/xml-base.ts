import { nestedBase } from '../shared/urls.js';
import { xmlNamespace } from './namespaces.js';
import { attribute } from './xml-text.js';
import type { XmlNode } from './xml-tree.js';

/** The base URL inside `element`: its xml:base resolved against its parent's base, else the parent's. */
export function xmlBase(element: XmlNode, parent: string | undefined): string | undefined {
  const base = attribute(element, 'base', xmlNamespace);
  return base === undefined ? parent : nestedBase(base, parent);
}
