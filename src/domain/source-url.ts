import { FeedmillError } from './errors.js';
import { expectedMessage } from './field-message.js';

export const maxUrlLength = 2048;

/** A feed source must be an absolute http(s) URL without credentials; anything else is `invalid_url`. */
export function parseSourceUrl(raw: string): URL {
  const text = raw.trim();
  if (text.length > maxUrlLength) {
    throw new FeedmillError(
      'invalid_url',
      expectedMessage('url', `a URL of at most ${maxUrlLength} characters`, { said: `${text.length} characters` }),
    );
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new FeedmillError('invalid_url', expectedMessage('url', 'an absolute http or https URL', { value: text }));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FeedmillError('invalid_url', expectedMessage('url', 'an http or https URL', { said: `a ${url.protocol} URL` }));
  }
  if (url.username || url.password) {
    throw new FeedmillError(
      'invalid_url',
      expectedMessage(
        'url',
        'a URL without user name or password',
        { said: 'one with credentials' },
        'feedmill does not send credentials to sources',
      ),
    );
  }
  return url;
}
