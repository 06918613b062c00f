/**
 * Selectors from one click (the dashboard's "Pick items on the page", docs/selectors.md): the
 * repeated block around the clicked element becomes `item`, and the clicked element's place in it
 * the field's selector, spelled so it names the same place in every sibling block. Pure: it reads
 * the DOM it is given (the picker's frame in the browser, jsdom in the tests) and changes nothing.
 * Served to the browser as its own module; it imports nothing.
 */

/** What of a DOM element this reads: browser elements and jsdom's alike. */
export interface PickElement {
  readonly tagName: string;
  readonly id: string;
  readonly classList: Iterable<string>;
  readonly parentElement: PickElement | null;
  readonly children: ArrayLike<PickElement>;
  querySelector(selectors: string): PickElement | null;
  querySelectorAll(selectors: string): ArrayLike<PickElement>;
  closest(selectors: string): PickElement | null;
}

/** Text-level elements: a title's link or a date's `<time>` is a piece of an item, never the item. */
const textLevel = new Set([
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'br',
  'cite',
  'code',
  'data',
  'em',
  'font',
  'i',
  'img',
  'kbd',
  'label',
  'mark',
  'picture',
  'q',
  's',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'time',
  'u',
  'wbr',
]);
/** Never the repeated block: table cells and sections repeat within a row; the row is the item. */
const neverItems = new Set(['td', 'th', 'tbody', 'thead', 'tfoot', 'html', 'head', 'body']);
/** Groups the parser may add by itself (a `<tr>` is always in a `<tbody>` in the browser, not in the page's text). */
const implied = new Set(['tbody', 'thead', 'tfoot']);
/** A class usable as it is in a selector (no escaping), and not one that says a passing state. */
const plainClass = /^-?[_a-zA-Z][_a-zA-Z0-9-]*$/;
const stateClass = /^(active|current|selected|hover|focus|visited|odd|even|first|last|is-.*|has-.*|feedmill-.*)$/;

const nameOf = (element: PickElement): string => element.tagName.toLowerCase();
const classesOf = (element: PickElement): string[] =>
  [...element.classList].filter((name) => plainClass.test(name) && !stateClass.test(name));
const plainId = (element: PickElement): string | null => (element.id !== '' && plainClass.test(element.id) ? element.id : null);

/** `tag.class1.class2` */
const segment = (element: PickElement, classes: readonly string[] = classesOf(element)): string =>
  nameOf(element) + classes.map((name) => `.${name}`).join('');

/** Two elements are alike when they have the same tag and share a class (or both have none). */
function alike(a: PickElement, b: PickElement): boolean {
  if (nameOf(a) !== nameOf(b)) return false;
  const own = classesOf(a);
  const theirs = classesOf(b);
  if (own.length === 0 || theirs.length === 0) return own.length === theirs.length;
  return own.some((name) => theirs.includes(name));
}

/** The element and its siblings alike it, when there are at least two. */
function repeated(element: PickElement): PickElement[] | null {
  const parent = element.parentElement;
  if (parent === null) return null;
  const siblings = Array.from(parent.children).filter((sibling) => alike(sibling, element));
  return siblings.length >= 2 ? siblings : null;
}

const commonClasses = (elements: readonly PickElement[]): string[] =>
  elements.reduce<string[]>(
    (common, element) => common.filter((name) => classesOf(element).includes(name)),
    classesOf(elements[0] as PickElement),
  );

/** The container the item selector is scoped to: the block's parent, or the table past a group the browser added. */
function containerOf(block: PickElement): PickElement | null {
  let container = block.parentElement;
  while (container !== null && implied.has(nameOf(container))) container = container.parentElement;
  return container;
}

/** The document's root element, where an item selector is tried. */
function rootOf(element: PickElement): PickElement {
  let root = element;
  while (root.parentElement !== null) root = root.parentElement;
  return root;
}

/** `item` for a repeated block: its own tag and shared classes, scoped by its container when that alone matches more. */
function itemSelector(block: PickElement, siblings: readonly PickElement[]): string {
  const own = segment(block, commonClasses(siblings));
  const root = rootOf(block);
  if (own.includes('.') && root.querySelectorAll(own).length === siblings.length) return own;
  const container = containerOf(block);
  if (container === null) return own;
  const id = plainId(container);
  // Descendant, not child: the page's text may lack the `<tbody>` the browser put between them.
  return `${id !== null ? `#${id}` : segment(container)} ${own}`;
}

/**
 * The selector of `target` inside `item`, as short as it can be while the first match in `item`
 * is still `target`: `h2 a`, `.byline time`. Empty when the target is the item itself.
 */
export function relativeSelector(item: PickElement, target: PickElement): string {
  const path: PickElement[] = [];
  for (let element: PickElement | null = target; element !== null && element !== item; element = element.parentElement)
    path.unshift(element);
  if (path.length === 0) return '';
  // The shortest that finds the target first; one that names a class beats a bare `a`, which the
  // next item may begin with an image link to.
  let bare: string | null = null;
  for (let length = 1; length <= path.length; length++) {
    const selector = path
      .slice(-length)
      .map((element) => segment(element))
      .join(' ');
    if (item.querySelector(selector) !== target) continue;
    if (selector.includes('.')) return selector;
    bare ??= selector;
  }
  if (bare !== null) return bare;
  // Alike siblings all the way down: the position among them tells them apart.
  return path
    .map((element) => {
      const parent = element.parentElement;
      const sameTag = parent === null ? [element] : Array.from(parent.children).filter((sibling) => nameOf(sibling) === nameOf(element));
      return sameTag.length > 1 ? `${segment(element)}:nth-of-type(${sameTag.indexOf(element) + 1})` : segment(element);
    })
    .join(' > ');
}

/** What a click on an item's title gives. */
export interface PickedItems {
  item: string;
  /** Relative to the item; empty when the clicked element is the item (its first link's text is the title then). */
  title: string;
}

/**
 * From a click on one item's title: walks up from it to the nearest block whose parent holds at
 * least one more block alike it (same tag, a class in common), skipping text-level elements and
 * table cells; that block's kind is the item, and the title is the clicked element's place in it.
 * @returns null when nothing around the element repeats (then the person types the selectors)
 */
export function pickItems(target: PickElement): PickedItems | null {
  for (let block: PickElement | null = target; block !== null; block = block.parentElement) {
    const name = nameOf(block);
    if (textLevel.has(name) || neverItems.has(name)) continue;
    const siblings = repeated(block);
    if (siblings === null) continue;
    return { item: itemSelector(block, siblings), title: relativeSelector(block, target) };
  }
  return null;
}

/**
 * From a click on an item's date, image or other field: the clicked element's place in the item
 * it lies in (a `<time>` around the click is taken whole).
 * @returns null when the click is outside every element `item` matches
 */
export function pickField(item: string, target: PickElement): string | null {
  const block = target.closest(item);
  if (block === null) return null;
  const time = target.closest('time');
  const picked = time !== null && block !== time && isInside(time, block) ? time : target;
  return relativeSelector(block, picked);
}

function isInside(element: PickElement, ancestor: PickElement): boolean {
  for (let current = element.parentElement; current !== null; current = current.parentElement) if (current === ancestor) return true;
  return false;
}
