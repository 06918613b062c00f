import { Parser } from 'htmlparser2';
import { isFeedmillError } from '../../src/domain/errors.js';
import type { ErrorCode } from '../../src/domain/errors.js';

/**
 * The properties every fuzz target checks, in one place. Each is an oracle written independently
 * of the product's own rules (it does not call `safeUrl` or the sanitiser's policy): a check that
 * reused them would agree with any bug in them.
 */

/** What a target throws to report an input: the fuzz runner saves the input with this message. */
export class Finding extends Error {
  override readonly name: string = 'Finding';
  constructor(
    readonly kind: 'crash' | 'slow' | 'unsafe-output' | 'pollution',
    message: string,
  ) {
    super(`${kind}: ${message}`);
  }
}

/**
 * CPU time allowed for one call: a fixed allowance plus a per-byte one. CPU time (not wall time),
 * so a loaded machine does not slow an input past its bound; the per-byte part makes a parse that
 * grows faster than linearly with its input fail once the input is a few tens of kilobytes.
 * 10 µs a byte: extractPage takes ~5.5 µs a byte of CPU on dense nested markup on a loaded 2-core
 * machine, linearly (a 5 µs bound flagged it at 190 KB); quadratic work still passes it by far at 256 KB.
 */
export const timeBound = { fixedMs: 100, perByteUs: 10 } as const;

/**
 * How many times the bound a call may take: 1, except where other work shares the cores, which sets
 * FEEDMILL_FUZZ_TIME_SLACK=2: CI's bounded pass (test/fuzz/run.ts `--ci`) and the test suite's run
 * over the committed seeds (test/fuzz/targets.test.ts). There a neighbour's load pushed a linear
 * 170 KB page 3% and a linear 256 KB article 5% past the bound and failed the build; work that
 * grows faster than its input still passes twice the bound by far at these sizes, and the long runs
 * keep the tight bound. Read on each call, so a test file can set it after its imports.
 */
const timeSlack = (): number => Math.max(1, Number(process.env['FEEDMILL_FUZZ_TIME_SLACK'] ?? 1) || 1);

/** A target's own fixed allowance, where the work it fuzzes has a larger fixed part (extract-article). */
export interface CallBound {
  fixedMs?: number;
}

export function allowedCpuMs(bytes: number, bound: CallBound = {}): number {
  return ((bound.fixedMs ?? timeBound.fixedMs) + (bytes * timeBound.perByteUs) / 1000) * timeSlack();
}

const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

const prototypes: readonly [string, object][] = [
  ['Object.prototype', Object.prototype],
  ['Array.prototype', Array.prototype],
  ['Function.prototype', Function.prototype],
  ['String.prototype', String.prototype],
];
const ownKeys = (target: object): string => Reflect.ownKeys(target).map(String).sort().join(',');
const cleanPrototypes = new Map(prototypes.map(([name, target]) => [name, ownKeys(target)]));

/** Throws when a call has added (or removed) a property on a built-in prototype. */
export function checkPrototypes(): void {
  for (const [name, target] of prototypes) {
    if (ownKeys(target) !== cleanPrototypes.get(name)) throw new Finding('pollution', `${name} changed during the call`);
  }
  const probe: Record<string, unknown> = {};
  if (probe['polluted'] !== undefined) throw new Finding('pollution', 'a fresh object has a `polluted` property');
}

/**
 * Calls `parse` within the time bound for an input of `bytes` bytes, treating a FeedmillError with
 * one of `refusals` as the function's documented way of saying no. Any other exception is a crash.
 * Returns the result, or undefined when the input was refused.
 */
export function callParser<T>(bytes: number, refusals: readonly ErrorCode[], parse: () => T, bound: CallBound = {}): T | undefined {
  const start = cpuMs();
  let result: T | undefined;
  try {
    result = parse();
  } catch (error) {
    if (error instanceof Finding) throw error;
    if (!isFeedmillError(error) || !refusals.includes(error.code)) {
      const what = error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : String(error);
      throw new Finding('crash', `expected a result or a FeedmillError (${refusals.join(', ')}), got ${what}`);
    }
  }
  let spent = cpuMs() - start;
  // A call past the bound is timed twice more and judged by its fastest run: a garbage collection
  // or a burst on a neighbouring core slows one run, a parse that grows too fast slows all three.
  for (let again = 0; again < 2 && spent > allowedCpuMs(bytes, bound); again += 1) {
    const restart = cpuMs();
    try {
      parse();
    } catch {
      // The first call already judged what this input throws.
    }
    spent = Math.min(spent, cpuMs() - restart);
  }
  if (spent > allowedCpuMs(bytes, bound))
    throw new Finding(
      'slow',
      `${spent.toFixed(0)} ms of CPU for ${bytes} bytes (the least of three runs); the bound is ${allowedCpuMs(bytes, bound).toFixed(0)} ms`,
    );
  checkPrototypes();
  return result;
}

const safeSchemes = new Set(['http:', 'https:', 'mailto:']);

/** Throws unless `value` is an absolute http(s) or mailto URL (or empty, where `emptyAllowed`). */
export function checkUrl(where: string, value: string | null | undefined, emptyAllowed = true): void {
  if (value === null || value === undefined || (value === '' && emptyAllowed)) return;
  let protocol: string;
  try {
    protocol = new URL(value).protocol;
  } catch {
    throw new Finding('unsafe-output', `${where} is not an absolute URL: ${JSON.stringify(value.slice(0, 200))}`);
  }
  if (!safeSchemes.has(protocol))
    throw new Finding('unsafe-output', `${where} has the scheme ${protocol}: ${JSON.stringify(value.slice(0, 200))}`);
}

/** Elements that run code, load a document or restyle the page; none may leave the sanitiser. */
const forbiddenTags = new Set([
  'script', 'style', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'form', 'input', 'button',
  'textarea', 'select', 'svg', 'math', 'base', 'meta', 'link', 'template', 'noscript', 'portal',
]); // prettier-ignore
/** Attributes whose value is fetched or followed. */
const urlAttributes = new Set(['href', 'src', 'poster', 'cite', 'action', 'formaction', 'background', 'data', 'xlink:href', 'longdesc']);

/** Throws when sanitised HTML holds an element, attribute or URL that can run script or escape the item. */
export function checkHtml(where: string, html: string): void {
  const problems: string[] = [];
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (forbiddenTags.has(name)) problems.push(`a <${name}> element`);
        for (const [attribute, value] of Object.entries(attributes)) {
          if (attribute.startsWith('on')) problems.push(`an event handler ${attribute} on <${name}>`);
          else if (attribute === 'style' || attribute === 'srcset') problems.push(`a ${attribute} attribute on <${name}>`);
          else if (urlAttributes.has(attribute)) {
            try {
              checkUrl(`${attribute} of <${name}>`, value, false);
            } catch (error) {
              problems.push((error as Error).message);
            }
          }
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  if (problems.length > 0) throw new Finding('unsafe-output', `${where} holds ${problems.join('; ')}`);
}

/** The shape parseFeed and extractPage return, as far as the checks need it. */
interface FeedLike {
  link: string;
  icon: string;
  items: readonly {
    url: string;
    original_url?: string;
    description_html: string;
    thumbnail: string | null;
    enclosures: readonly { url: string }[];
  }[];
  feedLinks?: readonly { url: string }[];
}

/** Every URL and every piece of HTML in a parsed feed or page. */
export function checkFeed(feed: FeedLike): void {
  checkUrl('feed.link', feed.link);
  checkUrl('feed.icon', feed.icon);
  feed.feedLinks?.forEach((link, index) => checkUrl(`feedLinks[${index}].url`, link.url, false));
  feed.items.forEach((item, index) => {
    const at = `items[${index}]`;
    checkUrl(`${at}.url`, item.url);
    checkUrl(`${at}.original_url`, item.original_url);
    checkUrl(`${at}.thumbnail`, item.thumbnail);
    item.enclosures.forEach((enclosure, which) => checkUrl(`${at}.enclosures[${which}].url`, enclosure.url, false));
    checkHtml(`${at}.description_html`, item.description_html);
  });
}
