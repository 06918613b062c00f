import { selectAll, type DomDocument, type DomElement } from './dom.js';

/**
 * Boilerplate removed before the article is looked for: page chrome by its element or ARIA role,
 * and blocks whose class or id names what they are (share bars, related links, cookie banners,
 * comments, newsletters, captions' credits…). Readability drops much of this itself, but it scores
 * candidates, and a well-linked "related" box or a site header next to a short article still ends
 * up inside the container it picks. A block holding a large share of the page's paragraph text is
 * never removed, whatever its name: some sites wrap the whole article in `class="share-wrapper"`.
 */
const chrome =
  'nav, aside, footer, form, button, dialog, [hidden], [aria-hidden="true"], ' +
  '[role="navigation"], [role="complementary"], [role="contentinfo"], [role="banner"], [role="dialog"], [role="alert"]';

const boilerplateName =
  /(?:^|[-_\s])(?:share|sharing|social|related|recommend(?:ed|ations)?|newsletter|signup|subscribe|subscription|cookies?|consent|gdpr|comments?|promo|breadcrumbs?|byline|author-info|tags|taglist|outbrain|taboola|more-stories|read-more|most-read|popular|trending|advert(?:isement)?|ads?|sponsored|paywall|toolbar|masthead|site-header|nav(?:bar|igation)?|menu|footer|sidebar|credit|timestamp|dateline)(?:$|[-_\s])/i;

/** A block whose text is more than this share of all paragraph text is content, whatever it is called. */
const maxShareOfText = 0.4;

/** @returns how many elements it removed. */
export function pruneBoilerplate(document: DomDocument): number {
  const body = document.body;
  if (body === null) return 0;
  let removed = 0;
  const remove = (element: DomElement): void => {
    element.remove();
    removed++;
  };
  const paragraphText = selectAll(body, 'p').reduce((sum, p) => sum + (p.textContent?.length ?? 0), 0);
  const removable = (element: DomElement): boolean => {
    if (element.closest('article, main, [itemprop="articleBody"]') === element) return false;
    const own = selectAll(element, 'p').reduce((sum, p) => sum + (p.textContent?.length ?? 0), 0);
    return own <= paragraphText * maxShareOfText;
  };
  for (const element of selectAll(body, chrome)) if (removable(element)) remove(element);
  for (const element of selectAll(body, 'header')) {
    // A header inside the article holds its title and byline, which are metadata here; a lede
    // paragraph in it is kept with it.
    if (!selectAll(element, 'p').some((p) => (p.textContent?.length ?? 0) > 150)) remove(element);
  }
  for (const element of selectAll(body, '[class], [id]')) {
    const name = `${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''}`;
    if (boilerplateName.test(name) && removable(element)) remove(element);
  }
  return removed;
}
