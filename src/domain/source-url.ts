import { FeedmillError } from './errors.js';

export const maxUrlLength = 2048;

/** A feed source must be an absolute http(s) URL without credentials; anything else is `invalid_url`. */
export function parseSourceUrl(raw: string): URL {
  const text = raw.trim();
  if (text.length > maxUrlLength) {
    throw new FeedmillError('invalid_url', `Expected \`url\` of at most ${maxUrlLength} characters, got ${text.length}`);
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new FeedmillError('invalid_url', `Expected \`url\` to be an absolute http or https URL, got \`${text.slice(0, 200)}\``);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FeedmillError('invalid_url', `Expected \`url\` to use http or https, got \`${url.protocol}\``);
  }
  if (url.username || url.password) {
    throw new FeedmillError('invalid_url', 'Expected `url` without user name or password; feedmill does not send credentials to sources');
  }
  return url;
}
