/// <reference lib="dom" />
/**
 * The picker page's script ("Pick items on the page", docs/selectors.md). The frame holds the
 * page's snapshot, same-origin and script-less (its own policy runs nothing): this script reaches
 * into it to take clicks (a link never navigates), turns a click into selectors (pick-selectors.ts),
 * outlines what they match, and asks the server for the items they give — the server reads them
 * with the feed's own extractor, so what the list shows is what the feed will hold.
 */
import { pickField, pickItems, type PickElement } from './pick-selectors.js';

/** The fields outlined in the frame, each with a style of its own. */
type Marked = 'item' | 'title' | 'date' | 'image';

interface ItemsAnswer {
  count: number;
  status: string;
  /** The list as the server renders it (escaped there). */
  list: string;
  error: { field: string; message: string } | null;
  /** Each selector's CSS part (no `@attribute`), to outline in the frame; null when not given. */
  highlight: Record<Marked, string | null>;
}

const frameStyle = `
[data-feedmill-pick~="item"] { outline: 3px solid #0b5cad !important; outline-offset: 2px; }
[data-feedmill-pick~="title"] { background: #fff3b0 !important; color: #1b1f24 !important; }
[data-feedmill-pick~="date"] { background: #c8f0d0 !important; color: #1b1f24 !important; }
[data-feedmill-pick~="image"] { outline: 3px dashed #b3261e !important; }
:focus { outline: 3px solid #b3261e !important; outline-offset: 2px; }
* { cursor: crosshair; }
`;

function startPicker(form: HTMLFormElement, frame: HTMLIFrameElement): void {
  const statusLine = document.getElementById('pick-status');
  const errorLine = document.getElementById('pick-error');
  const field = (name: string): HTMLInputElement | null => {
    const element = form.elements.namedItem(name);
    return element instanceof HTMLInputElement ? element : null;
  };
  const modes = document.getElementById('pick-modes');
  if (modes) modes.hidden = false;
  const mode = (): string => form.querySelector<HTMLInputElement>('input[name="pick_mode"]:checked')?.value ?? 'title';
  let highlight: ItemsAnswer['highlight'] = { item: null, title: null, date: null, image: null };
  let frameDocument: Document | null = null;

  /** The live region's line: how many items, how many outlined. */
  const tell = (text: string): void => {
    if (statusLine) statusLine.textContent = text;
  };
  /** What is wrong, next to the fields (an alert); null clears it. */
  const warn = (text: string | null): void => {
    if (!errorLine) return;
    errorLine.hidden = text === null;
    errorLine.textContent = text ?? '';
  };

  /** Outlines every item `highlight.item` matches in the frame, and in each the first match of its fields. */
  const outline = (): number => {
    const doc = frameDocument;
    if (!doc) return 0;
    for (const element of doc.querySelectorAll('[data-feedmill-pick]')) element.removeAttribute('data-feedmill-pick');
    const mark = (element: Element, name: Marked): void => {
      const now = element.getAttribute('data-feedmill-pick');
      element.setAttribute('data-feedmill-pick', now ? `${now} ${name}` : name);
    };
    const query = (root: ParentNode, css: string, all: boolean): Element[] => {
      try {
        return all ? [...root.querySelectorAll(css)] : [root.querySelector(css)].filter((found): found is Element => found !== null);
      } catch {
        // A selector the browser cannot read; the server's answer names it.
        return [];
      }
    };
    if (!highlight.item) return 0;
    const items = query(doc, highlight.item, true);
    for (const item of items) {
      mark(item, 'item');
      for (const name of ['title', 'date', 'image'] as const) {
        const css = highlight[name];
        if (css) for (const found of query(item, css, false)) mark(found, name);
      }
    }
    return items.length;
  };

  let sequence = 0;
  const refresh = async (): Promise<void> => {
    const asked = ++sequence;
    const body = new URLSearchParams();
    for (const [name, value] of new FormData(form)) if (typeof value === 'string') body.append(name, value);
    const response = await fetch('/dashboard/feeds/pick/items', {
      method: 'POST',
      body,
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
    });
    // A session that ended meanwhile: go to sign-in, which brings the person back here.
    if (response.redirected || !(response.headers.get('content-type') ?? '').startsWith('application/json')) {
      location.assign(response.url);
      return;
    }
    const answer = (await response.json()) as ItemsAnswer;
    if (asked !== sequence) return;
    highlight = answer.highlight;
    const outlined = outline();
    const fresh = new DOMParser().parseFromString(answer.list, 'text/html').getElementById('pick-items');
    const list = document.getElementById('pick-items');
    if (fresh && list) list.replaceWith(document.importNode(fresh, true));
    for (const input of form.querySelectorAll('input[aria-invalid]')) input.removeAttribute('aria-invalid');
    if (answer.error) field(answer.error.field)?.setAttribute('aria-invalid', 'true');
    warn(answer.error?.message ?? null);
    tell(highlight.item ? `${answer.status} ${outlined} highlighted in the page.` : answer.status);
  };

  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => void refresh().catch(() => warn('The items could not be read; try again.')), 300);
  };

  const set = (name: string, value: string): void => {
    const input = field(name);
    if (input) input.value = value;
  };

  const onClick = (event: MouseEvent): void => {
    // Nothing in the snapshot navigates or submits: a click is a pick.
    event.preventDefault();
    event.stopPropagation();
    const target = event.target as PickElement | null;
    if (!target || typeof target.tagName !== 'string') return;
    if (mode() === 'title') {
      const picked = pickItems(target);
      if (!picked) {
        warn('Nothing around that element repeats: click the title of an item in a list, or type the item selector.');
        return;
      }
      set('item', picked.item);
      set('title', picked.title);
    } else {
      const item = field('item')?.value ?? '';
      const picked = item ? pickField(item, target) : null;
      if (!picked) {
        warn('That is outside the highlighted items: pick a title first, then click inside one of the items.');
        return;
      }
      set(mode(), picked);
    }
    schedule();
  };

  const wire = (): void => {
    const doc = frame.contentDocument;
    // The first document of a frame is an empty about:blank; the snapshot replaces it.
    if (!doc || doc.URL === 'about:blank' || doc === frameDocument) return;
    frameDocument = doc;
    const style = doc.createElement('style');
    style.textContent = frameStyle;
    (doc.head ?? doc.documentElement).append(style);
    doc.addEventListener('click', onClick, true);
    // A form would be gone from the snapshot already; a submit is refused all the same.
    doc.addEventListener('submit', (event) => event.preventDefault(), true);
    outline();
  };
  frame.addEventListener('load', wire);
  if (frame.contentDocument?.readyState === 'complete') wire();

  form.addEventListener('input', (event) => {
    if (event.target instanceof HTMLInputElement && event.target.name === 'pick_mode') return;
    schedule();
  });
  form.addEventListener('change', (event) => {
    if (!(event.target instanceof HTMLSelectElement) || event.target.name !== 'render') return;
    // Another `render` is another snapshot: the frame and the list both read the new one.
    const address = new URL(frame.src);
    address.searchParams.set('render', event.target.value);
    frame.src = address.href;
    schedule();
  });
  if (field('item')?.value) schedule();
}

const pickForm = document.getElementById('pick-form');
const pickFrame = document.getElementById('pick-frame');
if (pickForm instanceof HTMLFormElement && pickFrame instanceof HTMLIFrameElement) startPicker(pickForm, pickFrame);
