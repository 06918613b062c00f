import { isChrome, isPageHeader, opensContentScope } from './chrome.js';
import type { PageElement } from './dom.js';
import { absoluteUrl } from './urls.js';

/** A link that could be an article's: outside page chrome, pointing at a web page. */
export interface PageLink {
  element: PageElement;
  url: string;
  /** Interned tag path from the root (`html/body/div/ul/li/a`): links in one list share it. */
  path: number;
  /** Inside the page's `<header>`: more likely the masthead's navigation than content. */
  inPageHeader: boolean;
}

interface Frame {
  element: PageElement;
  path: number;
  insideContent: boolean;
  inPageHeader: boolean;
}

/**
 * One top-down walk that carries, per element, its interned tag path and whether it sits inside
 * content: nothing climbs the tree afterwards, so the cost stays linear at any depth.
 */
export function collectLinks(root: PageElement, base: string, pageUrl: string): PageLink[] {
  const paths = new Map<string, number>();
  const links: PageLink[] = [];
  const stack: Frame[] = [{ element: root, path: 0, insideContent: false, inPageHeader: false }];
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    const { element } = frame;
    const children = element.children;
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i];
      if (child === undefined || child.kind !== 'element') continue;
      if (isChrome(child, frame.insideContent)) continue;
      const key = `${frame.path}/${child.name}`;
      let path = paths.get(key);
      if (path === undefined) {
        path = paths.size + 1;
        paths.set(key, path);
      }
      const insideContent = frame.insideContent || opensContentScope(child);
      const inPageHeader = frame.inPageHeader || isPageHeader(child, frame.insideContent);
      if (child.name === 'a') {
        const url = linkTarget(child, base, pageUrl);
        if (url !== null) links.push({ element: child, url, path, inPageHeader });
      }
      stack.push({ element: child, path, insideContent, inPageHeader });
    }
  }
  // The stack visits children last-first; items must come out in page order.
  links.sort((a, b) => a.element.order - b.element.order);
  return links;
}

function linkTarget(anchor: PageElement, base: string, pageUrl: string): string | null {
  const href = anchor.attribs['href'];
  if (href === undefined) return null;
  const url = absoluteUrl(href, base);
  // A link back to this very page (or its top) is navigation, whatever it looks like.
  if (url === null || url === pageUrl || url === base) return null;
  return url;
}
