import type { PageElement } from './dom.js';
import { absoluteUrl } from './urls.js';
import { blockElementBudget, walkElements } from './walk.js';

/** Lazy-loading libraries keep the real address in one of these while `src` holds a placeholder. */
const lazySrc = ['data-src', 'data-lazy-src', 'data-original', 'data-lazy', 'data-url', 'data-hi-res-src'];
const lazySrcset = ['data-srcset', 'data-lazy-srcset'];

/** The item's picture: the first real image in the block, its largest srcset candidate preferred. */
export function findThumbnail(root: PageElement, base: string): string | null {
  let found: string | null = null;
  if (root.name === 'img') return imageUrl(root, base);
  walkElements(
    root,
    (element) => {
      if (found !== null) return false;
      if (element.name === 'img' || (element.name === 'source' && element.parent?.name === 'picture')) {
        found = imageUrl(element, base);
      }
      return undefined;
    },
    blockElementBudget,
  );
  return found;
}

function imageUrl(element: PageElement, base: string): string | null {
  const attribs = element.attribs;
  if (isDecoration(element)) return null;
  for (const name of lazySrcset) {
    const best = largestCandidate(attribs[name]);
    if (best !== null) return absoluteUrl(best, base);
  }
  for (const name of lazySrc) {
    const value = attribs[name];
    if (value !== undefined && value.trim() !== '' && !isPlaceholder(value)) return absoluteUrl(value, base);
  }
  const best = largestCandidate(attribs['srcset']);
  if (best !== null) return absoluteUrl(best, base);
  const src = attribs['src'];
  if (src !== undefined && !isPlaceholder(src)) return absoluteUrl(src, base);
  return null;
}

/** Spacer GIFs and inline SVG placeholders stand where a lazy image will load. */
function isPlaceholder(src: string): boolean {
  const value = src.trim();
  return value === '' || /^data:/i.test(value) || /(?:^|\/)(?:blank|spacer|pixel|transparent)\.(?:gif|png)$/i.test(value);
}

/** Icons and tracking pixels: declared at most 32px, or hidden from assistive tech as decoration. */
function isDecoration(element: PageElement): boolean {
  const width = Number(element.attribs['width']);
  const height = Number(element.attribs['height']);
  if ((width > 0 && width <= 32) || (height > 0 && height <= 32)) return true;
  return element.attribs['role'] === 'presentation';
}

/**
 * The candidate with the largest width (`800w`) or density (`2x`) in a srcset (HTML §4.8.4.3).
 * Candidates are split on commas followed by whitespace, since URLs may themselves hold commas.
 */
export function largestCandidate(srcset: string | undefined): string | null {
  if (srcset === undefined || srcset.trim() === '') return null;
  let best: { url: string; size: number } | null = null;
  for (const part of srcset.split(/,\s+/)) {
    const [url, descriptor = '1x'] = part.trim().split(/\s+/);
    if (url === undefined || url === '' || isPlaceholder(url)) continue;
    const size = Number.parseFloat(descriptor) * (descriptor.endsWith('x') ? 1000 : 1);
    const measure = Number.isFinite(size) ? size : 0;
    if (best === null || measure > best.size) best = { url: url.replace(/,$/, ''), size: measure };
  }
  return best?.url ?? null;
}
