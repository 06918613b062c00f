import { FeedmillError } from '../../domain/errors.js';

/**
 * Parses the address of a source, or of a redirect target relative to `base`, and accepts only
 * `http:` and `https:` URLs without credentials. WHATWG parsing also normalises the odd IPv4
 * spellings (`0x7f000001`, `2130706433`) to dotted quads, which the address policy then sees.
 */
export function parseSourceUrl(text: string, base?: URL): URL {
  const what = base === undefined ? 'the source' : `the redirect from ${base.href}`;
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw new FeedmillError('invalid_url', `Expected ${what} to be an absolute http or https URL, got \`${clip(text)}\``);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FeedmillError('invalid_url', `Expected ${what} to be an http or https URL, got a \`${url.protocol}\` URL`);
  }
  if (url.username !== '' || url.password !== '') {
    // The credentials stay out of the message.
    throw new FeedmillError(
      'invalid_url',
      `Expected ${what} to be a URL without a user name or password, got one with credentials; ` + 'feedmill fetches public sources only',
    );
  }
  return url;
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
