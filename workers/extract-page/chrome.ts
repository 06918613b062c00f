import type { PageElement } from './dom.js';
import { classTokens } from './walk.js';

/** Elements that are page furniture by their very name. */
// Not <form>: some pages (search results, listings with filters) wrap their whole content in one.
const chromeTags = new Set(['nav', 'aside', 'footer', 'select', 'button', 'menu', 'dialog', 'noscript', 'template']);

const chromeRoles = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search', 'menu', 'menubar', 'dialog', 'toolbar']);

/**
 * Words in class names and ids that mark furniture: navigation, sharing, tag clouds, pagination,
 * related-content rails. Matched against whole words of the name (split on `-` and `_`), so
 * `post-tags` matches and `stages` does not.
 */
const chromeWords = new Set([
  'nav',
  'navbar',
  'navigation',
  'menu',
  'breadcrumb',
  'breadcrumbs',
  'pagination',
  'pager',
  'paging',
  'sidebar',
  'footer',
  'related',
  'share',
  'sharing',
  'social',
  'tags',
  'tagcloud',
  'taglist',
  'comments',
  'cookie',
  'cookies',
  'consent',
  'banner',
  'advert',
  'advertisement',
  'ads',
  'sponsored',
  'promo',
  'skip',
  'toc',
  'masthead',
  'topbar',
  'login',
  'signup',
  'newsletter',
  'subscribe',
  'popular',
  'trending',
]);

const classExempt = new Set(['a', 'html', 'body', 'main', 'article']);
const layoutModifier = /^(?:with|has|no|without|show|hide|is|enable|disable|layout)[-_]/;

/** Containers whose `<header>`/`<footer>` belong to one piece of content rather than to the page. */
const contentScopes = new Set(['article', 'main', 'li', 'section', 'td']);

/**
 * Whether the element is navigation, header, footer, sidebar or other chrome whose links are never
 * articles. `insideContent` says an ancestor is an article, list item or similar: there a
 * `<header>` is that item's header, which holds its title.
 */
export function isChrome(element: PageElement, insideContent: boolean): boolean {
  const name = element.name;
  if (chromeTags.has(name)) return name !== 'footer' || !insideContent;
  // A link's own class describes the link ("related" story), and the page's semantic content
  // containers are content whatever their classes say ("sidebar-left" on <body> is a layout).
  if (classExempt.has(name)) return false;
  const role = element.attribs['role'];
  if (role !== undefined && chromeRoles.has(role.trim().toLowerCase())) return true;
  if (element.attribs['aria-hidden'] === 'true') return true;
  for (const token of classTokens(element)) if (hasChromeWord(token)) return true;
  const id = element.attribs['id'];
  return id !== undefined && hasChromeWord(id.toLowerCase());
}

function hasChromeWord(name: string): boolean {
  if (chromeWords.has(name)) return true;
  if (name.indexOf('-') === -1 && name.indexOf('_') === -1) return false;
  // Layout modifiers name what is beside the element, not what it is: "with-sidebar", "has-nav".
  if (layoutModifier.test(name)) return false;
  for (const word of name.split(/[-_]+/)) if (chromeWords.has(word)) return true;
  return false;
}

/**
 * A page-level `<header>`: usually the masthead, whose links are navigation, but some pages put
 * their whole content in one. So its links are kept and only count less (see best-list.ts).
 */
export function isPageHeader(element: PageElement, insideContent: boolean): boolean {
  return element.name === 'header' && !insideContent;
}

export function opensContentScope(element: PageElement): boolean {
  return contentScopes.has(element.name);
}
