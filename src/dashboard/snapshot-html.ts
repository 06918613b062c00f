import sanitizeHtml from 'sanitize-html';
import { decodePage } from '../../workers/extract-page/decode.js';

/**
 * The policy the picker's snapshot route sends (docs/selectors.md, "Pick items on the page"):
 * the browser treats the page as a sandbox (no script, form, popup or navigation of the top page),
 * loads nothing remote (styles only inline, images only `data:`), and only our own pages may frame it.
 */
export const snapshotPolicy =
  "sandbox allow-same-origin; default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'";

/** Elements dropped with everything inside them: code, what loads or embeds another document, what a form sends, what redirects. */
const removed = new Set([
  'script',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'portal',
  'base',
  'meta',
  'link',
  'input',
  'select',
  'textarea',
  'svg',
  'math',
  'template',
  'video',
  'audio',
  'source',
  'track',
]);
/** Elements dropped while their content stays: a page wrapped in one `<form>` (ASP.NET) keeps its items. */
const unwrapped = new Set(['form']);

/**
 * The attributes kept on every element: what selectors name (class, id, `data-*`, microdata), what
 * reads (`alt`, `datetime`, `title`, ARIA) and what lays out (`style`, table spans). No `on*`, no
 * `srcset`, no `action`, no `target`.
 */
const keptAttributes = [
  'class',
  'id',
  'title',
  'lang',
  'dir',
  'role',
  'aria-*',
  'data-*',
  'itemprop',
  'itemscope',
  'itemtype',
  'datetime',
  'alt',
  'width',
  'height',
  'colspan',
  'rowspan',
  'scope',
  'headers',
  'style',
  'hidden',
];

const options: sanitizeHtml.IOptions = {
  // Every element is kept (a page's own custom elements are what its selectors may name), but those
  // `removed` and `unwrapped` name; `style` stays so the page looks like itself.
  allowedTags: false,
  allowVulnerableTags: true,
  exclusiveFilter: (frame) => (removed.has(frame.tag) ? true : unwrapped.has(frame.tag) ? 'excludeTag' : false),
  allowedAttributes: { '*': keptAttributes, a: ['href'], area: ['href'], img: ['src'], q: ['cite'], blockquote: ['cite'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  // An image from elsewhere would be a request from the person's browser: only inline ones stay.
  allowedSchemesByTag: { img: ['data'] },
  // A relative address has no scheme for the rule above to refuse: an image keeps only an inline source.
  transformTags: {
    img: (tagName, attribs) => {
      const { src, ...rest } = attribs;
      return { tagName, attribs: src !== undefined && src.trim().toLowerCase().startsWith('data:') ? { ...rest, src } : rest };
    },
  },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
};

/**
 * A page (as fetched or rendered) made safe to show in the picker's frame, by sanitize-html: no
 * script, `<base>`, meta refresh, form controls, embedded documents, event attributes or
 * `javascript:` URLs; the structure (elements, classes, ids) stays, so selectors picked on it name
 * the same elements in the page a feed reads. Served under `snapshotPolicy` besides.
 */
export function sanitiseSnapshot(body: Uint8Array, contentType: string | undefined): string {
  // The doctype goes with the rest of the prologue; without one the frame would lay the page out in quirks mode.
  return `<!doctype html>\n${sanitizeHtml(decodePage(body, contentType), options)}`;
}
